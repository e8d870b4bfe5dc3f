declare input x
declare input y
declare weight w
declare intvar z
declare intvar o
declare intvar diff
declare loss lambda
declare intvar d/dlambda
declare intvar dlambda/ddiff.1
declare intvar dlambda/ddiff.2
declare intvar dlambda/ddiff
declare intvar d/ddiff
declare intvar ddiff/do
declare intvar ddiff/dy
declare intvar d/do
declare intvar do/dz
declare intvar d/dz
declare intvar dz/dx
declare intvar dz/dw
declare output d/dw
declare intvar d/dy
declare intvar d/dx

# forward: the shape program
define z = mul x w
define o = logistic z
define diff = sub o y
define lambda = pow diff 2

# backward: adjoints d/dv and local partials dv/dm
# lambda = pow diff 2
define d/dlambda = 1
define dlambda/ddiff.1 = sub 2 1
define dlambda/ddiff.2 = pow diff dlambda/ddiff.1
define dlambda/ddiff = mul 2 dlambda/ddiff.2

# diff = sub o y
define d/ddiff = mul d/dlambda dlambda/ddiff
define ddiff/do = 1
define ddiff/dy = -1

# o = logistic z
define d/do = mul d/ddiff ddiff/do
define do/dz = logistic_deriv z

# z = mul x w
define d/dz = mul d/do do/dz
define dz/dx = w
define dz/dw = x

# weight w
define d/dw = mul d/dz dz/dw

# exp_output y
define d/dy = mul d/ddiff ddiff/dy

# input x
define d/dx = mul d/dz dz/dx
