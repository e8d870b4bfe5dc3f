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
# xent.1 = log_softmax scores
declare intvar d/dxent.1 [10]
declare intvar dxent.1/dscores [10]
define d/dxent.1 = neg xent.2
define dxent.1/dscores = softmax scores

# scores = add scores.2 b
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
define tmp/scores/1 = sum d/dxent.1
define tmp/scores/2 = mul dxent.1/dscores tmp/scores/1
define d/dscores = sub d/dxent.1 tmp/scores/2

# scores.2 = matmul W scores.1
declare intvar dscores.2/dscores.1 [128, 10]
define dscores.2/dscores.1 = transpose W

# scores.1 = flatten a2
declare intvar d/dscores.1 [128]
define d/dscores.1 = matmul dscores.2/dscores.1 d/dscores

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
define d/da2.2 = mul d/da2.3 da2.3/da2.2

# a1 = maxpool2d a1.4 2
declare intvar d/da1 [16, 4, 4]
define d/da1 = conv2d_image_grad d/da2.2 K2 a1 1 1

# a1.4 = relu a1.3
declare intvar d/da1.4 [16, 8, 8]
declare intvar da1.4/da1.3 [16, 8, 8]
define d/da1.4 = maxpool2d_grad d/da1 a1.4 2
define da1.4/da1.3 = step a1.3

# a1.3 = add a1.2 c1
declare intvar d/da1.3 [16, 8, 8]
define d/da1.3 = mul d/da1.4 da1.4/da1.3

# weight b
declare output d/db [10]
define d/db = d/dscores

# weight W
declare output d/dW [10, 128]
define d/dW = outer d/dscores scores.1

# weight c2
declare output d/dc2 [32, 1, 1]
define d/dc2 = sum_like d/da2.2 c2

# weight K2
declare output d/dK2 [32, 16, 3, 3]
define d/dK2 = conv2d_kernel_grad d/da2.2 a1 K2 1 1

# weight c1
declare output d/dc1 [16, 1, 1]
define d/dc1 = sum_like d/da1.3 c1

# weight K1
declare output d/dK1 [16, 1, 3, 3]
define d/dK1 = conv2d_kernel_grad d/da1.3 a1.1 K1 1 1
