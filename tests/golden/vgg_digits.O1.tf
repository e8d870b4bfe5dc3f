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
# xent.1 = log_softmax scores
declare intvar d/dxent.1 [10]
declare intvar dxent.1/dscores [10]
define d/dxent.1 = neg xent.2
define dxent.1/dscores = softmax scores

# scores = add scores.3 b
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
define tmp/scores/1 = sum d/dxent.1
define tmp/scores/2 = mul dxent.1/dscores tmp/scores/1
define d/dscores = sub d/dxent.1 tmp/scores/2

# scores.3 = matmul W scores.2
declare intvar dscores.3/dscores.2 [64, 10]
define dscores.3/dscores.2 = transpose W

# scores.2 = mul f scores.1
declare intvar d/dscores.2 [64]
define d/dscores.2 = matmul dscores.3/dscores.2 d/dscores

# f = flatten a2
declare intvar d/df [64]
define d/df = mul d/dscores.2 scores.1

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
define d/da2.2.2 = mul d/da2.2 da2.2/da2.2.2

# a2.1 = relu a2.1.2
declare intvar d/da2.1 [16, 4, 4]
declare intvar da2.1/da2.1.2 [16, 4, 4]
define d/da2.1 = conv2d_image_grad d/da2.2.2 K4 a2.1 1 1
define da2.1/da2.1.2 = step a2.1.2

# a2.1.2 = add a2.1.1 c3
declare intvar d/da2.1.2 [16, 4, 4]
define d/da2.1.2 = mul d/da2.1 da2.1/da2.1.2

# a1 = maxpool2d a1.3 2
declare intvar d/da1 [8, 4, 4]
define d/da1 = conv2d_image_grad d/da2.1.2 K3 a1 1 1

# a1.3 = relu a1.3.2
declare intvar d/da1.3 [8, 8, 8]
declare intvar da1.3/da1.3.2 [8, 8, 8]
define d/da1.3 = maxpool2d_grad d/da1 a1.3 2
define da1.3/da1.3.2 = step a1.3.2

# a1.3.2 = add a1.3.1 c2
declare intvar d/da1.3.2 [8, 8, 8]
define d/da1.3.2 = mul d/da1.3 da1.3/da1.3.2

# a1.2 = relu a1.2.2
declare intvar d/da1.2 [8, 8, 8]
declare intvar da1.2/da1.2.2 [8, 8, 8]
define d/da1.2 = conv2d_image_grad d/da1.3.2 K2 a1.2 1 1
define da1.2/da1.2.2 = step a1.2.2

# a1.2.2 = add a1.2.1 c1
declare intvar d/da1.2.2 [8, 8, 8]
define d/da1.2.2 = mul d/da1.2 da1.2/da1.2.2

# weight b
declare output d/db [10]
define d/db = d/dscores

# weight W
declare output d/dW [10, 64]
define d/dW = outer d/dscores scores.2

# weight c4
declare output d/dc4 [16, 1, 1]
define d/dc4 = sum_like d/da2.2.2 c4

# weight K4
declare output d/dK4 [16, 16, 3, 3]
define d/dK4 = conv2d_kernel_grad d/da2.2.2 a2.1 K4 1 1

# weight c3
declare output d/dc3 [16, 1, 1]
define d/dc3 = sum_like d/da2.1.2 c3

# weight K3
declare output d/dK3 [16, 8, 3, 3]
define d/dK3 = conv2d_kernel_grad d/da2.1.2 a1 K3 1 1

# weight c2
declare output d/dc2 [8, 1, 1]
define d/dc2 = sum_like d/da1.3.2 c2

# weight K2
declare output d/dK2 [8, 8, 3, 3]
define d/dK2 = conv2d_kernel_grad d/da1.3.2 a1.2 K2 1 1

# weight c1
declare output d/dc1 [8, 1, 1]
define d/dc1 = sum_like d/da1.2.2 c1

# weight K1
declare output d/dK1 [8, 1, 3, 3]
define d/dK1 = conv2d_kernel_grad d/da1.2.2 a1.1 K1 1 1
