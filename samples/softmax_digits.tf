# Softmax (multinomial logistic) regression on scikit-learn's 8x8 digits:
# 64 pixels in [0, 1], 10 classes, one-hot labels, cross-entropy loss.
declare input x [64]
declare exp_output y [10]
declare weight W [10, 64]
declare weight b [10]
declare intvar t
declare output scores [10]
declare intvar logp
declare intvar fit
declare loss xent

define t = matmul W x
define scores = add t b
define logp = log_softmax scores
define fit = dot logp y
define xent = neg fit
