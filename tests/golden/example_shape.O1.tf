declare input x
declare input y
declare weight w
declare intvar z
declare intvar o
declare intvar diff
declare loss lambda
declare intvar dlambda/ddiff
declare intvar do/dz
declare intvar d/dz
declare output d/dw

# forward: the shape program
define z = mul x w
define o = logistic z
define diff = sub o y
define lambda = pow diff 2

# backward: adjoints d/dv and local partials dv/dm
# lambda = pow diff 2
define dlambda/ddiff = mul 2 diff

# o = logistic z
define do/dz = logistic_deriv z

# z = mul x w
define d/dz = mul dlambda/ddiff do/dz

# weight w
define d/dw = mul d/dz x
