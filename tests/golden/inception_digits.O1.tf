declare input x [8, 8]
declare input label
declare weight K0 [8, 1, 3, 3]
declare weight c0 [8, 1, 1]
declare weight K1 [8, 8, 1, 1]
declare weight c1 [8, 1, 1]
declare weight K2 [8, 8, 1, 1]
declare weight c2 [8, 1, 1]
declare weight K3 [8, 8, 3, 3]
declare weight c3 [8, 1, 1]
declare weight K4 [4, 8, 1, 1]
declare weight c4 [4, 1, 1]
declare weight K5 [4, 4, 5, 5]
declare weight c5 [4, 1, 1]
declare weight K6 [4, 8, 1, 1]
declare weight c6 [4, 1, 1]
declare weight W [10, 384]
declare weight b [10]
declare intvar h [8, 8, 8]
declare intvar one [8, 8, 8]
declare intvar three [8, 8, 8]
declare intvar five [4, 8, 8]
declare intvar pool [4, 8, 8]
declare intvar block [24, 8, 8]
declare intvar scores [10]
declare output correct
declare loss xent
declare intvar h.1 [1, 8, 8]
declare intvar h.2 [8, 8, 8]
declare intvar h.3 [8, 8, 8]
declare intvar one.1 [8, 8, 8]
declare intvar one.2 [8, 8, 8]
declare intvar three.1 [8, 8, 8]
declare intvar three.1.1 [8, 8, 8]
declare intvar three.1.2 [8, 8, 8]
declare intvar three.2 [8, 8, 8]
declare intvar three.3 [8, 8, 8]
declare intvar five.1 [4, 8, 8]
declare intvar five.1.1 [4, 8, 8]
declare intvar five.1.2 [4, 8, 8]
declare intvar five.2 [4, 8, 8]
declare intvar five.3 [4, 8, 8]
declare intvar pool.1 [8, 8, 8]
declare intvar pool.2 [4, 8, 8]
declare intvar pool.3 [4, 8, 8]
declare intvar scores.1 [24, 4, 4]
declare intvar scores.2 [384]
declare intvar scores.3 [10]
declare intvar xent.1 [10]
declare intvar xent.2 [10]
declare intvar xent.3
declare intvar correct.1

# forward: the shape program
define h.1 = reshape x [1, 8, 8]
define h.2 = conv2d h.1 K0 1 1
define h.3 = add h.2 c0
define h = relu h.3
define one.1 = conv2d h K1 1 0
define one.2 = add one.1 c1
define one = relu one.2
define three.1.1 = conv2d h K2 1 0
define three.1.2 = add three.1.1 c2
define three.1 = relu three.1.2
define three.2 = conv2d three.1 K3 1 1
define three.3 = add three.2 c3
define three = relu three.3
define five.1.1 = conv2d h K4 1 0
define five.1.2 = add five.1.1 c4
define five.1 = relu five.1.2
define five.2 = conv2d five.1 K5 1 2
define five.3 = add five.2 c5
define five = relu five.3
define pool.1 = maxpool2d h 3 1 1
define pool.2 = conv2d pool.1 K6 1 0
define pool.3 = add pool.2 c6
define pool = relu pool.3
define block = concat one three five pool
define scores.1 = maxpool2d block 2
define scores.2 = flatten scores.1
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
declare intvar dscores.3/dscores.2 [384, 10]
define dscores.3/dscores.2 = transpose W

# scores.2 = flatten scores.1
declare intvar d/dscores.2 [384]
define d/dscores.2 = matmul dscores.3/dscores.2 d/dscores

# scores.1 = maxpool2d block 2
declare intvar d/dscores.1 [24, 4, 4]
define d/dscores.1 = reshape d/dscores.2 [24, 4, 4]

# block = concat one three five pool
declare intvar d/dblock [24, 8, 8]
define d/dblock = maxpool2d_grad d/dscores.1 block 2

# pool = relu pool.3
declare intvar d/dpool [4, 8, 8]
declare intvar dpool/dpool.3 [4, 8, 8]
define d/dpool = slice d/dblock 20 24
define dpool/dpool.3 = step pool.3

# pool.3 = add pool.2 c6
declare intvar d/dpool.3 [4, 8, 8]
define d/dpool.3 = mul d/dpool dpool/dpool.3

# pool.1 = maxpool2d h 3 1 1
declare intvar d/dpool.1 [8, 8, 8]
define d/dpool.1 = conv2d_image_grad d/dpool.3 K6 pool.1

# five = relu five.3
declare intvar d/dfive [4, 8, 8]
declare intvar dfive/dfive.3 [4, 8, 8]
define d/dfive = slice d/dblock 16 20
define dfive/dfive.3 = step five.3

# five.3 = add five.2 c5
declare intvar d/dfive.3 [4, 8, 8]
define d/dfive.3 = mul d/dfive dfive/dfive.3

# five.1 = relu five.1.2
declare intvar d/dfive.1 [4, 8, 8]
declare intvar dfive.1/dfive.1.2 [4, 8, 8]
define d/dfive.1 = conv2d_image_grad d/dfive.3 K5 five.1 1 2
define dfive.1/dfive.1.2 = step five.1.2

# five.1.2 = add five.1.1 c4
declare intvar d/dfive.1.2 [4, 8, 8]
define d/dfive.1.2 = mul d/dfive.1 dfive.1/dfive.1.2

# three = relu three.3
declare intvar d/dthree [8, 8, 8]
declare intvar dthree/dthree.3 [8, 8, 8]
define d/dthree = slice d/dblock 8 16
define dthree/dthree.3 = step three.3

# three.3 = add three.2 c3
declare intvar d/dthree.3 [8, 8, 8]
define d/dthree.3 = mul d/dthree dthree/dthree.3

# three.1 = relu three.1.2
declare intvar d/dthree.1 [8, 8, 8]
declare intvar dthree.1/dthree.1.2 [8, 8, 8]
define d/dthree.1 = conv2d_image_grad d/dthree.3 K3 three.1 1 1
define dthree.1/dthree.1.2 = step three.1.2

# three.1.2 = add three.1.1 c2
declare intvar d/dthree.1.2 [8, 8, 8]
define d/dthree.1.2 = mul d/dthree.1 dthree.1/dthree.1.2

# one = relu one.2
declare intvar d/done [8, 8, 8]
declare intvar done/done.2 [8, 8, 8]
define d/done = slice d/dblock 0 8
define done/done.2 = step one.2

# one.2 = add one.1 c1
declare intvar d/done.2 [8, 8, 8]
define d/done.2 = mul d/done done/done.2

# h = relu h.3
declare intvar tmp/h/1 [8, 8, 8]
declare intvar tmp/h/2 [8, 8, 8]
declare intvar tmp/h/3 [8, 8, 8]
declare intvar tmp/h/4 [8, 8, 8]
declare intvar tmp/h/5 [8, 8, 8]
declare intvar tmp/h/6 [8, 8, 8]
declare intvar d/dh [8, 8, 8]
declare intvar dh/dh.3 [8, 8, 8]
define tmp/h/1 = conv2d_image_grad d/done.2 K1 h
define tmp/h/2 = conv2d_image_grad d/dthree.1.2 K2 h
define tmp/h/3 = conv2d_image_grad d/dfive.1.2 K4 h
define tmp/h/4 = maxpool2d_grad d/dpool.1 h 3 1 1
define tmp/h/5 = add tmp/h/1 tmp/h/2
define tmp/h/6 = add tmp/h/5 tmp/h/3
define d/dh = add tmp/h/6 tmp/h/4
define dh/dh.3 = step h.3

# h.3 = add h.2 c0
declare intvar d/dh.3 [8, 8, 8]
define d/dh.3 = mul d/dh dh/dh.3

# weight b
declare output d/db [10]
define d/db = d/dscores

# weight W
declare output d/dW [10, 384]
define d/dW = outer d/dscores scores.2

# weight c6
declare output d/dc6 [4, 1, 1]
define d/dc6 = sum_like d/dpool.3 c6

# weight K6
declare output d/dK6 [4, 8, 1, 1]
define d/dK6 = conv2d_kernel_grad d/dpool.3 pool.1 K6

# weight c5
declare output d/dc5 [4, 1, 1]
define d/dc5 = sum_like d/dfive.3 c5

# weight K5
declare output d/dK5 [4, 4, 5, 5]
define d/dK5 = conv2d_kernel_grad d/dfive.3 five.1 K5 1 2

# weight c4
declare output d/dc4 [4, 1, 1]
define d/dc4 = sum_like d/dfive.1.2 c4

# weight K4
declare output d/dK4 [4, 8, 1, 1]
define d/dK4 = conv2d_kernel_grad d/dfive.1.2 h K4

# weight c3
declare output d/dc3 [8, 1, 1]
define d/dc3 = sum_like d/dthree.3 c3

# weight K3
declare output d/dK3 [8, 8, 3, 3]
define d/dK3 = conv2d_kernel_grad d/dthree.3 three.1 K3 1 1

# weight c2
declare output d/dc2 [8, 1, 1]
define d/dc2 = sum_like d/dthree.1.2 c2

# weight K2
declare output d/dK2 [8, 8, 1, 1]
define d/dK2 = conv2d_kernel_grad d/dthree.1.2 h K2

# weight c1
declare output d/dc1 [8, 1, 1]
define d/dc1 = sum_like d/done.2 c1

# weight K1
declare output d/dK1 [8, 8, 1, 1]
define d/dK1 = conv2d_kernel_grad d/done.2 h K1

# weight c0
declare output d/dc0 [8, 1, 1]
define d/dc0 = sum_like d/dh.3 c0

# weight K0
declare output d/dK0 [8, 1, 3, 3]
define d/dK0 = conv2d_kernel_grad d/dh.3 h.1 K0 1 1
