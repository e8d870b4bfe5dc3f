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
# penalty = mul ww 0.001098901098901099
declare intvar d/dpenalty
declare intvar dpenalty/dww
define d/dpenalty = 1
define dpenalty/dww = 0.001098901098901099

# ww = dot w w
declare intvar d/dww
declare intvar tmp/ww/1 [30]
declare intvar tmp/ww/2 [30]
define d/dww = mul d/dpenalty dpenalty/dww
define tmp/ww/1 = w
define tmp/ww/2 = w

# xent = sub sp yz
declare intvar d/dxent
declare intvar dxent/dsp
declare intvar dxent/dyz
define d/dxent = 1
define dxent/dsp = 1
define dxent/dyz = -1

# yz = mul y z
declare intvar d/dyz
declare intvar dyz/dy
declare intvar dyz/dz
define d/dyz = mul d/dxent dxent/dyz
define dyz/dy = z
define dyz/dz = y

# sp = softplus z
declare intvar d/dsp
declare intvar dsp/dz
define d/dsp = mul d/dxent dxent/dsp
define dsp/dz = logistic z

# p = logistic z
declare intvar d/dp
declare intvar dp/dz
define d/dp = 0
define dp/dz = logistic_deriv z

# z = add t b
declare intvar tmp/z/1
declare intvar tmp/z/2
declare intvar tmp/z/3
declare intvar tmp/z/4
declare intvar d/dz
declare intvar dz/dt
declare intvar dz/db
define tmp/z/1 = mul d/dp dp/dz
define tmp/z/2 = mul d/dsp dsp/dz
define tmp/z/3 = mul d/dyz dyz/dz
define tmp/z/4 = add tmp/z/1 tmp/z/2
define d/dz = add tmp/z/4 tmp/z/3
define dz/dt = 1
define dz/db = 1

# t = dot w x
declare intvar d/dt
declare intvar dt/dw [30]
declare intvar dt/dx [30]
define d/dt = mul d/dz dz/dt
define dt/dw = x
define dt/dx = w

# weight b
declare output d/db
define d/db = mul d/dz dz/db

# weight w
declare intvar tmp/w/1 [30]
declare intvar tmp/w/2 [30]
declare intvar tmp/w/3 [30]
declare intvar tmp/w/4 [30]
declare output d/dw [30]
define tmp/w/1 = mul d/dt dt/dw
define tmp/w/2 = mul d/dww tmp/ww/1
define tmp/w/3 = mul d/dww tmp/ww/2
define tmp/w/4 = add tmp/w/1 tmp/w/2
define d/dw = add tmp/w/4 tmp/w/3

# exp_output y
declare intvar d/dy
define d/dy = mul d/dyz dyz/dy

# input x
declare intvar d/dx [30]
define d/dx = mul d/dt dt/dx
