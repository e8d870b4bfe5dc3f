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
declare intvar d/dz.2
declare intvar d/dz
declare output d/db
declare intvar d/dw.1 [30]
declare intvar d/dw.2 [30]
declare intvar d/dw.4 [30]
declare output d/dw [30]

# forward: the shape program
define t = dot w x
define z = add t b
define p = logistic z
define sp = softplus z
define yz = mul y z
define xent = sub sp yz
define ww = dot w w
define penalty = mul ww 0.001098901098901099

# backward: adjoints d/dv and local partials dv/dm
# z = add t b
define d/dz.2 = neg y
define d/dz = add p d/dz.2

# weight b
define d/db = d/dz

# weight w
define d/dw.1 = mul d/dz x
define d/dw.2 = mul 0.001098901098901099 w
define d/dw.4 = add d/dw.1 d/dw.2
define d/dw = add d/dw.4 d/dw.2
