# Linear regression: o = w·x + b with a squared-error loss.
declare input x [3]
declare exp_output y
declare weight w [3]
declare weight b
declare intvar t
declare output o
declare intvar err
declare loss sq

define t = dot w x
define o = add t b
define err = sub o y
define sq = mul err err
