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
declare intvar d/dpenalty
declare intvar dpenalty/dww
declare intvar d/dww
declare intvar dww/dw [30]
declare intvar dww/dw.1 [30]
declare intvar d/dxent
declare intvar dxent/dsp
declare intvar dxent/dyz
declare intvar d/dyz
declare intvar dyz/dy
declare intvar dyz/dz
declare intvar d/dsp
declare intvar dsp/dz
declare intvar d/dp
declare intvar dp/dz
declare intvar d/dz.1
declare intvar d/dz.2
declare intvar d/dz.3
declare intvar d/dz.4
declare intvar d/dz
declare intvar dz/dt
declare intvar dz/db
declare intvar d/dt
declare intvar dt/dw [30]
declare intvar dt/dx [30]
declare output d/db
declare intvar d/dw.1 [30]
declare intvar d/dw.2 [30]
declare intvar d/dw.3 [30]
declare intvar d/dw.4 [30]
declare output d/dw [30]
declare intvar d/dy
declare intvar d/dx [30]

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
# penalty = mul ww 0.001098901098901099
define d/dpenalty = 1
define dpenalty/dww = 0.001098901098901099

# ww = dot w w
define d/dww = mul d/dpenalty dpenalty/dww
define dww/dw = w
define dww/dw.1 = w

# xent = sub sp yz
define d/dxent = 1
define dxent/dsp = 1
define dxent/dyz = -1

# yz = mul y z
define d/dyz = mul d/dxent dxent/dyz
define dyz/dy = z
define dyz/dz = y

# sp = softplus z
define d/dsp = mul d/dxent dxent/dsp
define dsp/dz = logistic z

# p = logistic z
define d/dp = 0
define dp/dz = logistic_deriv z

# z = add t b
define d/dz.1 = mul d/dp dp/dz
define d/dz.2 = mul d/dsp dsp/dz
define d/dz.3 = mul d/dyz dyz/dz
define d/dz.4 = add d/dz.1 d/dz.2
define d/dz = add d/dz.4 d/dz.3
define dz/dt = 1
define dz/db = 1

# t = dot w x
define d/dt = mul d/dz dz/dt
define dt/dw = x
define dt/dx = w

# weight b
define d/db = mul d/dz dz/db

# weight w
define d/dw.1 = mul d/dt dt/dw
define d/dw.2 = mul d/dww dww/dw
define d/dw.3 = mul d/dww dww/dw.1
define d/dw.4 = add d/dw.1 d/dw.2
define d/dw = add d/dw.4 d/dw.3

# exp_output y
define d/dy = mul d/dyz dyz/dy

# input x
define d/dx = mul d/dt dt/dx
