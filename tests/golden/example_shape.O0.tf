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
declare intvar d/dlambda
declare intvar tmp/lambda/1
declare intvar tmp/lambda/2
declare intvar dlambda/ddiff
define d/dlambda = 1
define tmp/lambda/1 = sub 2 1
define tmp/lambda/2 = pow diff tmp/lambda/1
define dlambda/ddiff = mul 2 tmp/lambda/2

# diff = sub o y
declare intvar d/ddiff
declare intvar ddiff/do
declare intvar ddiff/dy
define d/ddiff = mul d/dlambda dlambda/ddiff
define ddiff/do = 1
define ddiff/dy = -1

# o = logistic z
declare intvar d/do
declare intvar do/dz
define d/do = mul d/ddiff ddiff/do
define do/dz = logistic_deriv z

# z = mul x w
declare intvar d/dz
declare intvar dz/dx
declare intvar dz/dw
define d/dz = mul d/do do/dz
define dz/dx = w
define dz/dw = x

# weight w
declare output d/dw
define d/dw = mul d/dz dz/dw

# exp_output y
declare intvar d/dy
define d/dy = mul d/ddiff ddiff/dy

# input x
declare intvar d/dx
define d/dx = mul d/dz dz/dx
