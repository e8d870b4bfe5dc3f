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

# scores = add t b
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
declare intvar dscores/dt
declare intvar dscores/db
define tmp/scores/1 = sum d/dlogp
define tmp/scores/2 = mul dlogp/dscores tmp/scores/1
define d/dscores = sub d/dlogp tmp/scores/2
define dscores/dt = 1
define dscores/db = 1

# t = matmul W x
declare intvar d/dt [10]
declare intvar dt/dW [64]
declare intvar dt/dx [64, 10]
define d/dt = mul d/dscores dscores/dt
define dt/dW = x
define dt/dx = transpose W

# weight b
declare output d/db [10]
define d/db = mul d/dscores dscores/db

# weight W
declare output d/dW [10, 64]
define d/dW = outer d/dt dt/dW

# exp_output y
declare intvar d/dy [10]
define d/dy = mul d/dfit dfit/dy

# input x
declare intvar d/dx [64]
define d/dx = matmul dt/dx d/dt
