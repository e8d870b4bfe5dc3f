declare input x
declare input y
declare weight w
declare intvar z
declare intvar o
declare intvar diff
declare loss lambda

# forward: the shape program
define z = mul x w
define o = logistic z
define diff = sub o y
define lambda = pow diff 2

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# lambda = pow diff 2
declare intvar dlambda/ddiff
define dlambda/ddiff = mul 2 diff

# o = logistic z
declare intvar do/dz
define do/dz = logistic_deriv z

# z = mul x w
declare intvar d/dz
define d/dz = mul dlambda/ddiff do/dz

# weight w
declare output d/dw
define d/dw = mul d/dz x
