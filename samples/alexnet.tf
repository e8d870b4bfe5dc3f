# AlexNet (Krizhevsky, Sutskever and Hinton, "ImageNet Classification with
# Deep Convolutional Neural Networks", 2012) as published, in the layout of
# Caffe's bvlc_alexnet: the two GPUs' towers are convolutions of 2 groups
# (conv2, conv4, conv5), local response normalisation (n 5, alpha 1e-4,
# beta 0.75) after conv1 and conv2, 3x3 stride-2 max-pools that round their
# size up (Caffe's pooling, `ceil` 1), then three dense layers (4096, 4096,
# 1000) with relu and dropout (p = 0.5), trained by softmax cross-entropy.
# The image is 3x224x224 (Caffe crops 227): with ceil pooling the sizes are
# 54, 27, 13 and 6 as there, so the dense layers are the published ones.
# Weights: 60 965 224, bvlc_alexnet's count (tests/commands/test_big_samples.py).
# A training step's memory by batch size, compile and step times:
# docs/guide/performance.md (Speed).
#
# `conv` owns its kernel and bias: Cout filters, each over Cin channels (the
# input's channels divided by `groups`).
macro conv x Cin Cout k stride pad groups -> y
  declare weight K [Cout, Cin, k, k] init he
  declare weight c [Cout, 1, 1]
  define y = relu (add (conv2d x K stride pad groups) c)
end

declare input x [3, 224, 224]
declare exp_output label
declare intvar conv1 [96, 54, 54]
declare intvar conv2 [256, 27, 27]
declare intvar conv3 [384, 13, 13]
declare intvar conv4 [384, 13, 13]
declare intvar conv5 [256, 13, 13]
declare intvar f [9216]
declare intvar fc6 [4096]
declare intvar fc7 [4096]
declare output scores [1000]
declare output correct
declare loss xent

define conv1 = conv x 3 96 11 4 0 1
define conv2 = conv (maxpool2d (lrn conv1 5) 3 2 0 1) 48 256 5 1 2 2
define conv3 = conv (maxpool2d (lrn conv2 5) 3 2 0 1) 256 384 3 1 1 1
define conv4 = conv conv3 192 384 3 1 1 2
define conv5 = conv conv4 192 256 3 1 1 2
define f = flatten (maxpool2d conv5 3 2 0 1)

declare weight W6 [4096, 9216]
declare weight b6 [4096]
declare weight W7 [4096, 4096]
declare weight b7 [4096]
declare weight W8 [1000, 4096]
declare weight b8 [1000]
define fc6 = relu (add (matmul W6 f) b6)
define fc7 = relu (add (matmul W7 (mul fc6 (dropout_mask fc6 0.5))) b7)
define scores = add (matmul W8 (mul fc7 (dropout_mask fc7 0.5))) b8
define xent = neg (dot (log_softmax scores) (one_hot label 1000))
define correct = equal (argmax scores) label
