# A one-hidden-layer perceptron on scikit-learn's 8x8 digits:
# 64 pixels -> 32 tanh units -> 10 classes, softmax cross-entropy.
macro dense x W b -> y
  declare intvar t
  define t = matmul W x
  define y = add t b
end

declare input x [64]
declare exp_output y [10]
declare weight W1 [32, 64]
declare weight b1 [32]
declare weight W2 [10, 32]
declare weight b2 [10]
declare intvar h
declare intvar a
declare output scores [10]
declare intvar logp
declare intvar fit
declare loss xent

define h = dense x W1 b1
define a = tanh h
define scores = dense a W2 b2
define logp = log_softmax scores
define fit = dot logp y
define xent = neg fit
