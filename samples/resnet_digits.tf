# A small ResNet on scikit-learn's 8x8 digits: a 3x3 convolution (16 channels)
# with batch normalisation, a residual block at 8x8, a 2x2 max-pool, a residual
# block at 4x4, a global average pool and a dense layer to 10 classes.  A
# residual block is conv-BN-relu-conv-BN, plus its input, then relu.
#
# Batch normalisation per channel: the batch statistics (`batch_mean`) of the
# channel's mean and mean square over the image; in evaluation tfevaluate uses
# their population values, written by tfweightcalc after the weights.  The
# scales start at 1 (`init 1`), as PyTorch's BatchNorm2d does.
macro batchnorm2d x gamma beta -> y
  declare intvar c
  declare intvar s
  define c = sub x (reshape (batch_mean (mean (mean x 2) 1)) [16, 1, 1])
  define s = sqrt (add (reshape (batch_mean (mean (mean (mul c c) 2) 1)) [16, 1, 1]) 1e-5)
  define y = add (mul (div c s) (reshape gamma [16, 1, 1])) (reshape beta [16, 1, 1])
end

# A residual block owns its weights: each call declares its own two kernels
# and two pairs of scales and shifts, named after the call (`h1.K1`, `h2.g2`).
macro residual x -> y
  declare weight K1 [16, 16, 3, 3]
  declare weight g1 [16] init 1
  declare weight b1 [16]
  declare weight K2 [16, 16, 3, 3]
  declare weight g2 [16] init 1
  declare weight b2 [16]
  declare intvar h
  define h = relu (batchnorm2d (conv2d x K1 1 1) g1 b1)
  define y = relu (add x (batchnorm2d (conv2d h K2 1 1) g2 b2))
end

declare input x [8, 8]
declare exp_output label
declare weight K0 [16, 1, 3, 3]
declare weight g0 [16] init 1
declare weight b0 [16]
declare intvar h0 [16, 8, 8]
declare intvar h1 [16, 8, 8]
declare intvar h2 [16, 4, 4]
declare output scores [10]
declare output correct
declare loss xent

# The weights are declared in the order the network uses them (random initial
# values are drawn in declaration order): the stem's, each block's at its call,
# then the dense layer's.
define h0 = relu (batchnorm2d (conv2d (reshape x [1, 8, 8]) K0 1 1) g0 b0)
define h1 = residual h0
define h2 = residual (maxpool2d h1 2)

declare weight W [10, 16]
declare weight b [10]
define scores = add (matmul W (flatten (avgpool2d h2 4))) b
define xent = neg (dot (log_softmax scores) (one_hot label 10))
define correct = equal (argmax scores) label
