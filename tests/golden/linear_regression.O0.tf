declare input x [3]
declare input y
declare weight w [3]
declare weight b
declare intvar t
declare intvar o
declare intvar err
declare loss sq

# forward: the shape program
define t = dot w x
define o = add t b
define err = sub o y
define sq = mul err err

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# sq = mul err err
declare intvar d/dsq
declare intvar tmp/sq/1
declare intvar tmp/sq/2
define d/dsq = 1
define tmp/sq/1 = err
define tmp/sq/2 = err

# err = sub o y
declare intvar tmp/err/1
declare intvar tmp/err/2
declare intvar d/derr
declare intvar derr/do
declare intvar derr/dy
define tmp/err/1 = mul d/dsq tmp/sq/1
define tmp/err/2 = mul d/dsq tmp/sq/2
define d/derr = add tmp/err/1 tmp/err/2
define derr/do = 1
define derr/dy = -1

# o = add t b
declare intvar d/do
declare intvar do/dt
declare intvar do/db
define d/do = mul d/derr derr/do
define do/dt = 1
define do/db = 1

# t = dot w x
declare intvar d/dt
declare intvar dt/dw [3]
declare intvar dt/dx [3]
define d/dt = mul d/do do/dt
define dt/dw = x
define dt/dx = w

# weight b
declare output d/db
define d/db = mul d/do do/db

# weight w
declare output d/dw [3]
define d/dw = mul d/dt dt/dw

# exp_output y
declare intvar d/dy
define d/dy = mul d/derr derr/dy

# input x
declare intvar d/dx [3]
define d/dx = mul d/dt dt/dx
