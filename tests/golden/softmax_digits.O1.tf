declare input x [64]
declare input y [10]
declare weight W [10, 64]
declare weight b [10]
declare intvar t [10]
declare intvar scores [10]
declare intvar logp [10]
declare intvar fit
declare loss xent
declare intvar d/dlogp [10]
declare intvar dlogp/dscores [10]
declare intvar d/dscores.1
declare intvar d/dscores.2 [10]
declare intvar d/dscores [10]
declare output d/db [10]
declare output d/dW [10, 64]

# forward: the shape program
define t = matmul W x
define scores = add t b
define logp = log_softmax scores
define fit = dot logp y
define xent = neg fit

# backward: adjoints d/dv and local partials dv/dm
# logp = log_softmax scores
define d/dlogp = neg y
define dlogp/dscores = softmax scores

# scores = add t b
define d/dscores.1 = sum d/dlogp
define d/dscores.2 = mul dlogp/dscores d/dscores.1
define d/dscores = sub d/dlogp d/dscores.2

# weight b
define d/db = d/dscores

# weight W
define d/dW = outer d/dscores x
