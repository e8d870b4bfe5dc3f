declare input x [3]
declare input y
declare weight w [3]
declare weight b
declare intvar t
declare intvar o
declare intvar err
declare loss sq
declare intvar d/derr
declare output d/db
declare output d/dw [3]

# forward: the shape program
define t = dot w x
define o = add t b
define err = sub o y
define sq = mul err err

# backward: adjoints d/dv and local partials dv/dm
# err = sub o y
define d/derr = add err err

# weight b
define d/db = d/derr

# weight w
define d/dw = mul d/derr x
