declare input x [3]
declare input y
declare weight w [3]
declare weight b
declare intvar t
declare intvar o
declare intvar err
declare loss sq
declare intvar d/dsq
declare intvar dsq/derr
declare intvar dsq/derr.1
declare intvar d/derr.1
declare intvar d/derr.2
declare intvar d/derr
declare intvar derr/do
declare intvar derr/dy
declare intvar d/do
declare intvar do/dt
declare intvar do/db
declare intvar d/dt
declare intvar dt/dw [3]
declare intvar dt/dx [3]
declare output d/db
declare output d/dw [3]
declare intvar d/dy
declare intvar d/dx [3]

# forward: the shape program
define t = dot w x
define o = add t b
define err = sub o y
define sq = mul err err

# backward: adjoints d/dv and local partials dv/dm
# sq = mul err err
define d/dsq = 1
define dsq/derr = err
define dsq/derr.1 = err

# err = sub o y
define d/derr.1 = mul d/dsq dsq/derr
define d/derr.2 = mul d/dsq dsq/derr.1
define d/derr = add d/derr.1 d/derr.2
define derr/do = 1
define derr/dy = -1

# o = add t b
define d/do = mul d/derr derr/do
define do/dt = 1
define do/db = 1

# t = dot w x
define d/dt = mul d/do do/dt
define dt/dw = x
define dt/dx = w

# weight b
define d/db = mul d/do do/db

# weight w
define d/dw = mul d/dt dt/dw

# exp_output y
define d/dy = mul d/derr derr/dy

# input x
define d/dx = mul d/dt dt/dx
