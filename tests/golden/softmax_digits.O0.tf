declare input x [64]
declare input y [10]
declare weight W [10, 64]
declare weight b [10]
declare intvar t [10]
declare intvar scores [10]
declare intvar logp [10]
declare intvar fit
declare loss xent
declare intvar d/dxent
declare intvar dxent/dfit
declare intvar d/dfit
declare intvar dfit/dlogp [10]
declare intvar dfit/dy [10]
declare intvar d/dlogp [10]
declare intvar dlogp/dscores [10]
declare intvar d/dscores.1
declare intvar d/dscores.2 [10]
declare intvar d/dscores [10]
declare intvar dscores/dt
declare intvar dscores/db
declare intvar d/dt [10]
declare intvar dt/dW [64]
declare intvar dt/dx [64, 10]
declare output d/db [10]
declare output d/dW [10, 64]
declare intvar d/dy [10]
declare intvar d/dx [64]

# forward: the shape program
define t = matmul W x
define scores = add t b
define logp = log_softmax scores
define fit = dot logp y
define xent = neg fit

# backward: adjoints d/dv and local partials dv/dm
# xent = neg fit
define d/dxent = 1
define dxent/dfit = -1

# fit = dot logp y
define d/dfit = mul d/dxent dxent/dfit
define dfit/dlogp = y
define dfit/dy = logp

# logp = log_softmax scores
define d/dlogp = mul d/dfit dfit/dlogp
define dlogp/dscores = softmax scores

# scores = add t b
define d/dscores.1 = sum d/dlogp
define d/dscores.2 = mul dlogp/dscores d/dscores.1
define d/dscores = sub d/dlogp d/dscores.2
define dscores/dt = 1
define dscores/db = 1

# t = matmul W x
define d/dt = mul d/dscores dscores/dt
define dt/dW = x
define dt/dx = transpose W

# weight b
define d/db = mul d/dscores dscores/db

# weight W
define d/dW = outer d/dt dt/dW

# exp_output y
define d/dy = mul d/dfit dfit/dy

# input x
define d/dx = matmul dt/dx d/dt
