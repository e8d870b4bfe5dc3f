declare input x [8, 8]
declare input label
declare weight W [128, 8]
declare weight U [128, 32]
declare weight b [128]
declare weight s0 [2, 32]
declare weight V [10, 32]
declare weight c [10]
declare intvar s [2, 32]
declare intvar scores [10]
declare output correct
declare loss xent
declare intvar s.0 [2, 32]
declare intvar s.0.1 [8]
declare intvar s.0.z [128]
declare intvar s.0.c [32]
declare intvar s.0.z.1 [128]
declare intvar s.0.z.2 [32]
declare intvar s.0.z.3 [128]
declare intvar s.0.z.4 [128]
declare intvar s.0.c.1 [32]
declare intvar s.0.c.2 [32]
declare intvar s.0.c.3 [32]
declare intvar s.0.c.4 [32]
declare intvar s.0.c.5 [32]
declare intvar s.0.c.6 [32]
declare intvar s.0.c.7 [32]
declare intvar s.0.c.8 [32]
declare intvar s.0.c.9 [32]
declare intvar s.0.2 [32]
declare intvar s.0.3 [32]
declare intvar s.0.4 [32]
declare intvar s.0.5 [32]
declare intvar s.0.6 [1, 32]
declare intvar s.0.7 [1, 32]
declare intvar s.1 [2, 32]
declare intvar s.1.1 [8]
declare intvar s.1.z [128]
declare intvar s.1.c [32]
declare intvar s.1.z.1 [128]
declare intvar s.1.z.2 [32]
declare intvar s.1.z.3 [128]
declare intvar s.1.z.4 [128]
declare intvar s.1.c.1 [32]
declare intvar s.1.c.2 [32]
declare intvar s.1.c.3 [32]
declare intvar s.1.c.4 [32]
declare intvar s.1.c.5 [32]
declare intvar s.1.c.6 [32]
declare intvar s.1.c.7 [32]
declare intvar s.1.c.8 [32]
declare intvar s.1.c.9 [32]
declare intvar s.1.2 [32]
declare intvar s.1.3 [32]
declare intvar s.1.4 [32]
declare intvar s.1.5 [32]
declare intvar s.1.6 [1, 32]
declare intvar s.1.7 [1, 32]
declare intvar s.2 [2, 32]
declare intvar s.2.1 [8]
declare intvar s.2.z [128]
declare intvar s.2.c [32]
declare intvar s.2.z.1 [128]
declare intvar s.2.z.2 [32]
declare intvar s.2.z.3 [128]
declare intvar s.2.z.4 [128]
declare intvar s.2.c.1 [32]
declare intvar s.2.c.2 [32]
declare intvar s.2.c.3 [32]
declare intvar s.2.c.4 [32]
declare intvar s.2.c.5 [32]
declare intvar s.2.c.6 [32]
declare intvar s.2.c.7 [32]
declare intvar s.2.c.8 [32]
declare intvar s.2.c.9 [32]
declare intvar s.2.2 [32]
declare intvar s.2.3 [32]
declare intvar s.2.4 [32]
declare intvar s.2.5 [32]
declare intvar s.2.6 [1, 32]
declare intvar s.2.7 [1, 32]
declare intvar s.3 [2, 32]
declare intvar s.3.1 [8]
declare intvar s.3.z [128]
declare intvar s.3.c [32]
declare intvar s.3.z.1 [128]
declare intvar s.3.z.2 [32]
declare intvar s.3.z.3 [128]
declare intvar s.3.z.4 [128]
declare intvar s.3.c.1 [32]
declare intvar s.3.c.2 [32]
declare intvar s.3.c.3 [32]
declare intvar s.3.c.4 [32]
declare intvar s.3.c.5 [32]
declare intvar s.3.c.6 [32]
declare intvar s.3.c.7 [32]
declare intvar s.3.c.8 [32]
declare intvar s.3.c.9 [32]
declare intvar s.3.2 [32]
declare intvar s.3.3 [32]
declare intvar s.3.4 [32]
declare intvar s.3.5 [32]
declare intvar s.3.6 [1, 32]
declare intvar s.3.7 [1, 32]
declare intvar s.4 [2, 32]
declare intvar s.4.1 [8]
declare intvar s.4.z [128]
declare intvar s.4.c [32]
declare intvar s.4.z.1 [128]
declare intvar s.4.z.2 [32]
declare intvar s.4.z.3 [128]
declare intvar s.4.z.4 [128]
declare intvar s.4.c.1 [32]
declare intvar s.4.c.2 [32]
declare intvar s.4.c.3 [32]
declare intvar s.4.c.4 [32]
declare intvar s.4.c.5 [32]
declare intvar s.4.c.6 [32]
declare intvar s.4.c.7 [32]
declare intvar s.4.c.8 [32]
declare intvar s.4.c.9 [32]
declare intvar s.4.2 [32]
declare intvar s.4.3 [32]
declare intvar s.4.4 [32]
declare intvar s.4.5 [32]
declare intvar s.4.6 [1, 32]
declare intvar s.4.7 [1, 32]
declare intvar s.5 [2, 32]
declare intvar s.5.1 [8]
declare intvar s.5.z [128]
declare intvar s.5.c [32]
declare intvar s.5.z.1 [128]
declare intvar s.5.z.2 [32]
declare intvar s.5.z.3 [128]
declare intvar s.5.z.4 [128]
declare intvar s.5.c.1 [32]
declare intvar s.5.c.2 [32]
declare intvar s.5.c.3 [32]
declare intvar s.5.c.4 [32]
declare intvar s.5.c.5 [32]
declare intvar s.5.c.6 [32]
declare intvar s.5.c.7 [32]
declare intvar s.5.c.8 [32]
declare intvar s.5.c.9 [32]
declare intvar s.5.2 [32]
declare intvar s.5.3 [32]
declare intvar s.5.4 [32]
declare intvar s.5.5 [32]
declare intvar s.5.6 [1, 32]
declare intvar s.5.7 [1, 32]
declare intvar s.6 [2, 32]
declare intvar s.6.1 [8]
declare intvar s.6.z [128]
declare intvar s.6.c [32]
declare intvar s.6.z.1 [128]
declare intvar s.6.z.2 [32]
declare intvar s.6.z.3 [128]
declare intvar s.6.z.4 [128]
declare intvar s.6.c.1 [32]
declare intvar s.6.c.2 [32]
declare intvar s.6.c.3 [32]
declare intvar s.6.c.4 [32]
declare intvar s.6.c.5 [32]
declare intvar s.6.c.6 [32]
declare intvar s.6.c.7 [32]
declare intvar s.6.c.8 [32]
declare intvar s.6.c.9 [32]
declare intvar s.6.2 [32]
declare intvar s.6.3 [32]
declare intvar s.6.4 [32]
declare intvar s.6.5 [32]
declare intvar s.6.6 [1, 32]
declare intvar s.6.7 [1, 32]
declare intvar s.7 [2, 32]
declare intvar s.7.1 [8]
declare intvar s.7.z [128]
declare intvar s.7.c [32]
declare intvar s.7.z.1 [128]
declare intvar s.7.z.2 [32]
declare intvar s.7.z.3 [128]
declare intvar s.7.z.4 [128]
declare intvar s.7.c.1 [32]
declare intvar s.7.c.2 [32]
declare intvar s.7.c.3 [32]
declare intvar s.7.c.4 [32]
declare intvar s.7.c.5 [32]
declare intvar s.7.c.6 [32]
declare intvar s.7.c.7 [32]
declare intvar s.7.c.8 [32]
declare intvar s.7.c.9 [32]
declare intvar s.7.2 [32]
declare intvar s.7.3 [32]
declare intvar s.7.4 [32]
declare intvar s.7.5 [32]
declare intvar s.7.6 [1, 32]
declare intvar s.7.7 [1, 32]
declare intvar scores.1 [32]
declare intvar scores.2 [10]
declare intvar xent.1 [10]
declare intvar xent.2 [10]
declare intvar xent.3
declare intvar correct.1

# forward: the shape program
define s.0.1 = index x 0
define s.0.z.1 = matmul W s.0.1
define s.0.z.2 = index s0 0
define s.0.z.3 = matmul U s.0.z.2
define s.0.z.4 = add s.0.z.1 s.0.z.3
define s.0.z = add s.0.z.4 b
define s.0.c.1 = slice s.0.z 32 64
define s.0.c.2 = logistic s.0.c.1
define s.0.c.3 = index s0 1
define s.0.c.4 = mul s.0.c.2 s.0.c.3
define s.0.c.5 = slice s.0.z 0 32
define s.0.c.6 = logistic s.0.c.5
define s.0.c.7 = slice s.0.z 64 96
define s.0.c.8 = tanh s.0.c.7
define s.0.c.9 = mul s.0.c.6 s.0.c.8
define s.0.c = add s.0.c.4 s.0.c.9
define s.0.2 = slice s.0.z 96 128
define s.0.3 = logistic s.0.2
define s.0.4 = tanh s.0.c
define s.0.5 = mul s.0.3 s.0.4
define s.0.6 = reshape s.0.5 [1, 32]
define s.0.7 = reshape s.0.c [1, 32]
define s.0 = concat s.0.6 s.0.7
define s.1.1 = index x 1
define s.1.z.1 = matmul W s.1.1
define s.1.z.2 = index s.0 0
define s.1.z.3 = matmul U s.1.z.2
define s.1.z.4 = add s.1.z.1 s.1.z.3
define s.1.z = add s.1.z.4 b
define s.1.c.1 = slice s.1.z 32 64
define s.1.c.2 = logistic s.1.c.1
define s.1.c.3 = index s.0 1
define s.1.c.4 = mul s.1.c.2 s.1.c.3
define s.1.c.5 = slice s.1.z 0 32
define s.1.c.6 = logistic s.1.c.5
define s.1.c.7 = slice s.1.z 64 96
define s.1.c.8 = tanh s.1.c.7
define s.1.c.9 = mul s.1.c.6 s.1.c.8
define s.1.c = add s.1.c.4 s.1.c.9
define s.1.2 = slice s.1.z 96 128
define s.1.3 = logistic s.1.2
define s.1.4 = tanh s.1.c
define s.1.5 = mul s.1.3 s.1.4
define s.1.6 = reshape s.1.5 [1, 32]
define s.1.7 = reshape s.1.c [1, 32]
define s.1 = concat s.1.6 s.1.7
define s.2.1 = index x 2
define s.2.z.1 = matmul W s.2.1
define s.2.z.2 = index s.1 0
define s.2.z.3 = matmul U s.2.z.2
define s.2.z.4 = add s.2.z.1 s.2.z.3
define s.2.z = add s.2.z.4 b
define s.2.c.1 = slice s.2.z 32 64
define s.2.c.2 = logistic s.2.c.1
define s.2.c.3 = index s.1 1
define s.2.c.4 = mul s.2.c.2 s.2.c.3
define s.2.c.5 = slice s.2.z 0 32
define s.2.c.6 = logistic s.2.c.5
define s.2.c.7 = slice s.2.z 64 96
define s.2.c.8 = tanh s.2.c.7
define s.2.c.9 = mul s.2.c.6 s.2.c.8
define s.2.c = add s.2.c.4 s.2.c.9
define s.2.2 = slice s.2.z 96 128
define s.2.3 = logistic s.2.2
define s.2.4 = tanh s.2.c
define s.2.5 = mul s.2.3 s.2.4
define s.2.6 = reshape s.2.5 [1, 32]
define s.2.7 = reshape s.2.c [1, 32]
define s.2 = concat s.2.6 s.2.7
define s.3.1 = index x 3
define s.3.z.1 = matmul W s.3.1
define s.3.z.2 = index s.2 0
define s.3.z.3 = matmul U s.3.z.2
define s.3.z.4 = add s.3.z.1 s.3.z.3
define s.3.z = add s.3.z.4 b
define s.3.c.1 = slice s.3.z 32 64
define s.3.c.2 = logistic s.3.c.1
define s.3.c.3 = index s.2 1
define s.3.c.4 = mul s.3.c.2 s.3.c.3
define s.3.c.5 = slice s.3.z 0 32
define s.3.c.6 = logistic s.3.c.5
define s.3.c.7 = slice s.3.z 64 96
define s.3.c.8 = tanh s.3.c.7
define s.3.c.9 = mul s.3.c.6 s.3.c.8
define s.3.c = add s.3.c.4 s.3.c.9
define s.3.2 = slice s.3.z 96 128
define s.3.3 = logistic s.3.2
define s.3.4 = tanh s.3.c
define s.3.5 = mul s.3.3 s.3.4
define s.3.6 = reshape s.3.5 [1, 32]
define s.3.7 = reshape s.3.c [1, 32]
define s.3 = concat s.3.6 s.3.7
define s.4.1 = index x 4
define s.4.z.1 = matmul W s.4.1
define s.4.z.2 = index s.3 0
define s.4.z.3 = matmul U s.4.z.2
define s.4.z.4 = add s.4.z.1 s.4.z.3
define s.4.z = add s.4.z.4 b
define s.4.c.1 = slice s.4.z 32 64
define s.4.c.2 = logistic s.4.c.1
define s.4.c.3 = index s.3 1
define s.4.c.4 = mul s.4.c.2 s.4.c.3
define s.4.c.5 = slice s.4.z 0 32
define s.4.c.6 = logistic s.4.c.5
define s.4.c.7 = slice s.4.z 64 96
define s.4.c.8 = tanh s.4.c.7
define s.4.c.9 = mul s.4.c.6 s.4.c.8
define s.4.c = add s.4.c.4 s.4.c.9
define s.4.2 = slice s.4.z 96 128
define s.4.3 = logistic s.4.2
define s.4.4 = tanh s.4.c
define s.4.5 = mul s.4.3 s.4.4
define s.4.6 = reshape s.4.5 [1, 32]
define s.4.7 = reshape s.4.c [1, 32]
define s.4 = concat s.4.6 s.4.7
define s.5.1 = index x 5
define s.5.z.1 = matmul W s.5.1
define s.5.z.2 = index s.4 0
define s.5.z.3 = matmul U s.5.z.2
define s.5.z.4 = add s.5.z.1 s.5.z.3
define s.5.z = add s.5.z.4 b
define s.5.c.1 = slice s.5.z 32 64
define s.5.c.2 = logistic s.5.c.1
define s.5.c.3 = index s.4 1
define s.5.c.4 = mul s.5.c.2 s.5.c.3
define s.5.c.5 = slice s.5.z 0 32
define s.5.c.6 = logistic s.5.c.5
define s.5.c.7 = slice s.5.z 64 96
define s.5.c.8 = tanh s.5.c.7
define s.5.c.9 = mul s.5.c.6 s.5.c.8
define s.5.c = add s.5.c.4 s.5.c.9
define s.5.2 = slice s.5.z 96 128
define s.5.3 = logistic s.5.2
define s.5.4 = tanh s.5.c
define s.5.5 = mul s.5.3 s.5.4
define s.5.6 = reshape s.5.5 [1, 32]
define s.5.7 = reshape s.5.c [1, 32]
define s.5 = concat s.5.6 s.5.7
define s.6.1 = index x 6
define s.6.z.1 = matmul W s.6.1
define s.6.z.2 = index s.5 0
define s.6.z.3 = matmul U s.6.z.2
define s.6.z.4 = add s.6.z.1 s.6.z.3
define s.6.z = add s.6.z.4 b
define s.6.c.1 = slice s.6.z 32 64
define s.6.c.2 = logistic s.6.c.1
define s.6.c.3 = index s.5 1
define s.6.c.4 = mul s.6.c.2 s.6.c.3
define s.6.c.5 = slice s.6.z 0 32
define s.6.c.6 = logistic s.6.c.5
define s.6.c.7 = slice s.6.z 64 96
define s.6.c.8 = tanh s.6.c.7
define s.6.c.9 = mul s.6.c.6 s.6.c.8
define s.6.c = add s.6.c.4 s.6.c.9
define s.6.2 = slice s.6.z 96 128
define s.6.3 = logistic s.6.2
define s.6.4 = tanh s.6.c
define s.6.5 = mul s.6.3 s.6.4
define s.6.6 = reshape s.6.5 [1, 32]
define s.6.7 = reshape s.6.c [1, 32]
define s.6 = concat s.6.6 s.6.7
define s.7.1 = index x 7
define s.7.z.1 = matmul W s.7.1
define s.7.z.2 = index s.6 0
define s.7.z.3 = matmul U s.7.z.2
define s.7.z.4 = add s.7.z.1 s.7.z.3
define s.7.z = add s.7.z.4 b
define s.7.c.1 = slice s.7.z 32 64
define s.7.c.2 = logistic s.7.c.1
define s.7.c.3 = index s.6 1
define s.7.c.4 = mul s.7.c.2 s.7.c.3
define s.7.c.5 = slice s.7.z 0 32
define s.7.c.6 = logistic s.7.c.5
define s.7.c.7 = slice s.7.z 64 96
define s.7.c.8 = tanh s.7.c.7
define s.7.c.9 = mul s.7.c.6 s.7.c.8
define s.7.c = add s.7.c.4 s.7.c.9
define s.7.2 = slice s.7.z 96 128
define s.7.3 = logistic s.7.2
define s.7.4 = tanh s.7.c
define s.7.5 = mul s.7.3 s.7.4
define s.7.6 = reshape s.7.5 [1, 32]
define s.7.7 = reshape s.7.c [1, 32]
define s.7 = concat s.7.6 s.7.7
define s = s.7
define scores.1 = index s 0
define scores.2 = matmul V scores.1
define scores = add scores.2 c
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

# scores = add scores.2 c
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
define tmp/scores/1 = sum d/dxent.1
define tmp/scores/2 = mul dxent.1/dscores tmp/scores/1
define d/dscores = sub d/dxent.1 tmp/scores/2

# scores.2 = matmul V scores.1
declare intvar dscores.2/dscores.1 [32, 10]
define dscores.2/dscores.1 = transpose V

# scores.1 = index s 0
declare intvar d/dscores.1 [32]
define d/dscores.1 = matmul dscores.2/dscores.1 d/dscores

# s = s.7
declare intvar tmp/s/1 [1, 32]
declare intvar d/ds [2, 32]
define tmp/s/1 = reshape d/dscores.1 [1, 32]
define d/ds = unslice tmp/s/1 s 0

# s.7.7 = reshape s.7.c [1, 32]
declare intvar d/ds.7.7 [1, 32]
define d/ds.7.7 = slice d/ds 1 2

# s.7.6 = reshape s.7.5 [1, 32]
declare intvar d/ds.7.6 [1, 32]
define d/ds.7.6 = slice d/ds 0 1

# s.7.5 = mul s.7.3 s.7.4
declare intvar d/ds.7.5 [32]
define d/ds.7.5 = reshape d/ds.7.6 [32]

# s.7.4 = tanh s.7.c
declare intvar d/ds.7.4 [32]
declare intvar ds.7.4/ds.7.c [32]
define d/ds.7.4 = mul d/ds.7.5 s.7.3
define ds.7.4/ds.7.c = tanh_deriv s.7.c

# s.7.3 = logistic s.7.2
declare intvar d/ds.7.3 [32]
declare intvar ds.7.3/ds.7.2 [32]
define d/ds.7.3 = mul d/ds.7.5 s.7.4
define ds.7.3/ds.7.2 = logistic_deriv s.7.2

# s.7.2 = slice s.7.z 96 128
declare intvar d/ds.7.2 [32]
define d/ds.7.2 = mul d/ds.7.3 ds.7.3/ds.7.2

# s.7.c = add s.7.c.4 s.7.c.9
declare intvar tmp/s.7.c/1 [32]
declare intvar tmp/s.7.c/2 [32]
declare intvar d/ds.7.c [32]
define tmp/s.7.c/1 = mul d/ds.7.4 ds.7.4/ds.7.c
define tmp/s.7.c/2 = reshape d/ds.7.7 [32]
define d/ds.7.c = add tmp/s.7.c/1 tmp/s.7.c/2

# s.7.c.8 = tanh s.7.c.7
declare intvar d/ds.7.c.8 [32]
declare intvar ds.7.c.8/ds.7.c.7 [32]
define d/ds.7.c.8 = mul d/ds.7.c s.7.c.6
define ds.7.c.8/ds.7.c.7 = tanh_deriv s.7.c.7

# s.7.c.7 = slice s.7.z 64 96
declare intvar d/ds.7.c.7 [32]
define d/ds.7.c.7 = mul d/ds.7.c.8 ds.7.c.8/ds.7.c.7

# s.7.c.6 = logistic s.7.c.5
declare intvar d/ds.7.c.6 [32]
declare intvar ds.7.c.6/ds.7.c.5 [32]
define d/ds.7.c.6 = mul d/ds.7.c s.7.c.8
define ds.7.c.6/ds.7.c.5 = logistic_deriv s.7.c.5

# s.7.c.5 = slice s.7.z 0 32
declare intvar d/ds.7.c.5 [32]
define d/ds.7.c.5 = mul d/ds.7.c.6 ds.7.c.6/ds.7.c.5

# s.7.c.3 = index s.6 1
declare intvar d/ds.7.c.3 [32]
define d/ds.7.c.3 = mul d/ds.7.c s.7.c.2

# s.7.c.2 = logistic s.7.c.1
declare intvar d/ds.7.c.2 [32]
declare intvar ds.7.c.2/ds.7.c.1 [32]
define d/ds.7.c.2 = mul d/ds.7.c s.7.c.3
define ds.7.c.2/ds.7.c.1 = logistic_deriv s.7.c.1

# s.7.c.1 = slice s.7.z 32 64
declare intvar d/ds.7.c.1 [32]
define d/ds.7.c.1 = mul d/ds.7.c.2 ds.7.c.2/ds.7.c.1

# s.7.z = add s.7.z.4 b
declare intvar d/ds.7.z [128]
define d/ds.7.z = concat d/ds.7.c.5 d/ds.7.c.1 d/ds.7.c.7 d/ds.7.2

# s.7.z.3 = matmul U s.7.z.2
declare intvar ds.7.z.3/ds.7.z.2 [32, 128]
define ds.7.z.3/ds.7.z.2 = transpose U

# s.7.z.2 = index s.6 0
declare intvar d/ds.7.z.2 [32]
define d/ds.7.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.7.z

# s.6 = concat s.6.6 s.6.7
declare intvar tmp/s.6/2 [1, 32]
declare intvar tmp/s.6/4 [1, 32]
declare intvar d/ds.6 [2, 32]
define tmp/s.6/2 = reshape d/ds.7.z.2 [1, 32]
define tmp/s.6/4 = reshape d/ds.7.c.3 [1, 32]
define d/ds.6 = concat tmp/s.6/2 tmp/s.6/4

# s.6.7 = reshape s.6.c [1, 32]
declare intvar d/ds.6.7 [1, 32]
define d/ds.6.7 = slice d/ds.6 1 2

# s.6.6 = reshape s.6.5 [1, 32]
declare intvar d/ds.6.6 [1, 32]
define d/ds.6.6 = slice d/ds.6 0 1

# s.6.5 = mul s.6.3 s.6.4
declare intvar d/ds.6.5 [32]
define d/ds.6.5 = reshape d/ds.6.6 [32]

# s.6.4 = tanh s.6.c
declare intvar d/ds.6.4 [32]
declare intvar ds.6.4/ds.6.c [32]
define d/ds.6.4 = mul d/ds.6.5 s.6.3
define ds.6.4/ds.6.c = tanh_deriv s.6.c

# s.6.3 = logistic s.6.2
declare intvar d/ds.6.3 [32]
declare intvar ds.6.3/ds.6.2 [32]
define d/ds.6.3 = mul d/ds.6.5 s.6.4
define ds.6.3/ds.6.2 = logistic_deriv s.6.2

# s.6.2 = slice s.6.z 96 128
declare intvar d/ds.6.2 [32]
define d/ds.6.2 = mul d/ds.6.3 ds.6.3/ds.6.2

# s.6.c = add s.6.c.4 s.6.c.9
declare intvar tmp/s.6.c/1 [32]
declare intvar tmp/s.6.c/2 [32]
declare intvar d/ds.6.c [32]
define tmp/s.6.c/1 = mul d/ds.6.4 ds.6.4/ds.6.c
define tmp/s.6.c/2 = reshape d/ds.6.7 [32]
define d/ds.6.c = add tmp/s.6.c/1 tmp/s.6.c/2

# s.6.c.8 = tanh s.6.c.7
declare intvar d/ds.6.c.8 [32]
declare intvar ds.6.c.8/ds.6.c.7 [32]
define d/ds.6.c.8 = mul d/ds.6.c s.6.c.6
define ds.6.c.8/ds.6.c.7 = tanh_deriv s.6.c.7

# s.6.c.7 = slice s.6.z 64 96
declare intvar d/ds.6.c.7 [32]
define d/ds.6.c.7 = mul d/ds.6.c.8 ds.6.c.8/ds.6.c.7

# s.6.c.6 = logistic s.6.c.5
declare intvar d/ds.6.c.6 [32]
declare intvar ds.6.c.6/ds.6.c.5 [32]
define d/ds.6.c.6 = mul d/ds.6.c s.6.c.8
define ds.6.c.6/ds.6.c.5 = logistic_deriv s.6.c.5

# s.6.c.5 = slice s.6.z 0 32
declare intvar d/ds.6.c.5 [32]
define d/ds.6.c.5 = mul d/ds.6.c.6 ds.6.c.6/ds.6.c.5

# s.6.c.3 = index s.5 1
declare intvar d/ds.6.c.3 [32]
define d/ds.6.c.3 = mul d/ds.6.c s.6.c.2

# s.6.c.2 = logistic s.6.c.1
declare intvar d/ds.6.c.2 [32]
declare intvar ds.6.c.2/ds.6.c.1 [32]
define d/ds.6.c.2 = mul d/ds.6.c s.6.c.3
define ds.6.c.2/ds.6.c.1 = logistic_deriv s.6.c.1

# s.6.c.1 = slice s.6.z 32 64
declare intvar d/ds.6.c.1 [32]
define d/ds.6.c.1 = mul d/ds.6.c.2 ds.6.c.2/ds.6.c.1

# s.6.z = add s.6.z.4 b
declare intvar d/ds.6.z [128]
define d/ds.6.z = concat d/ds.6.c.5 d/ds.6.c.1 d/ds.6.c.7 d/ds.6.2

# s.6.z.2 = index s.5 0
declare intvar d/ds.6.z.2 [32]
define d/ds.6.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.6.z

# s.5 = concat s.5.6 s.5.7
declare intvar tmp/s.5/2 [1, 32]
declare intvar tmp/s.5/4 [1, 32]
declare intvar d/ds.5 [2, 32]
define tmp/s.5/2 = reshape d/ds.6.z.2 [1, 32]
define tmp/s.5/4 = reshape d/ds.6.c.3 [1, 32]
define d/ds.5 = concat tmp/s.5/2 tmp/s.5/4

# s.5.7 = reshape s.5.c [1, 32]
declare intvar d/ds.5.7 [1, 32]
define d/ds.5.7 = slice d/ds.5 1 2

# s.5.6 = reshape s.5.5 [1, 32]
declare intvar d/ds.5.6 [1, 32]
define d/ds.5.6 = slice d/ds.5 0 1

# s.5.5 = mul s.5.3 s.5.4
declare intvar d/ds.5.5 [32]
define d/ds.5.5 = reshape d/ds.5.6 [32]

# s.5.4 = tanh s.5.c
declare intvar d/ds.5.4 [32]
declare intvar ds.5.4/ds.5.c [32]
define d/ds.5.4 = mul d/ds.5.5 s.5.3
define ds.5.4/ds.5.c = tanh_deriv s.5.c

# s.5.3 = logistic s.5.2
declare intvar d/ds.5.3 [32]
declare intvar ds.5.3/ds.5.2 [32]
define d/ds.5.3 = mul d/ds.5.5 s.5.4
define ds.5.3/ds.5.2 = logistic_deriv s.5.2

# s.5.2 = slice s.5.z 96 128
declare intvar d/ds.5.2 [32]
define d/ds.5.2 = mul d/ds.5.3 ds.5.3/ds.5.2

# s.5.c = add s.5.c.4 s.5.c.9
declare intvar tmp/s.5.c/1 [32]
declare intvar tmp/s.5.c/2 [32]
declare intvar d/ds.5.c [32]
define tmp/s.5.c/1 = mul d/ds.5.4 ds.5.4/ds.5.c
define tmp/s.5.c/2 = reshape d/ds.5.7 [32]
define d/ds.5.c = add tmp/s.5.c/1 tmp/s.5.c/2

# s.5.c.8 = tanh s.5.c.7
declare intvar d/ds.5.c.8 [32]
declare intvar ds.5.c.8/ds.5.c.7 [32]
define d/ds.5.c.8 = mul d/ds.5.c s.5.c.6
define ds.5.c.8/ds.5.c.7 = tanh_deriv s.5.c.7

# s.5.c.7 = slice s.5.z 64 96
declare intvar d/ds.5.c.7 [32]
define d/ds.5.c.7 = mul d/ds.5.c.8 ds.5.c.8/ds.5.c.7

# s.5.c.6 = logistic s.5.c.5
declare intvar d/ds.5.c.6 [32]
declare intvar ds.5.c.6/ds.5.c.5 [32]
define d/ds.5.c.6 = mul d/ds.5.c s.5.c.8
define ds.5.c.6/ds.5.c.5 = logistic_deriv s.5.c.5

# s.5.c.5 = slice s.5.z 0 32
declare intvar d/ds.5.c.5 [32]
define d/ds.5.c.5 = mul d/ds.5.c.6 ds.5.c.6/ds.5.c.5

# s.5.c.3 = index s.4 1
declare intvar d/ds.5.c.3 [32]
define d/ds.5.c.3 = mul d/ds.5.c s.5.c.2

# s.5.c.2 = logistic s.5.c.1
declare intvar d/ds.5.c.2 [32]
declare intvar ds.5.c.2/ds.5.c.1 [32]
define d/ds.5.c.2 = mul d/ds.5.c s.5.c.3
define ds.5.c.2/ds.5.c.1 = logistic_deriv s.5.c.1

# s.5.c.1 = slice s.5.z 32 64
declare intvar d/ds.5.c.1 [32]
define d/ds.5.c.1 = mul d/ds.5.c.2 ds.5.c.2/ds.5.c.1

# s.5.z = add s.5.z.4 b
declare intvar d/ds.5.z [128]
define d/ds.5.z = concat d/ds.5.c.5 d/ds.5.c.1 d/ds.5.c.7 d/ds.5.2

# s.5.z.2 = index s.4 0
declare intvar d/ds.5.z.2 [32]
define d/ds.5.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.5.z

# s.4 = concat s.4.6 s.4.7
declare intvar tmp/s.4/2 [1, 32]
declare intvar tmp/s.4/4 [1, 32]
declare intvar d/ds.4 [2, 32]
define tmp/s.4/2 = reshape d/ds.5.z.2 [1, 32]
define tmp/s.4/4 = reshape d/ds.5.c.3 [1, 32]
define d/ds.4 = concat tmp/s.4/2 tmp/s.4/4

# s.4.7 = reshape s.4.c [1, 32]
declare intvar d/ds.4.7 [1, 32]
define d/ds.4.7 = slice d/ds.4 1 2

# s.4.6 = reshape s.4.5 [1, 32]
declare intvar d/ds.4.6 [1, 32]
define d/ds.4.6 = slice d/ds.4 0 1

# s.4.5 = mul s.4.3 s.4.4
declare intvar d/ds.4.5 [32]
define d/ds.4.5 = reshape d/ds.4.6 [32]

# s.4.4 = tanh s.4.c
declare intvar d/ds.4.4 [32]
declare intvar ds.4.4/ds.4.c [32]
define d/ds.4.4 = mul d/ds.4.5 s.4.3
define ds.4.4/ds.4.c = tanh_deriv s.4.c

# s.4.3 = logistic s.4.2
declare intvar d/ds.4.3 [32]
declare intvar ds.4.3/ds.4.2 [32]
define d/ds.4.3 = mul d/ds.4.5 s.4.4
define ds.4.3/ds.4.2 = logistic_deriv s.4.2

# s.4.2 = slice s.4.z 96 128
declare intvar d/ds.4.2 [32]
define d/ds.4.2 = mul d/ds.4.3 ds.4.3/ds.4.2

# s.4.c = add s.4.c.4 s.4.c.9
declare intvar tmp/s.4.c/1 [32]
declare intvar tmp/s.4.c/2 [32]
declare intvar d/ds.4.c [32]
define tmp/s.4.c/1 = mul d/ds.4.4 ds.4.4/ds.4.c
define tmp/s.4.c/2 = reshape d/ds.4.7 [32]
define d/ds.4.c = add tmp/s.4.c/1 tmp/s.4.c/2

# s.4.c.8 = tanh s.4.c.7
declare intvar d/ds.4.c.8 [32]
declare intvar ds.4.c.8/ds.4.c.7 [32]
define d/ds.4.c.8 = mul d/ds.4.c s.4.c.6
define ds.4.c.8/ds.4.c.7 = tanh_deriv s.4.c.7

# s.4.c.7 = slice s.4.z 64 96
declare intvar d/ds.4.c.7 [32]
define d/ds.4.c.7 = mul d/ds.4.c.8 ds.4.c.8/ds.4.c.7

# s.4.c.6 = logistic s.4.c.5
declare intvar d/ds.4.c.6 [32]
declare intvar ds.4.c.6/ds.4.c.5 [32]
define d/ds.4.c.6 = mul d/ds.4.c s.4.c.8
define ds.4.c.6/ds.4.c.5 = logistic_deriv s.4.c.5

# s.4.c.5 = slice s.4.z 0 32
declare intvar d/ds.4.c.5 [32]
define d/ds.4.c.5 = mul d/ds.4.c.6 ds.4.c.6/ds.4.c.5

# s.4.c.3 = index s.3 1
declare intvar d/ds.4.c.3 [32]
define d/ds.4.c.3 = mul d/ds.4.c s.4.c.2

# s.4.c.2 = logistic s.4.c.1
declare intvar d/ds.4.c.2 [32]
declare intvar ds.4.c.2/ds.4.c.1 [32]
define d/ds.4.c.2 = mul d/ds.4.c s.4.c.3
define ds.4.c.2/ds.4.c.1 = logistic_deriv s.4.c.1

# s.4.c.1 = slice s.4.z 32 64
declare intvar d/ds.4.c.1 [32]
define d/ds.4.c.1 = mul d/ds.4.c.2 ds.4.c.2/ds.4.c.1

# s.4.z = add s.4.z.4 b
declare intvar d/ds.4.z [128]
define d/ds.4.z = concat d/ds.4.c.5 d/ds.4.c.1 d/ds.4.c.7 d/ds.4.2

# s.4.z.2 = index s.3 0
declare intvar d/ds.4.z.2 [32]
define d/ds.4.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.4.z

# s.3 = concat s.3.6 s.3.7
declare intvar tmp/s.3/2 [1, 32]
declare intvar tmp/s.3/4 [1, 32]
declare intvar d/ds.3 [2, 32]
define tmp/s.3/2 = reshape d/ds.4.z.2 [1, 32]
define tmp/s.3/4 = reshape d/ds.4.c.3 [1, 32]
define d/ds.3 = concat tmp/s.3/2 tmp/s.3/4

# s.3.7 = reshape s.3.c [1, 32]
declare intvar d/ds.3.7 [1, 32]
define d/ds.3.7 = slice d/ds.3 1 2

# s.3.6 = reshape s.3.5 [1, 32]
declare intvar d/ds.3.6 [1, 32]
define d/ds.3.6 = slice d/ds.3 0 1

# s.3.5 = mul s.3.3 s.3.4
declare intvar d/ds.3.5 [32]
define d/ds.3.5 = reshape d/ds.3.6 [32]

# s.3.4 = tanh s.3.c
declare intvar d/ds.3.4 [32]
declare intvar ds.3.4/ds.3.c [32]
define d/ds.3.4 = mul d/ds.3.5 s.3.3
define ds.3.4/ds.3.c = tanh_deriv s.3.c

# s.3.3 = logistic s.3.2
declare intvar d/ds.3.3 [32]
declare intvar ds.3.3/ds.3.2 [32]
define d/ds.3.3 = mul d/ds.3.5 s.3.4
define ds.3.3/ds.3.2 = logistic_deriv s.3.2

# s.3.2 = slice s.3.z 96 128
declare intvar d/ds.3.2 [32]
define d/ds.3.2 = mul d/ds.3.3 ds.3.3/ds.3.2

# s.3.c = add s.3.c.4 s.3.c.9
declare intvar tmp/s.3.c/1 [32]
declare intvar tmp/s.3.c/2 [32]
declare intvar d/ds.3.c [32]
define tmp/s.3.c/1 = mul d/ds.3.4 ds.3.4/ds.3.c
define tmp/s.3.c/2 = reshape d/ds.3.7 [32]
define d/ds.3.c = add tmp/s.3.c/1 tmp/s.3.c/2

# s.3.c.8 = tanh s.3.c.7
declare intvar d/ds.3.c.8 [32]
declare intvar ds.3.c.8/ds.3.c.7 [32]
define d/ds.3.c.8 = mul d/ds.3.c s.3.c.6
define ds.3.c.8/ds.3.c.7 = tanh_deriv s.3.c.7

# s.3.c.7 = slice s.3.z 64 96
declare intvar d/ds.3.c.7 [32]
define d/ds.3.c.7 = mul d/ds.3.c.8 ds.3.c.8/ds.3.c.7

# s.3.c.6 = logistic s.3.c.5
declare intvar d/ds.3.c.6 [32]
declare intvar ds.3.c.6/ds.3.c.5 [32]
define d/ds.3.c.6 = mul d/ds.3.c s.3.c.8
define ds.3.c.6/ds.3.c.5 = logistic_deriv s.3.c.5

# s.3.c.5 = slice s.3.z 0 32
declare intvar d/ds.3.c.5 [32]
define d/ds.3.c.5 = mul d/ds.3.c.6 ds.3.c.6/ds.3.c.5

# s.3.c.3 = index s.2 1
declare intvar d/ds.3.c.3 [32]
define d/ds.3.c.3 = mul d/ds.3.c s.3.c.2

# s.3.c.2 = logistic s.3.c.1
declare intvar d/ds.3.c.2 [32]
declare intvar ds.3.c.2/ds.3.c.1 [32]
define d/ds.3.c.2 = mul d/ds.3.c s.3.c.3
define ds.3.c.2/ds.3.c.1 = logistic_deriv s.3.c.1

# s.3.c.1 = slice s.3.z 32 64
declare intvar d/ds.3.c.1 [32]
define d/ds.3.c.1 = mul d/ds.3.c.2 ds.3.c.2/ds.3.c.1

# s.3.z = add s.3.z.4 b
declare intvar d/ds.3.z [128]
define d/ds.3.z = concat d/ds.3.c.5 d/ds.3.c.1 d/ds.3.c.7 d/ds.3.2

# s.3.z.2 = index s.2 0
declare intvar d/ds.3.z.2 [32]
define d/ds.3.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.3.z

# s.2 = concat s.2.6 s.2.7
declare intvar tmp/s.2/2 [1, 32]
declare intvar tmp/s.2/4 [1, 32]
declare intvar d/ds.2 [2, 32]
define tmp/s.2/2 = reshape d/ds.3.z.2 [1, 32]
define tmp/s.2/4 = reshape d/ds.3.c.3 [1, 32]
define d/ds.2 = concat tmp/s.2/2 tmp/s.2/4

# s.2.7 = reshape s.2.c [1, 32]
declare intvar d/ds.2.7 [1, 32]
define d/ds.2.7 = slice d/ds.2 1 2

# s.2.6 = reshape s.2.5 [1, 32]
declare intvar d/ds.2.6 [1, 32]
define d/ds.2.6 = slice d/ds.2 0 1

# s.2.5 = mul s.2.3 s.2.4
declare intvar d/ds.2.5 [32]
define d/ds.2.5 = reshape d/ds.2.6 [32]

# s.2.4 = tanh s.2.c
declare intvar d/ds.2.4 [32]
declare intvar ds.2.4/ds.2.c [32]
define d/ds.2.4 = mul d/ds.2.5 s.2.3
define ds.2.4/ds.2.c = tanh_deriv s.2.c

# s.2.3 = logistic s.2.2
declare intvar d/ds.2.3 [32]
declare intvar ds.2.3/ds.2.2 [32]
define d/ds.2.3 = mul d/ds.2.5 s.2.4
define ds.2.3/ds.2.2 = logistic_deriv s.2.2

# s.2.2 = slice s.2.z 96 128
declare intvar d/ds.2.2 [32]
define d/ds.2.2 = mul d/ds.2.3 ds.2.3/ds.2.2

# s.2.c = add s.2.c.4 s.2.c.9
declare intvar tmp/s.2.c/1 [32]
declare intvar tmp/s.2.c/2 [32]
declare intvar d/ds.2.c [32]
define tmp/s.2.c/1 = mul d/ds.2.4 ds.2.4/ds.2.c
define tmp/s.2.c/2 = reshape d/ds.2.7 [32]
define d/ds.2.c = add tmp/s.2.c/1 tmp/s.2.c/2

# s.2.c.8 = tanh s.2.c.7
declare intvar d/ds.2.c.8 [32]
declare intvar ds.2.c.8/ds.2.c.7 [32]
define d/ds.2.c.8 = mul d/ds.2.c s.2.c.6
define ds.2.c.8/ds.2.c.7 = tanh_deriv s.2.c.7

# s.2.c.7 = slice s.2.z 64 96
declare intvar d/ds.2.c.7 [32]
define d/ds.2.c.7 = mul d/ds.2.c.8 ds.2.c.8/ds.2.c.7

# s.2.c.6 = logistic s.2.c.5
declare intvar d/ds.2.c.6 [32]
declare intvar ds.2.c.6/ds.2.c.5 [32]
define d/ds.2.c.6 = mul d/ds.2.c s.2.c.8
define ds.2.c.6/ds.2.c.5 = logistic_deriv s.2.c.5

# s.2.c.5 = slice s.2.z 0 32
declare intvar d/ds.2.c.5 [32]
define d/ds.2.c.5 = mul d/ds.2.c.6 ds.2.c.6/ds.2.c.5

# s.2.c.3 = index s.1 1
declare intvar d/ds.2.c.3 [32]
define d/ds.2.c.3 = mul d/ds.2.c s.2.c.2

# s.2.c.2 = logistic s.2.c.1
declare intvar d/ds.2.c.2 [32]
declare intvar ds.2.c.2/ds.2.c.1 [32]
define d/ds.2.c.2 = mul d/ds.2.c s.2.c.3
define ds.2.c.2/ds.2.c.1 = logistic_deriv s.2.c.1

# s.2.c.1 = slice s.2.z 32 64
declare intvar d/ds.2.c.1 [32]
define d/ds.2.c.1 = mul d/ds.2.c.2 ds.2.c.2/ds.2.c.1

# s.2.z = add s.2.z.4 b
declare intvar d/ds.2.z [128]
define d/ds.2.z = concat d/ds.2.c.5 d/ds.2.c.1 d/ds.2.c.7 d/ds.2.2

# s.2.z.2 = index s.1 0
declare intvar d/ds.2.z.2 [32]
define d/ds.2.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.2.z

# s.1 = concat s.1.6 s.1.7
declare intvar tmp/s.1/2 [1, 32]
declare intvar tmp/s.1/4 [1, 32]
declare intvar d/ds.1 [2, 32]
define tmp/s.1/2 = reshape d/ds.2.z.2 [1, 32]
define tmp/s.1/4 = reshape d/ds.2.c.3 [1, 32]
define d/ds.1 = concat tmp/s.1/2 tmp/s.1/4

# s.1.7 = reshape s.1.c [1, 32]
declare intvar d/ds.1.7 [1, 32]
define d/ds.1.7 = slice d/ds.1 1 2

# s.1.6 = reshape s.1.5 [1, 32]
declare intvar d/ds.1.6 [1, 32]
define d/ds.1.6 = slice d/ds.1 0 1

# s.1.5 = mul s.1.3 s.1.4
declare intvar d/ds.1.5 [32]
define d/ds.1.5 = reshape d/ds.1.6 [32]

# s.1.4 = tanh s.1.c
declare intvar d/ds.1.4 [32]
declare intvar ds.1.4/ds.1.c [32]
define d/ds.1.4 = mul d/ds.1.5 s.1.3
define ds.1.4/ds.1.c = tanh_deriv s.1.c

# s.1.3 = logistic s.1.2
declare intvar d/ds.1.3 [32]
declare intvar ds.1.3/ds.1.2 [32]
define d/ds.1.3 = mul d/ds.1.5 s.1.4
define ds.1.3/ds.1.2 = logistic_deriv s.1.2

# s.1.2 = slice s.1.z 96 128
declare intvar d/ds.1.2 [32]
define d/ds.1.2 = mul d/ds.1.3 ds.1.3/ds.1.2

# s.1.c = add s.1.c.4 s.1.c.9
declare intvar tmp/s.1.c/1 [32]
declare intvar tmp/s.1.c/2 [32]
declare intvar d/ds.1.c [32]
define tmp/s.1.c/1 = mul d/ds.1.4 ds.1.4/ds.1.c
define tmp/s.1.c/2 = reshape d/ds.1.7 [32]
define d/ds.1.c = add tmp/s.1.c/1 tmp/s.1.c/2

# s.1.c.8 = tanh s.1.c.7
declare intvar d/ds.1.c.8 [32]
declare intvar ds.1.c.8/ds.1.c.7 [32]
define d/ds.1.c.8 = mul d/ds.1.c s.1.c.6
define ds.1.c.8/ds.1.c.7 = tanh_deriv s.1.c.7

# s.1.c.7 = slice s.1.z 64 96
declare intvar d/ds.1.c.7 [32]
define d/ds.1.c.7 = mul d/ds.1.c.8 ds.1.c.8/ds.1.c.7

# s.1.c.6 = logistic s.1.c.5
declare intvar d/ds.1.c.6 [32]
declare intvar ds.1.c.6/ds.1.c.5 [32]
define d/ds.1.c.6 = mul d/ds.1.c s.1.c.8
define ds.1.c.6/ds.1.c.5 = logistic_deriv s.1.c.5

# s.1.c.5 = slice s.1.z 0 32
declare intvar d/ds.1.c.5 [32]
define d/ds.1.c.5 = mul d/ds.1.c.6 ds.1.c.6/ds.1.c.5

# s.1.c.3 = index s.0 1
declare intvar d/ds.1.c.3 [32]
define d/ds.1.c.3 = mul d/ds.1.c s.1.c.2

# s.1.c.2 = logistic s.1.c.1
declare intvar d/ds.1.c.2 [32]
declare intvar ds.1.c.2/ds.1.c.1 [32]
define d/ds.1.c.2 = mul d/ds.1.c s.1.c.3
define ds.1.c.2/ds.1.c.1 = logistic_deriv s.1.c.1

# s.1.c.1 = slice s.1.z 32 64
declare intvar d/ds.1.c.1 [32]
define d/ds.1.c.1 = mul d/ds.1.c.2 ds.1.c.2/ds.1.c.1

# s.1.z = add s.1.z.4 b
declare intvar d/ds.1.z [128]
define d/ds.1.z = concat d/ds.1.c.5 d/ds.1.c.1 d/ds.1.c.7 d/ds.1.2

# s.1.z.2 = index s.0 0
declare intvar d/ds.1.z.2 [32]
define d/ds.1.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.1.z

# s.0 = concat s.0.6 s.0.7
declare intvar tmp/s.0/2 [1, 32]
declare intvar tmp/s.0/4 [1, 32]
declare intvar d/ds.0 [2, 32]
define tmp/s.0/2 = reshape d/ds.1.z.2 [1, 32]
define tmp/s.0/4 = reshape d/ds.1.c.3 [1, 32]
define d/ds.0 = concat tmp/s.0/2 tmp/s.0/4

# s.0.7 = reshape s.0.c [1, 32]
declare intvar d/ds.0.7 [1, 32]
define d/ds.0.7 = slice d/ds.0 1 2

# s.0.6 = reshape s.0.5 [1, 32]
declare intvar d/ds.0.6 [1, 32]
define d/ds.0.6 = slice d/ds.0 0 1

# s.0.5 = mul s.0.3 s.0.4
declare intvar d/ds.0.5 [32]
define d/ds.0.5 = reshape d/ds.0.6 [32]

# s.0.4 = tanh s.0.c
declare intvar d/ds.0.4 [32]
declare intvar ds.0.4/ds.0.c [32]
define d/ds.0.4 = mul d/ds.0.5 s.0.3
define ds.0.4/ds.0.c = tanh_deriv s.0.c

# s.0.3 = logistic s.0.2
declare intvar d/ds.0.3 [32]
declare intvar ds.0.3/ds.0.2 [32]
define d/ds.0.3 = mul d/ds.0.5 s.0.4
define ds.0.3/ds.0.2 = logistic_deriv s.0.2

# s.0.2 = slice s.0.z 96 128
declare intvar d/ds.0.2 [32]
define d/ds.0.2 = mul d/ds.0.3 ds.0.3/ds.0.2

# s.0.c = add s.0.c.4 s.0.c.9
declare intvar tmp/s.0.c/1 [32]
declare intvar tmp/s.0.c/2 [32]
declare intvar d/ds.0.c [32]
define tmp/s.0.c/1 = mul d/ds.0.4 ds.0.4/ds.0.c
define tmp/s.0.c/2 = reshape d/ds.0.7 [32]
define d/ds.0.c = add tmp/s.0.c/1 tmp/s.0.c/2

# s.0.c.8 = tanh s.0.c.7
declare intvar d/ds.0.c.8 [32]
declare intvar ds.0.c.8/ds.0.c.7 [32]
define d/ds.0.c.8 = mul d/ds.0.c s.0.c.6
define ds.0.c.8/ds.0.c.7 = tanh_deriv s.0.c.7

# s.0.c.7 = slice s.0.z 64 96
declare intvar d/ds.0.c.7 [32]
define d/ds.0.c.7 = mul d/ds.0.c.8 ds.0.c.8/ds.0.c.7

# s.0.c.6 = logistic s.0.c.5
declare intvar d/ds.0.c.6 [32]
declare intvar ds.0.c.6/ds.0.c.5 [32]
define d/ds.0.c.6 = mul d/ds.0.c s.0.c.8
define ds.0.c.6/ds.0.c.5 = logistic_deriv s.0.c.5

# s.0.c.5 = slice s.0.z 0 32
declare intvar d/ds.0.c.5 [32]
define d/ds.0.c.5 = mul d/ds.0.c.6 ds.0.c.6/ds.0.c.5

# s.0.c.3 = index s0 1
declare intvar d/ds.0.c.3 [32]
define d/ds.0.c.3 = mul d/ds.0.c s.0.c.2

# s.0.c.2 = logistic s.0.c.1
declare intvar d/ds.0.c.2 [32]
declare intvar ds.0.c.2/ds.0.c.1 [32]
define d/ds.0.c.2 = mul d/ds.0.c s.0.c.3
define ds.0.c.2/ds.0.c.1 = logistic_deriv s.0.c.1

# s.0.c.1 = slice s.0.z 32 64
declare intvar d/ds.0.c.1 [32]
define d/ds.0.c.1 = mul d/ds.0.c.2 ds.0.c.2/ds.0.c.1

# s.0.z = add s.0.z.4 b
declare intvar d/ds.0.z [128]
define d/ds.0.z = concat d/ds.0.c.5 d/ds.0.c.1 d/ds.0.c.7 d/ds.0.2

# s.0.z.2 = index s0 0
declare intvar d/ds.0.z.2 [32]
define d/ds.0.z.2 = matmul ds.7.z.3/ds.7.z.2 d/ds.0.z

# weight c
declare output d/dc [10]
define d/dc = d/dscores

# weight V
declare output d/dV [10, 32]
define d/dV = outer d/dscores scores.1

# weight s0
declare intvar tmp/s0/2 [1, 32]
declare intvar tmp/s0/4 [1, 32]
declare output d/ds0 [2, 32]
define tmp/s0/2 = reshape d/ds.0.z.2 [1, 32]
define tmp/s0/4 = reshape d/ds.0.c.3 [1, 32]
define d/ds0 = concat tmp/s0/2 tmp/s0/4

# weight b
declare intvar tmp/b/9 [128]
declare intvar tmp/b/10 [128]
declare intvar tmp/b/11 [128]
declare intvar tmp/b/12 [128]
declare intvar tmp/b/13 [128]
declare intvar tmp/b/14 [128]
declare output d/db [128]
define tmp/b/9 = add d/ds.0.z d/ds.1.z
define tmp/b/10 = add tmp/b/9 d/ds.2.z
define tmp/b/11 = add tmp/b/10 d/ds.3.z
define tmp/b/12 = add tmp/b/11 d/ds.4.z
define tmp/b/13 = add tmp/b/12 d/ds.5.z
define tmp/b/14 = add tmp/b/13 d/ds.6.z
define d/db = add tmp/b/14 d/ds.7.z

# weight U
declare intvar tmp/U/1 [128, 32]
declare intvar tmp/U/2 [128, 32]
declare intvar tmp/U/3 [128, 32]
declare intvar tmp/U/4 [128, 32]
declare intvar tmp/U/5 [128, 32]
declare intvar tmp/U/6 [128, 32]
declare intvar tmp/U/7 [128, 32]
declare intvar tmp/U/8 [128, 32]
declare intvar tmp/U/9 [128, 32]
declare intvar tmp/U/10 [128, 32]
declare intvar tmp/U/11 [128, 32]
declare intvar tmp/U/12 [128, 32]
declare intvar tmp/U/13 [128, 32]
declare intvar tmp/U/14 [128, 32]
declare output d/dU [128, 32]
define tmp/U/1 = outer d/ds.0.z s.0.z.2
define tmp/U/2 = outer d/ds.1.z s.1.z.2
define tmp/U/3 = outer d/ds.2.z s.2.z.2
define tmp/U/4 = outer d/ds.3.z s.3.z.2
define tmp/U/5 = outer d/ds.4.z s.4.z.2
define tmp/U/6 = outer d/ds.5.z s.5.z.2
define tmp/U/7 = outer d/ds.6.z s.6.z.2
define tmp/U/8 = outer d/ds.7.z s.7.z.2
define tmp/U/9 = add tmp/U/1 tmp/U/2
define tmp/U/10 = add tmp/U/9 tmp/U/3
define tmp/U/11 = add tmp/U/10 tmp/U/4
define tmp/U/12 = add tmp/U/11 tmp/U/5
define tmp/U/13 = add tmp/U/12 tmp/U/6
define tmp/U/14 = add tmp/U/13 tmp/U/7
define d/dU = add tmp/U/14 tmp/U/8

# weight W
declare intvar tmp/W/1 [128, 8]
declare intvar tmp/W/2 [128, 8]
declare intvar tmp/W/3 [128, 8]
declare intvar tmp/W/4 [128, 8]
declare intvar tmp/W/5 [128, 8]
declare intvar tmp/W/6 [128, 8]
declare intvar tmp/W/7 [128, 8]
declare intvar tmp/W/8 [128, 8]
declare intvar tmp/W/9 [128, 8]
declare intvar tmp/W/10 [128, 8]
declare intvar tmp/W/11 [128, 8]
declare intvar tmp/W/12 [128, 8]
declare intvar tmp/W/13 [128, 8]
declare intvar tmp/W/14 [128, 8]
declare output d/dW [128, 8]
define tmp/W/1 = outer d/ds.0.z s.0.1
define tmp/W/2 = outer d/ds.1.z s.1.1
define tmp/W/3 = outer d/ds.2.z s.2.1
define tmp/W/4 = outer d/ds.3.z s.3.1
define tmp/W/5 = outer d/ds.4.z s.4.1
define tmp/W/6 = outer d/ds.5.z s.5.1
define tmp/W/7 = outer d/ds.6.z s.6.1
define tmp/W/8 = outer d/ds.7.z s.7.1
define tmp/W/9 = add tmp/W/1 tmp/W/2
define tmp/W/10 = add tmp/W/9 tmp/W/3
define tmp/W/11 = add tmp/W/10 tmp/W/4
define tmp/W/12 = add tmp/W/11 tmp/W/5
define tmp/W/13 = add tmp/W/12 tmp/W/6
define tmp/W/14 = add tmp/W/13 tmp/W/7
define d/dW = add tmp/W/14 tmp/W/8
