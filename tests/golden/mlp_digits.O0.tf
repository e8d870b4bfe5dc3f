declare input x [64]
declare input y [10]
declare weight W1 [32, 64]
declare weight b1 [32]
declare weight W2 [10, 32]
declare weight b2 [10]
declare intvar h [32]
declare intvar a [32]
declare intvar scores [10]
declare intvar logp [10]
declare intvar fit
declare loss xent
declare intvar h.t [32]
declare intvar scores.t [10]

# forward: the shape program
define h.t = matmul W1 x
define h = add h.t b1
define a = tanh h
define scores.t = matmul W2 a
define scores = add scores.t b2
define logp = log_softmax scores
define fit = dot logp y
define xent = neg fit

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# xent = neg fit
declare intvar d/dxent
declare intvar dxent/dfit
define d/dxent = 1
define dxent/dfit = -1

# fit = dot logp y
declare intvar d/dfit
declare intvar dfit/dlogp [10]
declare intvar dfit/dy [10]
define d/dfit = mul d/dxent dxent/dfit
define dfit/dlogp = y
define dfit/dy = logp

# logp = log_softmax scores
declare intvar d/dlogp [10]
declare intvar dlogp/dscores [10]
define d/dlogp = mul d/dfit dfit/dlogp
define dlogp/dscores = softmax scores

# scores = add scores.t b2
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
declare intvar dscores/dscores.t
declare intvar dscores/db2
define tmp/scores/1 = sum d/dlogp
define tmp/scores/2 = mul dlogp/dscores tmp/scores/1
define d/dscores = sub d/dlogp tmp/scores/2
define dscores/dscores.t = 1
define dscores/db2 = 1

# scores.t = matmul W2 a
declare intvar d/dscores.t [10]
declare intvar dscores.t/dW2 [32]
declare intvar dscores.t/da [32, 10]
define d/dscores.t = mul d/dscores dscores/dscores.t
define dscores.t/dW2 = a
define dscores.t/da = transpose W2

# a = tanh h
declare intvar d/da [32]
declare intvar da/dh [32]
define d/da = matmul dscores.t/da d/dscores.t
define da/dh = tanh_deriv h

# h = add h.t b1
declare intvar d/dh [32]
declare intvar dh/dh.t
declare intvar dh/db1
define d/dh = mul d/da da/dh
define dh/dh.t = 1
define dh/db1 = 1

# h.t = matmul W1 x
declare intvar d/dh.t [32]
declare intvar dh.t/dW1 [64]
declare intvar dh.t/dx [64, 32]
define d/dh.t = mul d/dh dh/dh.t
define dh.t/dW1 = x
define dh.t/dx = transpose W1

# weight b2
declare output d/db2 [10]
define d/db2 = mul d/dscores dscores/db2

# weight W2
declare output d/dW2 [10, 32]
define d/dW2 = outer d/dscores.t dscores.t/dW2

# weight b1
declare output d/db1 [32]
define d/db1 = mul d/dh dh/db1

# weight W1
declare output d/dW1 [32, 64]
define d/dW1 = outer d/dh.t dh.t/dW1

# exp_output y
declare intvar d/dy [10]
define d/dy = mul d/dfit dfit/dy

# input x
declare intvar d/dx [64]
define d/dx = matmul dh.t/dx d/dh.t
