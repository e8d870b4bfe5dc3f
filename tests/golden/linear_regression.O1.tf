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
# err = sub o y
declare intvar d/derr
define d/derr = mul 2 err

# weight b
declare output d/db
define d/db = d/derr

# weight w
declare output d/dw [3]
define d/dw = mul d/derr x
