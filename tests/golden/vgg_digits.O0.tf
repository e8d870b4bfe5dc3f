declare input x [8, 8]
declare input label
declare weight K1 [8, 1, 3, 3]
declare weight c1 [8, 1, 1]
declare weight K2 [8, 8, 3, 3]
declare weight c2 [8, 1, 1]
declare weight K3 [16, 8, 3, 3]
declare weight c3 [16, 1, 1]
declare weight K4 [16, 16, 3, 3]
declare weight c4 [16, 1, 1]
declare weight W [10, 64]
declare weight b [10]
declare intvar a1 [8, 4, 4]
declare intvar a2 [16, 2, 2]
declare intvar f [64]
declare intvar scores [10]
declare output correct
declare loss xent
declare intvar a1.1 [1, 8, 8]
declare intvar a1.2 [8, 8, 8]
declare intvar a1.3 [8, 8, 8]
declare intvar a1.2.1 [8, 8, 8]
declare intvar a1.2.2 [8, 8, 8]
declare intvar a1.3.1 [8, 8, 8]
declare intvar a1.3.2 [8, 8, 8]
declare intvar a2.1 [16, 4, 4]
declare intvar a2.2 [16, 4, 4]
declare intvar a2.1.1 [16, 4, 4]
declare intvar a2.1.2 [16, 4, 4]
declare intvar a2.2.1 [16, 4, 4]
declare intvar a2.2.2 [16, 4, 4]
declare intvar scores.1 [64]
declare intvar scores.2 [64]
declare intvar scores.3 [10]
declare intvar xent.1 [10]
declare intvar xent.2 [10]
declare intvar xent.3
declare intvar correct.1

# forward: the shape program
define a1.1 = reshape x [1, 8, 8]
define a1.2.1 = conv2d a1.1 K1 1 1
define a1.2.2 = add a1.2.1 c1
define a1.2 = relu a1.2.2
define a1.3.1 = conv2d a1.2 K2 1 1
define a1.3.2 = add a1.3.1 c2
define a1.3 = relu a1.3.2
define a1 = maxpool2d a1.3 2
define a2.1.1 = conv2d a1 K3 1 1
define a2.1.2 = add a2.1.1 c3
define a2.1 = relu a2.1.2
define a2.2.1 = conv2d a2.1 K4 1 1
define a2.2.2 = add a2.2.1 c4
define a2.2 = relu a2.2.2
define a2 = maxpool2d a2.2 2
define f = flatten a2
define scores.1 = dropout_mask f 0.25
define scores.2 = mul f scores.1
define scores.3 = matmul W scores.2
define scores = add scores.3 b
define xent.1 = log_softmax scores
define xent.2 = one_hot label 10
define xent.3 = dot xent.1 xent.2
define xent = neg xent.3
define correct.1 = argmax scores
define correct = equal correct.1 label

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# correct = equal correct.1 label
declare intvar d/dcorrect
declare intvar dcorrect/dcorrect.1
declare intvar dcorrect/dlabel
define d/dcorrect = 0
define dcorrect/dcorrect.1 = 0
define dcorrect/dlabel = 0

# correct.1 = argmax scores
declare intvar d/dcorrect.1
define d/dcorrect.1 = mul d/dcorrect dcorrect/dcorrect.1

# xent = neg xent.3
declare intvar d/dxent
declare intvar dxent/dxent.3
define d/dxent = 1
define dxent/dxent.3 = -1

# xent.3 = dot xent.1 xent.2
declare intvar d/dxent.3
declare intvar dxent.3/dxent.1 [10]
declare intvar dxent.3/dxent.2 [10]
define d/dxent.3 = mul d/dxent dxent/dxent.3
define dxent.3/dxent.1 = xent.2
define dxent.3/dxent.2 = xent.1

# xent.2 = one_hot label 10
declare intvar d/dxent.2 [10]
define d/dxent.2 = mul d/dxent.3 dxent.3/dxent.2

# xent.1 = log_softmax scores
declare intvar d/dxent.1 [10]
declare intvar dxent.1/dscores [10]
define d/dxent.1 = mul d/dxent.3 dxent.3/dxent.1
define dxent.1/dscores = softmax scores

# scores = add scores.3 b
declare intvar tmp/scores/2
declare intvar tmp/scores/3 [10]
declare intvar tmp/scores/1 [10]
declare intvar tmp/scores/4 [10]
declare intvar d/dscores [10]
declare intvar dscores/dscores.3
declare intvar dscores/db
define tmp/scores/2 = sum d/dxent.1
define tmp/scores/3 = mul dxent.1/dscores tmp/scores/2
define tmp/scores/1 = sub d/dxent.1 tmp/scores/3
define tmp/scores/4 = broadcast_like 0 scores
define d/dscores = add tmp/scores/1 tmp/scores/4
define dscores/dscores.3 = 1
define dscores/db = 1

# scores.3 = matmul W scores.2
declare intvar d/dscores.3 [10]
declare intvar dscores.3/dW [64]
declare intvar dscores.3/dscores.2 [64, 10]
define d/dscores.3 = mul d/dscores dscores/dscores.3
define dscores.3/dW = scores.2
define dscores.3/dscores.2 = transpose W

# scores.2 = mul f scores.1
declare intvar d/dscores.2 [64]
declare intvar dscores.2/df [64]
declare intvar dscores.2/dscores.1 [64]
define d/dscores.2 = matmul dscores.3/dscores.2 d/dscores.3
define dscores.2/df = scores.1
define dscores.2/dscores.1 = f

# scores.1 = dropout_mask f 0.25
declare intvar d/dscores.1 [64]
declare intvar dscores.1/df
define d/dscores.1 = mul d/dscores.2 dscores.2/dscores.1
define dscores.1/df = 0

# f = flatten a2
declare intvar tmp/f/1 [64]
declare intvar tmp/f/2 [64]
declare intvar d/df [64]
define tmp/f/1 = mul d/dscores.1 dscores.1/df
define tmp/f/2 = mul d/dscores.2 dscores.2/df
define d/df = add tmp/f/1 tmp/f/2

# a2 = maxpool2d a2.2 2
declare intvar d/da2 [16, 2, 2]
define d/da2 = reshape d/df [16, 2, 2]

# a2.2 = relu a2.2.2
declare intvar d/da2.2 [16, 4, 4]
declare intvar da2.2/da2.2.2 [16, 4, 4]
define d/da2.2 = maxpool2d_grad d/da2 a2.2 2
define da2.2/da2.2.2 = step a2.2.2

# a2.2.2 = add a2.2.1 c4
declare intvar d/da2.2.2 [16, 4, 4]
declare intvar da2.2.2/da2.2.1
declare intvar da2.2.2/dc4
define d/da2.2.2 = mul d/da2.2 da2.2/da2.2.2
define da2.2.2/da2.2.1 = 1
define da2.2.2/dc4 = 1

# a2.2.1 = conv2d a2.1 K4 1 1
declare intvar d/da2.2.1 [16, 4, 4]
define d/da2.2.1 = mul d/da2.2.2 da2.2.2/da2.2.1

# a2.1 = relu a2.1.2
declare intvar d/da2.1 [16, 4, 4]
declare intvar da2.1/da2.1.2 [16, 4, 4]
define d/da2.1 = conv2d_image_grad d/da2.2.1 K4 a2.1 1 1
define da2.1/da2.1.2 = step a2.1.2

# a2.1.2 = add a2.1.1 c3
declare intvar d/da2.1.2 [16, 4, 4]
declare intvar da2.1.2/da2.1.1
declare intvar da2.1.2/dc3
define d/da2.1.2 = mul d/da2.1 da2.1/da2.1.2
define da2.1.2/da2.1.1 = 1
define da2.1.2/dc3 = 1

# a2.1.1 = conv2d a1 K3 1 1
declare intvar d/da2.1.1 [16, 4, 4]
define d/da2.1.1 = mul d/da2.1.2 da2.1.2/da2.1.1

# a1 = maxpool2d a1.3 2
declare intvar d/da1 [8, 4, 4]
define d/da1 = conv2d_image_grad d/da2.1.1 K3 a1 1 1

# a1.3 = relu a1.3.2
declare intvar d/da1.3 [8, 8, 8]
declare intvar da1.3/da1.3.2 [8, 8, 8]
define d/da1.3 = maxpool2d_grad d/da1 a1.3 2
define da1.3/da1.3.2 = step a1.3.2

# a1.3.2 = add a1.3.1 c2
declare intvar d/da1.3.2 [8, 8, 8]
declare intvar da1.3.2/da1.3.1
declare intvar da1.3.2/dc2
define d/da1.3.2 = mul d/da1.3 da1.3/da1.3.2
define da1.3.2/da1.3.1 = 1
define da1.3.2/dc2 = 1

# a1.3.1 = conv2d a1.2 K2 1 1
declare intvar d/da1.3.1 [8, 8, 8]
define d/da1.3.1 = mul d/da1.3.2 da1.3.2/da1.3.1

# a1.2 = relu a1.2.2
declare intvar d/da1.2 [8, 8, 8]
declare intvar da1.2/da1.2.2 [8, 8, 8]
define d/da1.2 = conv2d_image_grad d/da1.3.1 K2 a1.2 1 1
define da1.2/da1.2.2 = step a1.2.2

# a1.2.2 = add a1.2.1 c1
declare intvar d/da1.2.2 [8, 8, 8]
declare intvar da1.2.2/da1.2.1
declare intvar da1.2.2/dc1
define d/da1.2.2 = mul d/da1.2 da1.2/da1.2.2
define da1.2.2/da1.2.1 = 1
define da1.2.2/dc1 = 1

# a1.2.1 = conv2d a1.1 K1 1 1
declare intvar d/da1.2.1 [8, 8, 8]
define d/da1.2.1 = mul d/da1.2.2 da1.2.2/da1.2.1

# a1.1 = reshape x [1, 8, 8]
declare intvar d/da1.1 [1, 8, 8]
define d/da1.1 = conv2d_image_grad d/da1.2.1 K1 a1.1 1 1

# weight b
declare output d/db [10]
define d/db = mul d/dscores dscores/db

# weight W
declare output d/dW [10, 64]
define d/dW = outer d/dscores.3 dscores.3/dW

# weight c4
declare intvar tmp/c4/1 [16, 4, 4]
declare output d/dc4 [16, 1, 1]
define tmp/c4/1 = mul d/da2.2.2 da2.2.2/dc4
define d/dc4 = sum_like tmp/c4/1 c4

# weight K4
declare output d/dK4 [16, 16, 3, 3]
define d/dK4 = conv2d_kernel_grad d/da2.2.1 a2.1 K4 1 1

# weight c3
declare intvar tmp/c3/1 [16, 4, 4]
declare output d/dc3 [16, 1, 1]
define tmp/c3/1 = mul d/da2.1.2 da2.1.2/dc3
define d/dc3 = sum_like tmp/c3/1 c3

# weight K3
declare output d/dK3 [16, 8, 3, 3]
define d/dK3 = conv2d_kernel_grad d/da2.1.1 a1 K3 1 1

# weight c2
declare intvar tmp/c2/1 [8, 8, 8]
declare output d/dc2 [8, 1, 1]
define tmp/c2/1 = mul d/da1.3.2 da1.3.2/dc2
define d/dc2 = sum_like tmp/c2/1 c2

# weight K2
declare output d/dK2 [8, 8, 3, 3]
define d/dK2 = conv2d_kernel_grad d/da1.3.1 a1.2 K2 1 1

# weight c1
declare intvar tmp/c1/1 [8, 8, 8]
declare output d/dc1 [8, 1, 1]
define tmp/c1/1 = mul d/da1.2.2 da1.2.2/dc1
define d/dc1 = sum_like tmp/c1/1 c1

# weight K1
declare output d/dK1 [8, 1, 3, 3]
define d/dK1 = conv2d_kernel_grad d/da1.2.1 a1.1 K1 1 1

# exp_output label
declare intvar tmp/label/1
declare intvar tmp/label/2
declare intvar d/dlabel
define tmp/label/1 = broadcast_like 0 label
define tmp/label/2 = mul d/dcorrect dcorrect/dlabel
define d/dlabel = add tmp/label/1 tmp/label/2

# input x
declare intvar d/dx [8, 8]
define d/dx = reshape d/da1.1 [8, 8]
