declare input x [8, 8]
declare input label
declare weight K0 [16, 1, 3, 3]
declare weight g0 [16] init 1
declare weight b0 [16]
declare intvar h0 [16, 8, 8]
declare intvar h1 [16, 8, 8]
declare intvar h2 [16, 4, 4]
declare intvar scores [10]
declare output correct
declare loss xent
declare intvar h0.1 [1, 8, 8]
declare intvar h0.2 [16, 8, 8]
declare intvar h0.3 [16, 8, 8]
declare intvar h0.3.c [16, 8, 8]
declare intvar h0.3.s [16, 1, 1]
declare intvar h0.3.c.1 [16, 8]
declare intvar h0.3.c.2 [16]
declare intvar h0.3.c.3 [16]
declare intvar h0.3.c.4 [16, 1, 1]
declare intvar h0.3.s.1 [16, 8, 8]
declare intvar h0.3.s.2 [16, 8]
declare intvar h0.3.s.3 [16]
declare intvar h0.3.s.4 [16]
declare intvar h0.3.s.5 [16, 1, 1]
declare intvar h0.3.s.6 [16, 1, 1]
declare intvar h0.3.1 [16, 8, 8]
declare intvar h0.3.2 [16, 1, 1]
declare intvar h0.3.3 [16, 8, 8]
declare intvar h0.3.4 [16, 1, 1]
declare weight h1.K1 [16, 16, 3, 3]
declare weight h1.g1 [16] init 1
declare weight h1.b1 [16]
declare weight h1.K2 [16, 16, 3, 3]
declare weight h1.g2 [16] init 1
declare weight h1.b2 [16]
declare intvar h1.h [16, 8, 8]
declare intvar h1.h.1 [16, 8, 8]
declare intvar h1.h.2 [16, 8, 8]
declare intvar h1.h.2.c [16, 8, 8]
declare intvar h1.h.2.s [16, 1, 1]
declare intvar h1.h.2.c.1 [16, 8]
declare intvar h1.h.2.c.2 [16]
declare intvar h1.h.2.c.3 [16]
declare intvar h1.h.2.c.4 [16, 1, 1]
declare intvar h1.h.2.s.1 [16, 8, 8]
declare intvar h1.h.2.s.2 [16, 8]
declare intvar h1.h.2.s.3 [16]
declare intvar h1.h.2.s.4 [16]
declare intvar h1.h.2.s.5 [16, 1, 1]
declare intvar h1.h.2.s.6 [16, 1, 1]
declare intvar h1.h.2.1 [16, 8, 8]
declare intvar h1.h.2.2 [16, 1, 1]
declare intvar h1.h.2.3 [16, 8, 8]
declare intvar h1.h.2.4 [16, 1, 1]
declare intvar h1.1 [16, 8, 8]
declare intvar h1.2 [16, 8, 8]
declare intvar h1.3 [16, 8, 8]
declare intvar h1.2.c [16, 8, 8]
declare intvar h1.2.s [16, 1, 1]
declare intvar h1.2.c.1 [16, 8]
declare intvar h1.2.c.2 [16]
declare intvar h1.2.c.3 [16]
declare intvar h1.2.c.4 [16, 1, 1]
declare intvar h1.2.s.1 [16, 8, 8]
declare intvar h1.2.s.2 [16, 8]
declare intvar h1.2.s.3 [16]
declare intvar h1.2.s.4 [16]
declare intvar h1.2.s.5 [16, 1, 1]
declare intvar h1.2.s.6 [16, 1, 1]
declare intvar h1.2.1 [16, 8, 8]
declare intvar h1.2.2 [16, 1, 1]
declare intvar h1.2.3 [16, 8, 8]
declare intvar h1.2.4 [16, 1, 1]
declare intvar h2.1 [16, 4, 4]
declare weight h2.K1 [16, 16, 3, 3]
declare weight h2.g1 [16] init 1
declare weight h2.b1 [16]
declare weight h2.K2 [16, 16, 3, 3]
declare weight h2.g2 [16] init 1
declare weight h2.b2 [16]
declare intvar h2.h [16, 4, 4]
declare intvar h2.h.1 [16, 4, 4]
declare intvar h2.h.2 [16, 4, 4]
declare intvar h2.h.2.c [16, 4, 4]
declare intvar h2.h.2.s [16, 1, 1]
declare intvar h2.h.2.c.1 [16, 4]
declare intvar h2.h.2.c.2 [16]
declare intvar h2.h.2.c.3 [16]
declare intvar h2.h.2.c.4 [16, 1, 1]
declare intvar h2.h.2.s.1 [16, 4, 4]
declare intvar h2.h.2.s.2 [16, 4]
declare intvar h2.h.2.s.3 [16]
declare intvar h2.h.2.s.4 [16]
declare intvar h2.h.2.s.5 [16, 1, 1]
declare intvar h2.h.2.s.6 [16, 1, 1]
declare intvar h2.h.2.1 [16, 4, 4]
declare intvar h2.h.2.2 [16, 1, 1]
declare intvar h2.h.2.3 [16, 4, 4]
declare intvar h2.h.2.4 [16, 1, 1]
declare intvar h2.2 [16, 4, 4]
declare intvar h2.3 [16, 4, 4]
declare intvar h2.4 [16, 4, 4]
declare intvar h2.3.c [16, 4, 4]
declare intvar h2.3.s [16, 1, 1]
declare intvar h2.3.c.1 [16, 4]
declare intvar h2.3.c.2 [16]
declare intvar h2.3.c.3 [16]
declare intvar h2.3.c.4 [16, 1, 1]
declare intvar h2.3.s.1 [16, 4, 4]
declare intvar h2.3.s.2 [16, 4]
declare intvar h2.3.s.3 [16]
declare intvar h2.3.s.4 [16]
declare intvar h2.3.s.5 [16, 1, 1]
declare intvar h2.3.s.6 [16, 1, 1]
declare intvar h2.3.1 [16, 4, 4]
declare intvar h2.3.2 [16, 1, 1]
declare intvar h2.3.3 [16, 4, 4]
declare intvar h2.3.4 [16, 1, 1]
declare weight W [10, 16]
declare weight b [10]
declare intvar scores.1 [16, 1, 1]
declare intvar scores.2 [16]
declare intvar scores.3 [10]
declare intvar xent.1 [10]
declare intvar xent.2 [10]
declare intvar xent.3
declare intvar correct.1

# forward: the shape program
define h0.1 = reshape x [1, 8, 8]
define h0.2 = conv2d h0.1 K0 1 1
define h0.3.c.1 = mean h0.2 2
define h0.3.c.2 = mean h0.3.c.1 1
define h0.3.c.3 = batch_mean h0.3.c.2
define h0.3.c.4 = reshape h0.3.c.3 [16, 1, 1]
define h0.3.c = sub h0.2 h0.3.c.4
define h0.3.s.1 = mul h0.3.c h0.3.c
define h0.3.s.2 = mean h0.3.s.1 2
define h0.3.s.3 = mean h0.3.s.2 1
define h0.3.s.4 = batch_mean h0.3.s.3
define h0.3.s.5 = reshape h0.3.s.4 [16, 1, 1]
define h0.3.s.6 = add h0.3.s.5 1e-05
define h0.3.s = sqrt h0.3.s.6
define h0.3.1 = div h0.3.c h0.3.s
define h0.3.2 = reshape g0 [16, 1, 1]
define h0.3.3 = mul h0.3.1 h0.3.2
define h0.3.4 = reshape b0 [16, 1, 1]
define h0.3 = add h0.3.3 h0.3.4
define h0 = relu h0.3
define h1.h.1 = conv2d h0 h1.K1 1 1
define h1.h.2.c.1 = mean h1.h.1 2
define h1.h.2.c.2 = mean h1.h.2.c.1 1
define h1.h.2.c.3 = batch_mean h1.h.2.c.2
define h1.h.2.c.4 = reshape h1.h.2.c.3 [16, 1, 1]
define h1.h.2.c = sub h1.h.1 h1.h.2.c.4
define h1.h.2.s.1 = mul h1.h.2.c h1.h.2.c
define h1.h.2.s.2 = mean h1.h.2.s.1 2
define h1.h.2.s.3 = mean h1.h.2.s.2 1
define h1.h.2.s.4 = batch_mean h1.h.2.s.3
define h1.h.2.s.5 = reshape h1.h.2.s.4 [16, 1, 1]
define h1.h.2.s.6 = add h1.h.2.s.5 1e-05
define h1.h.2.s = sqrt h1.h.2.s.6
define h1.h.2.1 = div h1.h.2.c h1.h.2.s
define h1.h.2.2 = reshape h1.g1 [16, 1, 1]
define h1.h.2.3 = mul h1.h.2.1 h1.h.2.2
define h1.h.2.4 = reshape h1.b1 [16, 1, 1]
define h1.h.2 = add h1.h.2.3 h1.h.2.4
define h1.h = relu h1.h.2
define h1.1 = conv2d h1.h h1.K2 1 1
define h1.2.c.1 = mean h1.1 2
define h1.2.c.2 = mean h1.2.c.1 1
define h1.2.c.3 = batch_mean h1.2.c.2
define h1.2.c.4 = reshape h1.2.c.3 [16, 1, 1]
define h1.2.c = sub h1.1 h1.2.c.4
define h1.2.s.1 = mul h1.2.c h1.2.c
define h1.2.s.2 = mean h1.2.s.1 2
define h1.2.s.3 = mean h1.2.s.2 1
define h1.2.s.4 = batch_mean h1.2.s.3
define h1.2.s.5 = reshape h1.2.s.4 [16, 1, 1]
define h1.2.s.6 = add h1.2.s.5 1e-05
define h1.2.s = sqrt h1.2.s.6
define h1.2.1 = div h1.2.c h1.2.s
define h1.2.2 = reshape h1.g2 [16, 1, 1]
define h1.2.3 = mul h1.2.1 h1.2.2
define h1.2.4 = reshape h1.b2 [16, 1, 1]
define h1.2 = add h1.2.3 h1.2.4
define h1.3 = add h0 h1.2
define h1 = relu h1.3
define h2.1 = maxpool2d h1 2
define h2.h.1 = conv2d h2.1 h2.K1 1 1
define h2.h.2.c.1 = mean h2.h.1 2
define h2.h.2.c.2 = mean h2.h.2.c.1 1
define h2.h.2.c.3 = batch_mean h2.h.2.c.2
define h2.h.2.c.4 = reshape h2.h.2.c.3 [16, 1, 1]
define h2.h.2.c = sub h2.h.1 h2.h.2.c.4
define h2.h.2.s.1 = mul h2.h.2.c h2.h.2.c
define h2.h.2.s.2 = mean h2.h.2.s.1 2
define h2.h.2.s.3 = mean h2.h.2.s.2 1
define h2.h.2.s.4 = batch_mean h2.h.2.s.3
define h2.h.2.s.5 = reshape h2.h.2.s.4 [16, 1, 1]
define h2.h.2.s.6 = add h2.h.2.s.5 1e-05
define h2.h.2.s = sqrt h2.h.2.s.6
define h2.h.2.1 = div h2.h.2.c h2.h.2.s
define h2.h.2.2 = reshape h2.g1 [16, 1, 1]
define h2.h.2.3 = mul h2.h.2.1 h2.h.2.2
define h2.h.2.4 = reshape h2.b1 [16, 1, 1]
define h2.h.2 = add h2.h.2.3 h2.h.2.4
define h2.h = relu h2.h.2
define h2.2 = conv2d h2.h h2.K2 1 1
define h2.3.c.1 = mean h2.2 2
define h2.3.c.2 = mean h2.3.c.1 1
define h2.3.c.3 = batch_mean h2.3.c.2
define h2.3.c.4 = reshape h2.3.c.3 [16, 1, 1]
define h2.3.c = sub h2.2 h2.3.c.4
define h2.3.s.1 = mul h2.3.c h2.3.c
define h2.3.s.2 = mean h2.3.s.1 2
define h2.3.s.3 = mean h2.3.s.2 1
define h2.3.s.4 = batch_mean h2.3.s.3
define h2.3.s.5 = reshape h2.3.s.4 [16, 1, 1]
define h2.3.s.6 = add h2.3.s.5 1e-05
define h2.3.s = sqrt h2.3.s.6
define h2.3.1 = div h2.3.c h2.3.s
define h2.3.2 = reshape h2.g2 [16, 1, 1]
define h2.3.3 = mul h2.3.1 h2.3.2
define h2.3.4 = reshape h2.b2 [16, 1, 1]
define h2.3 = add h2.3.3 h2.3.4
define h2.4 = add h2.1 h2.3
define h2 = relu h2.4
define scores.1 = avgpool2d h2 4
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
declare intvar dscores.3/dW [16]
declare intvar dscores.3/dscores.2 [16, 10]
define d/dscores.3 = mul d/dscores dscores/dscores.3
define dscores.3/dW = scores.2
define dscores.3/dscores.2 = transpose W

# scores.2 = flatten scores.1
declare intvar d/dscores.2 [16]
define d/dscores.2 = matmul dscores.3/dscores.2 d/dscores.3

# scores.1 = avgpool2d h2 4
declare intvar d/dscores.1 [16, 1, 1]
define d/dscores.1 = reshape d/dscores.2 [16, 1, 1]

# weight b
declare output d/db [10]
define d/db = mul d/dscores dscores/db

# weight W
declare output d/dW [10, 16]
define d/dW = outer d/dscores.3 dscores.3/dW

# h2 = relu h2.4
declare intvar d/dh2 [16, 4, 4]
declare intvar dh2/dh2.4 [16, 4, 4]
define d/dh2 = avgpool2d_grad d/dscores.1 h2 4
define dh2/dh2.4 = step h2.4

# h2.4 = add h2.1 h2.3
declare intvar d/dh2.4 [16, 4, 4]
declare intvar dh2.4/dh2.1
declare intvar dh2.4/dh2.3
define d/dh2.4 = mul d/dh2 dh2/dh2.4
define dh2.4/dh2.1 = 1
define dh2.4/dh2.3 = 1

# h2.3 = add h2.3.3 h2.3.4
declare intvar d/dh2.3 [16, 4, 4]
declare intvar dh2.3/dh2.3.3
declare intvar dh2.3/dh2.3.4
define d/dh2.3 = mul d/dh2.4 dh2.4/dh2.3
define dh2.3/dh2.3.3 = 1
define dh2.3/dh2.3.4 = 1

# h2.3.4 = reshape h2.b2 [16, 1, 1]
declare intvar tmp/h2.3.4/1 [16, 4, 4]
declare intvar d/dh2.3.4 [16, 1, 1]
define tmp/h2.3.4/1 = mul d/dh2.3 dh2.3/dh2.3.4
define d/dh2.3.4 = sum_like tmp/h2.3.4/1 h2.3.4

# h2.3.3 = mul h2.3.1 h2.3.2
declare intvar d/dh2.3.3 [16, 4, 4]
declare intvar dh2.3.3/dh2.3.1 [16, 1, 1]
declare intvar dh2.3.3/dh2.3.2 [16, 4, 4]
define d/dh2.3.3 = mul d/dh2.3 dh2.3/dh2.3.3
define dh2.3.3/dh2.3.1 = h2.3.2
define dh2.3.3/dh2.3.2 = h2.3.1

# h2.3.2 = reshape h2.g2 [16, 1, 1]
declare intvar tmp/h2.3.2/1 [16, 4, 4]
declare intvar d/dh2.3.2 [16, 1, 1]
define tmp/h2.3.2/1 = mul d/dh2.3.3 dh2.3.3/dh2.3.2
define d/dh2.3.2 = sum_like tmp/h2.3.2/1 h2.3.2

# h2.3.1 = div h2.3.c h2.3.s
declare intvar d/dh2.3.1 [16, 4, 4]
declare intvar dh2.3.1/dh2.3.c [16, 1, 1]
declare intvar tmp/h2.3.1/1 [16, 4, 4]
declare intvar dh2.3.1/dh2.3.s [16, 4, 4]
define d/dh2.3.1 = mul d/dh2.3.3 dh2.3.3/dh2.3.1
define dh2.3.1/dh2.3.c = div 1 h2.3.s
define tmp/h2.3.1/1 = div h2.3.1 h2.3.s
define dh2.3.1/dh2.3.s = neg tmp/h2.3.1/1

# h2.3.s = sqrt h2.3.s.6
declare intvar tmp/h2.3.s/1 [16, 4, 4]
declare intvar d/dh2.3.s [16, 1, 1]
declare intvar dh2.3.s/dh2.3.s.6 [16, 1, 1]
define tmp/h2.3.s/1 = mul d/dh2.3.1 dh2.3.1/dh2.3.s
define d/dh2.3.s = sum_like tmp/h2.3.s/1 h2.3.s
define dh2.3.s/dh2.3.s.6 = div 0.5 h2.3.s

# h2.3.s.6 = add h2.3.s.5 1e-05
declare intvar d/dh2.3.s.6 [16, 1, 1]
declare intvar dh2.3.s.6/dh2.3.s.5
define d/dh2.3.s.6 = mul d/dh2.3.s dh2.3.s/dh2.3.s.6
define dh2.3.s.6/dh2.3.s.5 = 1

# h2.3.s.5 = reshape h2.3.s.4 [16, 1, 1]
declare intvar d/dh2.3.s.5 [16, 1, 1]
define d/dh2.3.s.5 = mul d/dh2.3.s.6 dh2.3.s.6/dh2.3.s.5

# h2.3.s.4 = batch_mean h2.3.s.3
declare intvar d/dh2.3.s.4 [16]
define d/dh2.3.s.4 = reshape d/dh2.3.s.5 [16]

# h2.3.s.3 = mean h2.3.s.2 1
declare intvar d/dh2.3.s.3 [16]
define d/dh2.3.s.3 = batch_mean d/dh2.3.s.4

# h2.3.s.2 = mean h2.3.s.1 2
declare intvar tmp/h2.3.s.2/1 [16]
declare intvar d/dh2.3.s.2 [16, 4]
define tmp/h2.3.s.2/1 = div d/dh2.3.s.3 4
define d/dh2.3.s.2 = broadcast_like tmp/h2.3.s.2/1 h2.3.s.2 1

# h2.3.s.1 = mul h2.3.c h2.3.c
declare intvar tmp/h2.3.s.1/1 [16, 4]
declare intvar d/dh2.3.s.1 [16, 4, 4]
declare intvar tmp/h2.3.s.1/2 [16, 4, 4]
declare intvar tmp/h2.3.s.1/3 [16, 4, 4]
define tmp/h2.3.s.1/1 = div d/dh2.3.s.2 4
define d/dh2.3.s.1 = broadcast_like tmp/h2.3.s.1/1 h2.3.s.1 2
define tmp/h2.3.s.1/2 = h2.3.c
define tmp/h2.3.s.1/3 = h2.3.c

# h2.3.c = sub h2.2 h2.3.c.4
declare intvar tmp/h2.3.c/1 [16, 4, 4]
declare intvar tmp/h2.3.c/2 [16, 4, 4]
declare intvar tmp/h2.3.c/3 [16, 4, 4]
declare intvar tmp/h2.3.c/4 [16, 4, 4]
declare intvar d/dh2.3.c [16, 4, 4]
declare intvar dh2.3.c/dh2.2
declare intvar dh2.3.c/dh2.3.c.4
define tmp/h2.3.c/1 = mul d/dh2.3.s.1 tmp/h2.3.s.1/2
define tmp/h2.3.c/2 = mul d/dh2.3.s.1 tmp/h2.3.s.1/3
define tmp/h2.3.c/3 = mul d/dh2.3.1 dh2.3.1/dh2.3.c
define tmp/h2.3.c/4 = add tmp/h2.3.c/1 tmp/h2.3.c/2
define d/dh2.3.c = add tmp/h2.3.c/4 tmp/h2.3.c/3
define dh2.3.c/dh2.2 = 1
define dh2.3.c/dh2.3.c.4 = -1

# h2.3.c.4 = reshape h2.3.c.3 [16, 1, 1]
declare intvar tmp/h2.3.c.4/1 [16, 4, 4]
declare intvar d/dh2.3.c.4 [16, 1, 1]
define tmp/h2.3.c.4/1 = mul d/dh2.3.c dh2.3.c/dh2.3.c.4
define d/dh2.3.c.4 = sum_like tmp/h2.3.c.4/1 h2.3.c.4

# h2.3.c.3 = batch_mean h2.3.c.2
declare intvar d/dh2.3.c.3 [16]
define d/dh2.3.c.3 = reshape d/dh2.3.c.4 [16]

# h2.3.c.2 = mean h2.3.c.1 1
declare intvar d/dh2.3.c.2 [16]
define d/dh2.3.c.2 = batch_mean d/dh2.3.c.3

# h2.3.c.1 = mean h2.2 2
declare intvar tmp/h2.3.c.1/1 [16]
declare intvar d/dh2.3.c.1 [16, 4]
define tmp/h2.3.c.1/1 = div d/dh2.3.c.2 4
define d/dh2.3.c.1 = broadcast_like tmp/h2.3.c.1/1 h2.3.c.1 1

# h2.2 = conv2d h2.h h2.K2 1 1
declare intvar tmp/h2.2/2 [16, 4]
declare intvar tmp/h2.2/1 [16, 4, 4]
declare intvar tmp/h2.2/3 [16, 4, 4]
declare intvar d/dh2.2 [16, 4, 4]
define tmp/h2.2/2 = div d/dh2.3.c.1 4
define tmp/h2.2/1 = broadcast_like tmp/h2.2/2 h2.2 2
define tmp/h2.2/3 = mul d/dh2.3.c dh2.3.c/dh2.2
define d/dh2.2 = add tmp/h2.2/1 tmp/h2.2/3

# h2.h = relu h2.h.2
declare intvar d/dh2.h [16, 4, 4]
declare intvar dh2.h/dh2.h.2 [16, 4, 4]
define d/dh2.h = conv2d_image_grad d/dh2.2 h2.K2 h2.h 1 1
define dh2.h/dh2.h.2 = step h2.h.2

# h2.h.2 = add h2.h.2.3 h2.h.2.4
declare intvar d/dh2.h.2 [16, 4, 4]
declare intvar dh2.h.2/dh2.h.2.3
declare intvar dh2.h.2/dh2.h.2.4
define d/dh2.h.2 = mul d/dh2.h dh2.h/dh2.h.2
define dh2.h.2/dh2.h.2.3 = 1
define dh2.h.2/dh2.h.2.4 = 1

# h2.h.2.4 = reshape h2.b1 [16, 1, 1]
declare intvar tmp/h2.h.2.4/1 [16, 4, 4]
declare intvar d/dh2.h.2.4 [16, 1, 1]
define tmp/h2.h.2.4/1 = mul d/dh2.h.2 dh2.h.2/dh2.h.2.4
define d/dh2.h.2.4 = sum_like tmp/h2.h.2.4/1 h2.h.2.4

# h2.h.2.3 = mul h2.h.2.1 h2.h.2.2
declare intvar d/dh2.h.2.3 [16, 4, 4]
declare intvar dh2.h.2.3/dh2.h.2.1 [16, 1, 1]
declare intvar dh2.h.2.3/dh2.h.2.2 [16, 4, 4]
define d/dh2.h.2.3 = mul d/dh2.h.2 dh2.h.2/dh2.h.2.3
define dh2.h.2.3/dh2.h.2.1 = h2.h.2.2
define dh2.h.2.3/dh2.h.2.2 = h2.h.2.1

# h2.h.2.2 = reshape h2.g1 [16, 1, 1]
declare intvar tmp/h2.h.2.2/1 [16, 4, 4]
declare intvar d/dh2.h.2.2 [16, 1, 1]
define tmp/h2.h.2.2/1 = mul d/dh2.h.2.3 dh2.h.2.3/dh2.h.2.2
define d/dh2.h.2.2 = sum_like tmp/h2.h.2.2/1 h2.h.2.2

# h2.h.2.1 = div h2.h.2.c h2.h.2.s
declare intvar d/dh2.h.2.1 [16, 4, 4]
declare intvar dh2.h.2.1/dh2.h.2.c [16, 1, 1]
declare intvar tmp/h2.h.2.1/1 [16, 4, 4]
declare intvar dh2.h.2.1/dh2.h.2.s [16, 4, 4]
define d/dh2.h.2.1 = mul d/dh2.h.2.3 dh2.h.2.3/dh2.h.2.1
define dh2.h.2.1/dh2.h.2.c = div 1 h2.h.2.s
define tmp/h2.h.2.1/1 = div h2.h.2.1 h2.h.2.s
define dh2.h.2.1/dh2.h.2.s = neg tmp/h2.h.2.1/1

# h2.h.2.s = sqrt h2.h.2.s.6
declare intvar tmp/h2.h.2.s/1 [16, 4, 4]
declare intvar d/dh2.h.2.s [16, 1, 1]
declare intvar dh2.h.2.s/dh2.h.2.s.6 [16, 1, 1]
define tmp/h2.h.2.s/1 = mul d/dh2.h.2.1 dh2.h.2.1/dh2.h.2.s
define d/dh2.h.2.s = sum_like tmp/h2.h.2.s/1 h2.h.2.s
define dh2.h.2.s/dh2.h.2.s.6 = div 0.5 h2.h.2.s

# h2.h.2.s.6 = add h2.h.2.s.5 1e-05
declare intvar d/dh2.h.2.s.6 [16, 1, 1]
declare intvar dh2.h.2.s.6/dh2.h.2.s.5
define d/dh2.h.2.s.6 = mul d/dh2.h.2.s dh2.h.2.s/dh2.h.2.s.6
define dh2.h.2.s.6/dh2.h.2.s.5 = 1

# h2.h.2.s.5 = reshape h2.h.2.s.4 [16, 1, 1]
declare intvar d/dh2.h.2.s.5 [16, 1, 1]
define d/dh2.h.2.s.5 = mul d/dh2.h.2.s.6 dh2.h.2.s.6/dh2.h.2.s.5

# h2.h.2.s.4 = batch_mean h2.h.2.s.3
declare intvar d/dh2.h.2.s.4 [16]
define d/dh2.h.2.s.4 = reshape d/dh2.h.2.s.5 [16]

# h2.h.2.s.3 = mean h2.h.2.s.2 1
declare intvar d/dh2.h.2.s.3 [16]
define d/dh2.h.2.s.3 = batch_mean d/dh2.h.2.s.4

# h2.h.2.s.2 = mean h2.h.2.s.1 2
declare intvar tmp/h2.h.2.s.2/1 [16]
declare intvar d/dh2.h.2.s.2 [16, 4]
define tmp/h2.h.2.s.2/1 = div d/dh2.h.2.s.3 4
define d/dh2.h.2.s.2 = broadcast_like tmp/h2.h.2.s.2/1 h2.h.2.s.2 1

# h2.h.2.s.1 = mul h2.h.2.c h2.h.2.c
declare intvar tmp/h2.h.2.s.1/1 [16, 4]
declare intvar d/dh2.h.2.s.1 [16, 4, 4]
declare intvar tmp/h2.h.2.s.1/2 [16, 4, 4]
declare intvar tmp/h2.h.2.s.1/3 [16, 4, 4]
define tmp/h2.h.2.s.1/1 = div d/dh2.h.2.s.2 4
define d/dh2.h.2.s.1 = broadcast_like tmp/h2.h.2.s.1/1 h2.h.2.s.1 2
define tmp/h2.h.2.s.1/2 = h2.h.2.c
define tmp/h2.h.2.s.1/3 = h2.h.2.c

# h2.h.2.c = sub h2.h.1 h2.h.2.c.4
declare intvar tmp/h2.h.2.c/1 [16, 4, 4]
declare intvar tmp/h2.h.2.c/2 [16, 4, 4]
declare intvar tmp/h2.h.2.c/3 [16, 4, 4]
declare intvar tmp/h2.h.2.c/4 [16, 4, 4]
declare intvar d/dh2.h.2.c [16, 4, 4]
declare intvar dh2.h.2.c/dh2.h.1
declare intvar dh2.h.2.c/dh2.h.2.c.4
define tmp/h2.h.2.c/1 = mul d/dh2.h.2.s.1 tmp/h2.h.2.s.1/2
define tmp/h2.h.2.c/2 = mul d/dh2.h.2.s.1 tmp/h2.h.2.s.1/3
define tmp/h2.h.2.c/3 = mul d/dh2.h.2.1 dh2.h.2.1/dh2.h.2.c
define tmp/h2.h.2.c/4 = add tmp/h2.h.2.c/1 tmp/h2.h.2.c/2
define d/dh2.h.2.c = add tmp/h2.h.2.c/4 tmp/h2.h.2.c/3
define dh2.h.2.c/dh2.h.1 = 1
define dh2.h.2.c/dh2.h.2.c.4 = -1

# h2.h.2.c.4 = reshape h2.h.2.c.3 [16, 1, 1]
declare intvar tmp/h2.h.2.c.4/1 [16, 4, 4]
declare intvar d/dh2.h.2.c.4 [16, 1, 1]
define tmp/h2.h.2.c.4/1 = mul d/dh2.h.2.c dh2.h.2.c/dh2.h.2.c.4
define d/dh2.h.2.c.4 = sum_like tmp/h2.h.2.c.4/1 h2.h.2.c.4

# h2.h.2.c.3 = batch_mean h2.h.2.c.2
declare intvar d/dh2.h.2.c.3 [16]
define d/dh2.h.2.c.3 = reshape d/dh2.h.2.c.4 [16]

# h2.h.2.c.2 = mean h2.h.2.c.1 1
declare intvar d/dh2.h.2.c.2 [16]
define d/dh2.h.2.c.2 = batch_mean d/dh2.h.2.c.3

# h2.h.2.c.1 = mean h2.h.1 2
declare intvar tmp/h2.h.2.c.1/1 [16]
declare intvar d/dh2.h.2.c.1 [16, 4]
define tmp/h2.h.2.c.1/1 = div d/dh2.h.2.c.2 4
define d/dh2.h.2.c.1 = broadcast_like tmp/h2.h.2.c.1/1 h2.h.2.c.1 1

# h2.h.1 = conv2d h2.1 h2.K1 1 1
declare intvar tmp/h2.h.1/2 [16, 4]
declare intvar tmp/h2.h.1/1 [16, 4, 4]
declare intvar tmp/h2.h.1/3 [16, 4, 4]
declare intvar d/dh2.h.1 [16, 4, 4]
define tmp/h2.h.1/2 = div d/dh2.h.2.c.1 4
define tmp/h2.h.1/1 = broadcast_like tmp/h2.h.1/2 h2.h.1 2
define tmp/h2.h.1/3 = mul d/dh2.h.2.c dh2.h.2.c/dh2.h.1
define d/dh2.h.1 = add tmp/h2.h.1/1 tmp/h2.h.1/3

# weight h2.b2
declare output d/dh2.b2 [16]
define d/dh2.b2 = reshape d/dh2.3.4 [16]

# weight h2.g2
declare output d/dh2.g2 [16]
define d/dh2.g2 = reshape d/dh2.3.2 [16]

# weight h2.K2
declare output d/dh2.K2 [16, 16, 3, 3]
define d/dh2.K2 = conv2d_kernel_grad d/dh2.2 h2.h h2.K2 1 1

# weight h2.b1
declare output d/dh2.b1 [16]
define d/dh2.b1 = reshape d/dh2.h.2.4 [16]

# weight h2.g1
declare output d/dh2.g1 [16]
define d/dh2.g1 = reshape d/dh2.h.2.2 [16]

# weight h2.K1
declare output d/dh2.K1 [16, 16, 3, 3]
define d/dh2.K1 = conv2d_kernel_grad d/dh2.h.1 h2.1 h2.K1 1 1

# h2.1 = maxpool2d h1 2
declare intvar tmp/h2.1/1 [16, 4, 4]
declare intvar tmp/h2.1/2 [16, 4, 4]
declare intvar d/dh2.1 [16, 4, 4]
define tmp/h2.1/1 = conv2d_image_grad d/dh2.h.1 h2.K1 h2.1 1 1
define tmp/h2.1/2 = mul d/dh2.4 dh2.4/dh2.1
define d/dh2.1 = add tmp/h2.1/1 tmp/h2.1/2

# h1 = relu h1.3
declare intvar d/dh1 [16, 8, 8]
declare intvar dh1/dh1.3 [16, 8, 8]
define d/dh1 = maxpool2d_grad d/dh2.1 h1 2
define dh1/dh1.3 = step h1.3

# h1.3 = add h0 h1.2
declare intvar d/dh1.3 [16, 8, 8]
declare intvar dh1.3/dh0
declare intvar dh1.3/dh1.2
define d/dh1.3 = mul d/dh1 dh1/dh1.3
define dh1.3/dh0 = 1
define dh1.3/dh1.2 = 1

# h1.2 = add h1.2.3 h1.2.4
declare intvar d/dh1.2 [16, 8, 8]
declare intvar dh1.2/dh1.2.3
declare intvar dh1.2/dh1.2.4
define d/dh1.2 = mul d/dh1.3 dh1.3/dh1.2
define dh1.2/dh1.2.3 = 1
define dh1.2/dh1.2.4 = 1

# h1.2.4 = reshape h1.b2 [16, 1, 1]
declare intvar tmp/h1.2.4/1 [16, 8, 8]
declare intvar d/dh1.2.4 [16, 1, 1]
define tmp/h1.2.4/1 = mul d/dh1.2 dh1.2/dh1.2.4
define d/dh1.2.4 = sum_like tmp/h1.2.4/1 h1.2.4

# h1.2.3 = mul h1.2.1 h1.2.2
declare intvar d/dh1.2.3 [16, 8, 8]
declare intvar dh1.2.3/dh1.2.1 [16, 1, 1]
declare intvar dh1.2.3/dh1.2.2 [16, 8, 8]
define d/dh1.2.3 = mul d/dh1.2 dh1.2/dh1.2.3
define dh1.2.3/dh1.2.1 = h1.2.2
define dh1.2.3/dh1.2.2 = h1.2.1

# h1.2.2 = reshape h1.g2 [16, 1, 1]
declare intvar tmp/h1.2.2/1 [16, 8, 8]
declare intvar d/dh1.2.2 [16, 1, 1]
define tmp/h1.2.2/1 = mul d/dh1.2.3 dh1.2.3/dh1.2.2
define d/dh1.2.2 = sum_like tmp/h1.2.2/1 h1.2.2

# h1.2.1 = div h1.2.c h1.2.s
declare intvar d/dh1.2.1 [16, 8, 8]
declare intvar dh1.2.1/dh1.2.c [16, 1, 1]
declare intvar tmp/h1.2.1/1 [16, 8, 8]
declare intvar dh1.2.1/dh1.2.s [16, 8, 8]
define d/dh1.2.1 = mul d/dh1.2.3 dh1.2.3/dh1.2.1
define dh1.2.1/dh1.2.c = div 1 h1.2.s
define tmp/h1.2.1/1 = div h1.2.1 h1.2.s
define dh1.2.1/dh1.2.s = neg tmp/h1.2.1/1

# h1.2.s = sqrt h1.2.s.6
declare intvar tmp/h1.2.s/1 [16, 8, 8]
declare intvar d/dh1.2.s [16, 1, 1]
declare intvar dh1.2.s/dh1.2.s.6 [16, 1, 1]
define tmp/h1.2.s/1 = mul d/dh1.2.1 dh1.2.1/dh1.2.s
define d/dh1.2.s = sum_like tmp/h1.2.s/1 h1.2.s
define dh1.2.s/dh1.2.s.6 = div 0.5 h1.2.s

# h1.2.s.6 = add h1.2.s.5 1e-05
declare intvar d/dh1.2.s.6 [16, 1, 1]
declare intvar dh1.2.s.6/dh1.2.s.5
define d/dh1.2.s.6 = mul d/dh1.2.s dh1.2.s/dh1.2.s.6
define dh1.2.s.6/dh1.2.s.5 = 1

# h1.2.s.5 = reshape h1.2.s.4 [16, 1, 1]
declare intvar d/dh1.2.s.5 [16, 1, 1]
define d/dh1.2.s.5 = mul d/dh1.2.s.6 dh1.2.s.6/dh1.2.s.5

# h1.2.s.4 = batch_mean h1.2.s.3
declare intvar d/dh1.2.s.4 [16]
define d/dh1.2.s.4 = reshape d/dh1.2.s.5 [16]

# h1.2.s.3 = mean h1.2.s.2 1
declare intvar d/dh1.2.s.3 [16]
define d/dh1.2.s.3 = batch_mean d/dh1.2.s.4

# h1.2.s.2 = mean h1.2.s.1 2
declare intvar tmp/h1.2.s.2/1 [16]
declare intvar d/dh1.2.s.2 [16, 8]
define tmp/h1.2.s.2/1 = div d/dh1.2.s.3 8
define d/dh1.2.s.2 = broadcast_like tmp/h1.2.s.2/1 h1.2.s.2 1

# h1.2.s.1 = mul h1.2.c h1.2.c
declare intvar tmp/h1.2.s.1/1 [16, 8]
declare intvar d/dh1.2.s.1 [16, 8, 8]
declare intvar tmp/h1.2.s.1/2 [16, 8, 8]
declare intvar tmp/h1.2.s.1/3 [16, 8, 8]
define tmp/h1.2.s.1/1 = div d/dh1.2.s.2 8
define d/dh1.2.s.1 = broadcast_like tmp/h1.2.s.1/1 h1.2.s.1 2
define tmp/h1.2.s.1/2 = h1.2.c
define tmp/h1.2.s.1/3 = h1.2.c

# h1.2.c = sub h1.1 h1.2.c.4
declare intvar tmp/h1.2.c/1 [16, 8, 8]
declare intvar tmp/h1.2.c/2 [16, 8, 8]
declare intvar tmp/h1.2.c/3 [16, 8, 8]
declare intvar tmp/h1.2.c/4 [16, 8, 8]
declare intvar d/dh1.2.c [16, 8, 8]
declare intvar dh1.2.c/dh1.1
declare intvar dh1.2.c/dh1.2.c.4
define tmp/h1.2.c/1 = mul d/dh1.2.s.1 tmp/h1.2.s.1/2
define tmp/h1.2.c/2 = mul d/dh1.2.s.1 tmp/h1.2.s.1/3
define tmp/h1.2.c/3 = mul d/dh1.2.1 dh1.2.1/dh1.2.c
define tmp/h1.2.c/4 = add tmp/h1.2.c/1 tmp/h1.2.c/2
define d/dh1.2.c = add tmp/h1.2.c/4 tmp/h1.2.c/3
define dh1.2.c/dh1.1 = 1
define dh1.2.c/dh1.2.c.4 = -1

# h1.2.c.4 = reshape h1.2.c.3 [16, 1, 1]
declare intvar tmp/h1.2.c.4/1 [16, 8, 8]
declare intvar d/dh1.2.c.4 [16, 1, 1]
define tmp/h1.2.c.4/1 = mul d/dh1.2.c dh1.2.c/dh1.2.c.4
define d/dh1.2.c.4 = sum_like tmp/h1.2.c.4/1 h1.2.c.4

# h1.2.c.3 = batch_mean h1.2.c.2
declare intvar d/dh1.2.c.3 [16]
define d/dh1.2.c.3 = reshape d/dh1.2.c.4 [16]

# h1.2.c.2 = mean h1.2.c.1 1
declare intvar d/dh1.2.c.2 [16]
define d/dh1.2.c.2 = batch_mean d/dh1.2.c.3

# h1.2.c.1 = mean h1.1 2
declare intvar tmp/h1.2.c.1/1 [16]
declare intvar d/dh1.2.c.1 [16, 8]
define tmp/h1.2.c.1/1 = div d/dh1.2.c.2 8
define d/dh1.2.c.1 = broadcast_like tmp/h1.2.c.1/1 h1.2.c.1 1

# h1.1 = conv2d h1.h h1.K2 1 1
declare intvar tmp/h1.1/2 [16, 8]
declare intvar tmp/h1.1/1 [16, 8, 8]
declare intvar tmp/h1.1/3 [16, 8, 8]
declare intvar d/dh1.1 [16, 8, 8]
define tmp/h1.1/2 = div d/dh1.2.c.1 8
define tmp/h1.1/1 = broadcast_like tmp/h1.1/2 h1.1 2
define tmp/h1.1/3 = mul d/dh1.2.c dh1.2.c/dh1.1
define d/dh1.1 = add tmp/h1.1/1 tmp/h1.1/3

# h1.h = relu h1.h.2
declare intvar d/dh1.h [16, 8, 8]
declare intvar dh1.h/dh1.h.2 [16, 8, 8]
define d/dh1.h = conv2d_image_grad d/dh1.1 h1.K2 h1.h 1 1
define dh1.h/dh1.h.2 = step h1.h.2

# h1.h.2 = add h1.h.2.3 h1.h.2.4
declare intvar d/dh1.h.2 [16, 8, 8]
declare intvar dh1.h.2/dh1.h.2.3
declare intvar dh1.h.2/dh1.h.2.4
define d/dh1.h.2 = mul d/dh1.h dh1.h/dh1.h.2
define dh1.h.2/dh1.h.2.3 = 1
define dh1.h.2/dh1.h.2.4 = 1

# h1.h.2.4 = reshape h1.b1 [16, 1, 1]
declare intvar tmp/h1.h.2.4/1 [16, 8, 8]
declare intvar d/dh1.h.2.4 [16, 1, 1]
define tmp/h1.h.2.4/1 = mul d/dh1.h.2 dh1.h.2/dh1.h.2.4
define d/dh1.h.2.4 = sum_like tmp/h1.h.2.4/1 h1.h.2.4

# h1.h.2.3 = mul h1.h.2.1 h1.h.2.2
declare intvar d/dh1.h.2.3 [16, 8, 8]
declare intvar dh1.h.2.3/dh1.h.2.1 [16, 1, 1]
declare intvar dh1.h.2.3/dh1.h.2.2 [16, 8, 8]
define d/dh1.h.2.3 = mul d/dh1.h.2 dh1.h.2/dh1.h.2.3
define dh1.h.2.3/dh1.h.2.1 = h1.h.2.2
define dh1.h.2.3/dh1.h.2.2 = h1.h.2.1

# h1.h.2.2 = reshape h1.g1 [16, 1, 1]
declare intvar tmp/h1.h.2.2/1 [16, 8, 8]
declare intvar d/dh1.h.2.2 [16, 1, 1]
define tmp/h1.h.2.2/1 = mul d/dh1.h.2.3 dh1.h.2.3/dh1.h.2.2
define d/dh1.h.2.2 = sum_like tmp/h1.h.2.2/1 h1.h.2.2

# h1.h.2.1 = div h1.h.2.c h1.h.2.s
declare intvar d/dh1.h.2.1 [16, 8, 8]
declare intvar dh1.h.2.1/dh1.h.2.c [16, 1, 1]
declare intvar tmp/h1.h.2.1/1 [16, 8, 8]
declare intvar dh1.h.2.1/dh1.h.2.s [16, 8, 8]
define d/dh1.h.2.1 = mul d/dh1.h.2.3 dh1.h.2.3/dh1.h.2.1
define dh1.h.2.1/dh1.h.2.c = div 1 h1.h.2.s
define tmp/h1.h.2.1/1 = div h1.h.2.1 h1.h.2.s
define dh1.h.2.1/dh1.h.2.s = neg tmp/h1.h.2.1/1

# h1.h.2.s = sqrt h1.h.2.s.6
declare intvar tmp/h1.h.2.s/1 [16, 8, 8]
declare intvar d/dh1.h.2.s [16, 1, 1]
declare intvar dh1.h.2.s/dh1.h.2.s.6 [16, 1, 1]
define tmp/h1.h.2.s/1 = mul d/dh1.h.2.1 dh1.h.2.1/dh1.h.2.s
define d/dh1.h.2.s = sum_like tmp/h1.h.2.s/1 h1.h.2.s
define dh1.h.2.s/dh1.h.2.s.6 = div 0.5 h1.h.2.s

# h1.h.2.s.6 = add h1.h.2.s.5 1e-05
declare intvar d/dh1.h.2.s.6 [16, 1, 1]
declare intvar dh1.h.2.s.6/dh1.h.2.s.5
define d/dh1.h.2.s.6 = mul d/dh1.h.2.s dh1.h.2.s/dh1.h.2.s.6
define dh1.h.2.s.6/dh1.h.2.s.5 = 1

# h1.h.2.s.5 = reshape h1.h.2.s.4 [16, 1, 1]
declare intvar d/dh1.h.2.s.5 [16, 1, 1]
define d/dh1.h.2.s.5 = mul d/dh1.h.2.s.6 dh1.h.2.s.6/dh1.h.2.s.5

# h1.h.2.s.4 = batch_mean h1.h.2.s.3
declare intvar d/dh1.h.2.s.4 [16]
define d/dh1.h.2.s.4 = reshape d/dh1.h.2.s.5 [16]

# h1.h.2.s.3 = mean h1.h.2.s.2 1
declare intvar d/dh1.h.2.s.3 [16]
define d/dh1.h.2.s.3 = batch_mean d/dh1.h.2.s.4

# h1.h.2.s.2 = mean h1.h.2.s.1 2
declare intvar tmp/h1.h.2.s.2/1 [16]
declare intvar d/dh1.h.2.s.2 [16, 8]
define tmp/h1.h.2.s.2/1 = div d/dh1.h.2.s.3 8
define d/dh1.h.2.s.2 = broadcast_like tmp/h1.h.2.s.2/1 h1.h.2.s.2 1

# h1.h.2.s.1 = mul h1.h.2.c h1.h.2.c
declare intvar tmp/h1.h.2.s.1/1 [16, 8]
declare intvar d/dh1.h.2.s.1 [16, 8, 8]
declare intvar tmp/h1.h.2.s.1/2 [16, 8, 8]
declare intvar tmp/h1.h.2.s.1/3 [16, 8, 8]
define tmp/h1.h.2.s.1/1 = div d/dh1.h.2.s.2 8
define d/dh1.h.2.s.1 = broadcast_like tmp/h1.h.2.s.1/1 h1.h.2.s.1 2
define tmp/h1.h.2.s.1/2 = h1.h.2.c
define tmp/h1.h.2.s.1/3 = h1.h.2.c

# h1.h.2.c = sub h1.h.1 h1.h.2.c.4
declare intvar tmp/h1.h.2.c/1 [16, 8, 8]
declare intvar tmp/h1.h.2.c/2 [16, 8, 8]
declare intvar tmp/h1.h.2.c/3 [16, 8, 8]
declare intvar tmp/h1.h.2.c/4 [16, 8, 8]
declare intvar d/dh1.h.2.c [16, 8, 8]
declare intvar dh1.h.2.c/dh1.h.1
declare intvar dh1.h.2.c/dh1.h.2.c.4
define tmp/h1.h.2.c/1 = mul d/dh1.h.2.s.1 tmp/h1.h.2.s.1/2
define tmp/h1.h.2.c/2 = mul d/dh1.h.2.s.1 tmp/h1.h.2.s.1/3
define tmp/h1.h.2.c/3 = mul d/dh1.h.2.1 dh1.h.2.1/dh1.h.2.c
define tmp/h1.h.2.c/4 = add tmp/h1.h.2.c/1 tmp/h1.h.2.c/2
define d/dh1.h.2.c = add tmp/h1.h.2.c/4 tmp/h1.h.2.c/3
define dh1.h.2.c/dh1.h.1 = 1
define dh1.h.2.c/dh1.h.2.c.4 = -1

# h1.h.2.c.4 = reshape h1.h.2.c.3 [16, 1, 1]
declare intvar tmp/h1.h.2.c.4/1 [16, 8, 8]
declare intvar d/dh1.h.2.c.4 [16, 1, 1]
define tmp/h1.h.2.c.4/1 = mul d/dh1.h.2.c dh1.h.2.c/dh1.h.2.c.4
define d/dh1.h.2.c.4 = sum_like tmp/h1.h.2.c.4/1 h1.h.2.c.4

# h1.h.2.c.3 = batch_mean h1.h.2.c.2
declare intvar d/dh1.h.2.c.3 [16]
define d/dh1.h.2.c.3 = reshape d/dh1.h.2.c.4 [16]

# h1.h.2.c.2 = mean h1.h.2.c.1 1
declare intvar d/dh1.h.2.c.2 [16]
define d/dh1.h.2.c.2 = batch_mean d/dh1.h.2.c.3

# h1.h.2.c.1 = mean h1.h.1 2
declare intvar tmp/h1.h.2.c.1/1 [16]
declare intvar d/dh1.h.2.c.1 [16, 8]
define tmp/h1.h.2.c.1/1 = div d/dh1.h.2.c.2 8
define d/dh1.h.2.c.1 = broadcast_like tmp/h1.h.2.c.1/1 h1.h.2.c.1 1

# h1.h.1 = conv2d h0 h1.K1 1 1
declare intvar tmp/h1.h.1/2 [16, 8]
declare intvar tmp/h1.h.1/1 [16, 8, 8]
declare intvar tmp/h1.h.1/3 [16, 8, 8]
declare intvar d/dh1.h.1 [16, 8, 8]
define tmp/h1.h.1/2 = div d/dh1.h.2.c.1 8
define tmp/h1.h.1/1 = broadcast_like tmp/h1.h.1/2 h1.h.1 2
define tmp/h1.h.1/3 = mul d/dh1.h.2.c dh1.h.2.c/dh1.h.1
define d/dh1.h.1 = add tmp/h1.h.1/1 tmp/h1.h.1/3

# weight h1.b2
declare output d/dh1.b2 [16]
define d/dh1.b2 = reshape d/dh1.2.4 [16]

# weight h1.g2
declare output d/dh1.g2 [16]
define d/dh1.g2 = reshape d/dh1.2.2 [16]

# weight h1.K2
declare output d/dh1.K2 [16, 16, 3, 3]
define d/dh1.K2 = conv2d_kernel_grad d/dh1.1 h1.h h1.K2 1 1

# weight h1.b1
declare output d/dh1.b1 [16]
define d/dh1.b1 = reshape d/dh1.h.2.4 [16]

# weight h1.g1
declare output d/dh1.g1 [16]
define d/dh1.g1 = reshape d/dh1.h.2.2 [16]

# weight h1.K1
declare output d/dh1.K1 [16, 16, 3, 3]
define d/dh1.K1 = conv2d_kernel_grad d/dh1.h.1 h0 h1.K1 1 1

# h0 = relu h0.3
declare intvar tmp/h0/1 [16, 8, 8]
declare intvar tmp/h0/2 [16, 8, 8]
declare intvar d/dh0 [16, 8, 8]
declare intvar dh0/dh0.3 [16, 8, 8]
define tmp/h0/1 = conv2d_image_grad d/dh1.h.1 h1.K1 h0 1 1
define tmp/h0/2 = mul d/dh1.3 dh1.3/dh0
define d/dh0 = add tmp/h0/1 tmp/h0/2
define dh0/dh0.3 = step h0.3

# h0.3 = add h0.3.3 h0.3.4
declare intvar d/dh0.3 [16, 8, 8]
declare intvar dh0.3/dh0.3.3
declare intvar dh0.3/dh0.3.4
define d/dh0.3 = mul d/dh0 dh0/dh0.3
define dh0.3/dh0.3.3 = 1
define dh0.3/dh0.3.4 = 1

# h0.3.4 = reshape b0 [16, 1, 1]
declare intvar tmp/h0.3.4/1 [16, 8, 8]
declare intvar d/dh0.3.4 [16, 1, 1]
define tmp/h0.3.4/1 = mul d/dh0.3 dh0.3/dh0.3.4
define d/dh0.3.4 = sum_like tmp/h0.3.4/1 h0.3.4

# h0.3.3 = mul h0.3.1 h0.3.2
declare intvar d/dh0.3.3 [16, 8, 8]
declare intvar dh0.3.3/dh0.3.1 [16, 1, 1]
declare intvar dh0.3.3/dh0.3.2 [16, 8, 8]
define d/dh0.3.3 = mul d/dh0.3 dh0.3/dh0.3.3
define dh0.3.3/dh0.3.1 = h0.3.2
define dh0.3.3/dh0.3.2 = h0.3.1

# h0.3.2 = reshape g0 [16, 1, 1]
declare intvar tmp/h0.3.2/1 [16, 8, 8]
declare intvar d/dh0.3.2 [16, 1, 1]
define tmp/h0.3.2/1 = mul d/dh0.3.3 dh0.3.3/dh0.3.2
define d/dh0.3.2 = sum_like tmp/h0.3.2/1 h0.3.2

# h0.3.1 = div h0.3.c h0.3.s
declare intvar d/dh0.3.1 [16, 8, 8]
declare intvar dh0.3.1/dh0.3.c [16, 1, 1]
declare intvar tmp/h0.3.1/1 [16, 8, 8]
declare intvar dh0.3.1/dh0.3.s [16, 8, 8]
define d/dh0.3.1 = mul d/dh0.3.3 dh0.3.3/dh0.3.1
define dh0.3.1/dh0.3.c = div 1 h0.3.s
define tmp/h0.3.1/1 = div h0.3.1 h0.3.s
define dh0.3.1/dh0.3.s = neg tmp/h0.3.1/1

# h0.3.s = sqrt h0.3.s.6
declare intvar tmp/h0.3.s/1 [16, 8, 8]
declare intvar d/dh0.3.s [16, 1, 1]
declare intvar dh0.3.s/dh0.3.s.6 [16, 1, 1]
define tmp/h0.3.s/1 = mul d/dh0.3.1 dh0.3.1/dh0.3.s
define d/dh0.3.s = sum_like tmp/h0.3.s/1 h0.3.s
define dh0.3.s/dh0.3.s.6 = div 0.5 h0.3.s

# h0.3.s.6 = add h0.3.s.5 1e-05
declare intvar d/dh0.3.s.6 [16, 1, 1]
declare intvar dh0.3.s.6/dh0.3.s.5
define d/dh0.3.s.6 = mul d/dh0.3.s dh0.3.s/dh0.3.s.6
define dh0.3.s.6/dh0.3.s.5 = 1

# h0.3.s.5 = reshape h0.3.s.4 [16, 1, 1]
declare intvar d/dh0.3.s.5 [16, 1, 1]
define d/dh0.3.s.5 = mul d/dh0.3.s.6 dh0.3.s.6/dh0.3.s.5

# h0.3.s.4 = batch_mean h0.3.s.3
declare intvar d/dh0.3.s.4 [16]
define d/dh0.3.s.4 = reshape d/dh0.3.s.5 [16]

# h0.3.s.3 = mean h0.3.s.2 1
declare intvar d/dh0.3.s.3 [16]
define d/dh0.3.s.3 = batch_mean d/dh0.3.s.4

# h0.3.s.2 = mean h0.3.s.1 2
declare intvar tmp/h0.3.s.2/1 [16]
declare intvar d/dh0.3.s.2 [16, 8]
define tmp/h0.3.s.2/1 = div d/dh0.3.s.3 8
define d/dh0.3.s.2 = broadcast_like tmp/h0.3.s.2/1 h0.3.s.2 1

# h0.3.s.1 = mul h0.3.c h0.3.c
declare intvar tmp/h0.3.s.1/1 [16, 8]
declare intvar d/dh0.3.s.1 [16, 8, 8]
declare intvar tmp/h0.3.s.1/2 [16, 8, 8]
declare intvar tmp/h0.3.s.1/3 [16, 8, 8]
define tmp/h0.3.s.1/1 = div d/dh0.3.s.2 8
define d/dh0.3.s.1 = broadcast_like tmp/h0.3.s.1/1 h0.3.s.1 2
define tmp/h0.3.s.1/2 = h0.3.c
define tmp/h0.3.s.1/3 = h0.3.c

# h0.3.c = sub h0.2 h0.3.c.4
declare intvar tmp/h0.3.c/1 [16, 8, 8]
declare intvar tmp/h0.3.c/2 [16, 8, 8]
declare intvar tmp/h0.3.c/3 [16, 8, 8]
declare intvar tmp/h0.3.c/4 [16, 8, 8]
declare intvar d/dh0.3.c [16, 8, 8]
declare intvar dh0.3.c/dh0.2
declare intvar dh0.3.c/dh0.3.c.4
define tmp/h0.3.c/1 = mul d/dh0.3.s.1 tmp/h0.3.s.1/2
define tmp/h0.3.c/2 = mul d/dh0.3.s.1 tmp/h0.3.s.1/3
define tmp/h0.3.c/3 = mul d/dh0.3.1 dh0.3.1/dh0.3.c
define tmp/h0.3.c/4 = add tmp/h0.3.c/1 tmp/h0.3.c/2
define d/dh0.3.c = add tmp/h0.3.c/4 tmp/h0.3.c/3
define dh0.3.c/dh0.2 = 1
define dh0.3.c/dh0.3.c.4 = -1

# h0.3.c.4 = reshape h0.3.c.3 [16, 1, 1]
declare intvar tmp/h0.3.c.4/1 [16, 8, 8]
declare intvar d/dh0.3.c.4 [16, 1, 1]
define tmp/h0.3.c.4/1 = mul d/dh0.3.c dh0.3.c/dh0.3.c.4
define d/dh0.3.c.4 = sum_like tmp/h0.3.c.4/1 h0.3.c.4

# h0.3.c.3 = batch_mean h0.3.c.2
declare intvar d/dh0.3.c.3 [16]
define d/dh0.3.c.3 = reshape d/dh0.3.c.4 [16]

# h0.3.c.2 = mean h0.3.c.1 1
declare intvar d/dh0.3.c.2 [16]
define d/dh0.3.c.2 = batch_mean d/dh0.3.c.3

# h0.3.c.1 = mean h0.2 2
declare intvar tmp/h0.3.c.1/1 [16]
declare intvar d/dh0.3.c.1 [16, 8]
define tmp/h0.3.c.1/1 = div d/dh0.3.c.2 8
define d/dh0.3.c.1 = broadcast_like tmp/h0.3.c.1/1 h0.3.c.1 1

# h0.2 = conv2d h0.1 K0 1 1
declare intvar tmp/h0.2/2 [16, 8]
declare intvar tmp/h0.2/1 [16, 8, 8]
declare intvar tmp/h0.2/3 [16, 8, 8]
declare intvar d/dh0.2 [16, 8, 8]
define tmp/h0.2/2 = div d/dh0.3.c.1 8
define tmp/h0.2/1 = broadcast_like tmp/h0.2/2 h0.2 2
define tmp/h0.2/3 = mul d/dh0.3.c dh0.3.c/dh0.2
define d/dh0.2 = add tmp/h0.2/1 tmp/h0.2/3

# h0.1 = reshape x [1, 8, 8]
declare intvar d/dh0.1 [1, 8, 8]
define d/dh0.1 = conv2d_image_grad d/dh0.2 K0 h0.1 1 1

# weight b0
declare output d/db0 [16]
define d/db0 = reshape d/dh0.3.4 [16]

# weight g0
declare output d/dg0 [16]
define d/dg0 = reshape d/dh0.3.2 [16]

# weight K0
declare output d/dK0 [16, 1, 3, 3]
define d/dK0 = conv2d_kernel_grad d/dh0.2 h0.1 K0 1 1

# exp_output label
declare intvar tmp/label/1
declare intvar tmp/label/2
declare intvar d/dlabel
define tmp/label/1 = broadcast_like 0 label
define tmp/label/2 = mul d/dcorrect dcorrect/dlabel
define d/dlabel = add tmp/label/1 tmp/label/2

# input x
declare intvar d/dx [8, 8]
define d/dx = reshape d/dh0.1 [8, 8]
