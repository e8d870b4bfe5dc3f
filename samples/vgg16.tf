# VGG-16 (Simonyan and Zisserman, "Very Deep Convolutional Networks for
# Large-Scale Image Recognition", 2015; configuration D) at ImageNet size, as
# torchvision's vgg16 builds it: a 3x224x224 image, five stacks of padded 3x3
# convolutions with relu (2, 2, 3, 3, 3 of them; 64, 128, 256, 512, 512
# channels), each stack ending in a 2x2 max-pool, then three dense layers
# (4096, 4096, 1000) with relu and dropout (p = 0.5) between them, trained by
# softmax cross-entropy.  Weights: 138 357 544, torchvision's count
# (tests/commands/test_big_samples.py).
# A training step's memory by batch size, compile and step times:
# docs/guide/performance.md (Speed).
#
# `conv3` owns its kernel and bias, as PyTorch's Conv2d(Cin, Cout, 3,
# padding=1) does; the bias is [Cout, 1, 1], so it broadcasts over the image.
macro conv3 x Cin Cout -> y
  declare weight K [Cout, Cin, 3, 3] init he
  declare weight c [Cout, 1, 1]
  define y = relu (add (conv2d x K 1 1) c)
end

declare input x [3, 224, 224]
declare exp_output label
declare intvar c1a [64, 224, 224]
declare intvar c1b [64, 224, 224]
declare intvar c2a [128, 112, 112]
declare intvar c2b [128, 112, 112]
declare intvar c3a [256, 56, 56]
declare intvar c3b [256, 56, 56]
declare intvar c3c [256, 56, 56]
declare intvar c4a [512, 28, 28]
declare intvar c4b [512, 28, 28]
declare intvar c4c [512, 28, 28]
declare intvar c5a [512, 14, 14]
declare intvar c5b [512, 14, 14]
declare intvar c5c [512, 14, 14]
declare intvar f [25088]
declare intvar fc6 [4096]
declare intvar fc7 [4096]
declare output scores [1000]
declare output correct
declare loss xent

define c1a = conv3 x 3 64
define c1b = conv3 c1a 64 64
define c2a = conv3 (maxpool2d c1b 2) 64 128
define c2b = conv3 c2a 128 128
define c3a = conv3 (maxpool2d c2b 2) 128 256
define c3b = conv3 c3a 256 256
define c3c = conv3 c3b 256 256
define c4a = conv3 (maxpool2d c3c 2) 256 512
define c4b = conv3 c4a 512 512
define c4c = conv3 c4b 512 512
define c5a = conv3 (maxpool2d c4c 2) 512 512
define c5b = conv3 c5a 512 512
define c5c = conv3 c5b 512 512
define f = flatten (maxpool2d c5c 2)

declare weight W6 [4096, 25088]
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
