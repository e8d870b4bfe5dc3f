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
# logp = log_softmax scores
declare intvar d/dlogp [10]
declare intvar dlogp/dscores [10]
define d/dlogp = neg y
define dlogp/dscores = softmax scores

# scores = add scores.t b2
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
define tmp/scores/1 = sum d/dlogp
define tmp/scores/2 = mul dlogp/dscores tmp/scores/1
define d/dscores = sub d/dlogp tmp/scores/2

# scores.t = matmul W2 a
declare intvar dscores.t/da [32, 10]
define dscores.t/da = transpose W2

# a = tanh h
declare intvar d/da [32]
declare intvar da/dh [32]
define d/da = matmul dscores.t/da d/dscores
define da/dh = tanh_deriv h

# h = add h.t b1
declare intvar d/dh [32]
define d/dh = mul d/da da/dh

# weight b2
declare output d/db2 [10]
define d/db2 = d/dscores

# weight W2
declare output d/dW2 [10, 32]
define d/dW2 = outer d/dscores a

# weight b1
declare output d/db1 [32]
define d/db1 = d/dh

# weight W1
declare output d/dW1 [32, 64]
define d/dW1 = outer d/dh x
