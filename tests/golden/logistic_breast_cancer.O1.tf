declare input x [30]
declare input y
declare weight w [30]
declare weight b
declare intvar t
declare intvar z
declare output p
declare intvar sp
declare intvar yz
declare loss xent
declare intvar ww
declare loss penalty

# forward: the shape program
define t = dot w x
define z = add t b
define p = logistic z
define sp = softplus z
define yz = mul y z
define xent = sub sp yz
define ww = dot w w
define penalty = mul ww 0.001098901098901099

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# z = add t b
declare intvar tmp/z/2
declare intvar d/dz
define tmp/z/2 = neg y
define d/dz = add p tmp/z/2

# weight b
declare output d/db
define d/db = d/dz

# weight w
declare intvar tmp/w/1 [30]
declare intvar tmp/w/2 [30]
declare intvar tmp/w/4 [30]
declare output d/dw [30]
define tmp/w/1 = mul d/dz x
define tmp/w/2 = mul 0.001098901098901099 w
define tmp/w/4 = add tmp/w/1 tmp/w/2
define d/dw = add tmp/w/4 tmp/w/2
