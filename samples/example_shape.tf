# The original design's recurring example: o = logistic(w * x), loss = (o - y)^2
declare input  x
declare exp_output  y
declare weight  w
declare intvar z
declare output  o
declare intvar  diff
declare loss  lambda

define z  =  mul  x  w
define o  =  logistic  z
define diff  =  sub  o  y
define lambda  =  pow  diff  2
