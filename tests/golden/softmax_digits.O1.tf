declare input x [64]
declare input y [10]
declare weight W [10, 64]
declare weight b [10]
declare intvar t [10]
declare intvar scores [10]
declare intvar logp [10]
declare intvar fit
declare loss xent

# forward: the shape program
define t = matmul W x
define scores = add t b
define logp = log_softmax scores
define fit = dot logp y
define xent = neg fit

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# logp = log_softmax scores
declare intvar d/dlogp [10]
declare intvar dlogp/dscores [10]
define d/dlogp = neg y
define dlogp/dscores = softmax scores

# scores = add t b
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
define tmp/scores/1 = sum d/dlogp
define tmp/scores/2 = mul dlogp/dscores tmp/scores/1
define d/dscores = sub d/dlogp tmp/scores/2

# weight b
declare output d/db [10]
define d/db = d/dscores

# weight W
declare output d/dW [10, 64]
define d/dW = outer d/dscores x
