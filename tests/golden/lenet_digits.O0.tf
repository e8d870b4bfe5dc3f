declare input x [8, 8]
declare input label
declare weight K1 [16, 1, 3, 3]
declare weight c1 [16, 1, 1]
declare weight K2 [32, 16, 3, 3]
declare weight c2 [32, 1, 1]
declare weight W [10, 128]
declare weight b [10]
declare intvar a1 [16, 4, 4]
declare intvar a2 [32, 2, 2]
declare intvar scores [10]
declare output correct
declare loss xent
declare intvar a1.1 [1, 8, 8]
declare intvar a1.2 [16, 8, 8]
declare intvar a1.3 [16, 8, 8]
declare intvar a1.4 [16, 8, 8]
declare intvar a2.1 [32, 4, 4]
declare intvar a2.2 [32, 4, 4]
declare intvar a2.3 [32, 4, 4]
declare intvar scores.1 [128]
declare intvar scores.2 [10]
declare intvar xent.1 [10]
declare intvar xent.2 [10]
declare intvar xent.3
declare intvar correct.1

# forward: the shape program
define a1.1 = reshape x [1, 8, 8]
define a1.2 = conv2d a1.1 K1 1 1
define a1.3 = add a1.2 c1
define a1.4 = relu a1.3
define a1 = maxpool2d a1.4 2
define a2.1 = conv2d a1 K2 1 1
define a2.2 = add a2.1 c2
define a2.3 = relu a2.2
define a2 = maxpool2d a2.3 2
define scores.1 = flatten a2
define scores.2 = matmul W scores.1
define scores = add scores.2 b
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

# scores = add scores.2 b
declare intvar tmp/scores/2
declare intvar tmp/scores/3 [10]
declare intvar tmp/scores/1 [10]
declare intvar tmp/scores/4 [10]
declare intvar d/dscores [10]
declare intvar dscores/dscores.2
declare intvar dscores/db
define tmp/scores/2 = sum d/dxent.1
define tmp/scores/3 = mul dxent.1/dscores tmp/scores/2
define tmp/scores/1 = sub d/dxent.1 tmp/scores/3
define tmp/scores/4 = broadcast_like 0 scores
define d/dscores = add tmp/scores/1 tmp/scores/4
define dscores/dscores.2 = 1
define dscores/db = 1

# scores.2 = matmul W scores.1
declare intvar d/dscores.2 [10]
declare intvar dscores.2/dW [128]
declare intvar dscores.2/dscores.1 [128, 10]
define d/dscores.2 = mul d/dscores dscores/dscores.2
define dscores.2/dW = scores.1
define dscores.2/dscores.1 = transpose W

# scores.1 = flatten a2
declare intvar d/dscores.1 [128]
define d/dscores.1 = matmul dscores.2/dscores.1 d/dscores.2

# a2 = maxpool2d a2.3 2
declare intvar d/da2 [32, 2, 2]
define d/da2 = reshape d/dscores.1 [32, 2, 2]

# a2.3 = relu a2.2
declare intvar d/da2.3 [32, 4, 4]
declare intvar da2.3/da2.2 [32, 4, 4]
define d/da2.3 = maxpool2d_grad d/da2 a2.3 2
define da2.3/da2.2 = step a2.2

# a2.2 = add a2.1 c2
declare intvar d/da2.2 [32, 4, 4]
declare intvar da2.2/da2.1
declare intvar da2.2/dc2
define d/da2.2 = mul d/da2.3 da2.3/da2.2
define da2.2/da2.1 = 1
define da2.2/dc2 = 1

# a2.1 = conv2d a1 K2 1 1
declare intvar d/da2.1 [32, 4, 4]
define d/da2.1 = mul d/da2.2 da2.2/da2.1

# a1 = maxpool2d a1.4 2
declare intvar d/da1 [16, 4, 4]
define d/da1 = conv2d_image_grad d/da2.1 K2 a1 1 1

# a1.4 = relu a1.3
declare intvar d/da1.4 [16, 8, 8]
declare intvar da1.4/da1.3 [16, 8, 8]
define d/da1.4 = maxpool2d_grad d/da1 a1.4 2
define da1.4/da1.3 = step a1.3

# a1.3 = add a1.2 c1
declare intvar d/da1.3 [16, 8, 8]
declare intvar da1.3/da1.2
declare intvar da1.3/dc1
define d/da1.3 = mul d/da1.4 da1.4/da1.3
define da1.3/da1.2 = 1
define da1.3/dc1 = 1

# a1.2 = conv2d a1.1 K1 1 1
declare intvar d/da1.2 [16, 8, 8]
define d/da1.2 = mul d/da1.3 da1.3/da1.2

# a1.1 = reshape x [1, 8, 8]
declare intvar d/da1.1 [1, 8, 8]
define d/da1.1 = conv2d_image_grad d/da1.2 K1 a1.1 1 1

# weight b
declare output d/db [10]
define d/db = mul d/dscores dscores/db

# weight W
declare output d/dW [10, 128]
define d/dW = outer d/dscores.2 dscores.2/dW

# weight c2
declare intvar tmp/c2/1 [32, 4, 4]
declare output d/dc2 [32, 1, 1]
define tmp/c2/1 = mul d/da2.2 da2.2/dc2
define d/dc2 = sum_like tmp/c2/1 c2

# weight K2
declare output d/dK2 [32, 16, 3, 3]
define d/dK2 = conv2d_kernel_grad d/da2.1 a1 K2 1 1

# weight c1
declare intvar tmp/c1/1 [16, 8, 8]
declare output d/dc1 [16, 1, 1]
define tmp/c1/1 = mul d/da1.3 da1.3/dc1
define d/dc1 = sum_like tmp/c1/1 c1

# weight K1
declare output d/dK1 [16, 1, 3, 3]
define d/dK1 = conv2d_kernel_grad d/da1.2 a1.1 K1 1 1

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
