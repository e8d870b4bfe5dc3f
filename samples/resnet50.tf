# ResNet-50 (He et al., "Deep Residual Learning for Image Recognition", 2016)
# at ImageNet size, as torchvision's resnet50 builds it: a 3x224x224 image, a
# 7x7 stride-2 convolution (64 channels) and a 3x3 stride-2 max-pool, four
# stages of bottleneck blocks (3, 4, 6, 3 blocks; 256, 512, 1024, 2048
# channels out), a global average pool and a dense layer to 1000 classes,
# trained by softmax cross-entropy.  The stride of a stage's first block sits
# on its 3x3 convolution (torchvision's "v1.5").
#
# Every convolution is followed by batch normalisation and has no bias.
# `conv_bn` owns its kernel and its normalisation's scales and shifts
# (declared [C, 1, 1], so they broadcast over the image without a reshape);
# its statistics, the per-channel mean and variance, average over the
# convolution's output image (`sum_like` sums over the axes the scales
# broadcast along; `n` is the output's pixel count H*W) and over the batch
# (`batch_mean`), as in resnet_digits.tf, which reshapes instead.
# Weights: 25 557 032, torchvision's count (tests/commands/test_big_samples.py).
# A training step's memory by batch size, compile and step times:
# docs/guide/performance.md (Speed).
macro conv_bn x Cin Cout k stride pad n -> y
  declare weight K [Cout, Cin, k, k] init he
  declare weight g [Cout, 1, 1] init 1
  declare weight b [Cout, 1, 1]
  declare intvar h
  declare intvar c
  declare intvar s
  define h = conv2d x K stride pad
  define c = sub h (batch_mean (div (sum_like h g) n))
  define s = sqrt (add (batch_mean (div (sum_like (mul c c) g) n)) 1e-5)
  define y = add (mul (div c s) g) b
end

# A bottleneck block's residual branch, Cin channels in, C inside, Cout out:
# 1x1, 3x3 (with the stride), 1x1 convolutions.  `m` and `n` are the pixel
# counts of its input and output.
macro residue x Cin C Cout stride m n -> y
  declare intvar conv1
  declare intvar conv2
  define conv1 = conv_bn x Cin C 1 1 0 m
  define conv2 = conv_bn (relu conv1) C C 3 stride 1 n
  define y = conv_bn (relu conv2) C Cout 1 1 0 n
end

# A bottleneck block keeping its input's C4 channels and n pixels: the
# residual branch plus the input, then relu.
macro bottleneck x C4 C n -> y
  declare intvar branch
  define branch = residue x C4 C C4 1 n n
  define y = relu (add x branch)
end

# A stage's first block: its shortcut is a strided 1x1 convolution with batch
# normalisation (torchvision's `downsample`), to the block's channels and size.
macro bottleneck_down x Cin C Cout stride m n -> y
  declare intvar branch
  declare intvar downsample
  define branch = residue x Cin C Cout stride m n
  define downsample = conv_bn x Cin Cout 1 stride 0 n
  define y = relu (add downsample branch)
end

declare input x [3, 224, 224]
declare exp_output label
declare output scores [1000]
declare output correct
declare loss xent

declare intvar conv1 [64, 112, 112]
declare intvar stem [64, 56, 56]
declare intvar s1 [256, 56, 56]
declare intvar s1b [256, 56, 56]
declare intvar s1c [256, 56, 56]
declare intvar s2 [512, 28, 28]
declare intvar s2b [512, 28, 28]
declare intvar s2c [512, 28, 28]
declare intvar s2d [512, 28, 28]
declare intvar s3 [1024, 14, 14]
declare intvar s3b [1024, 14, 14]
declare intvar s3c [1024, 14, 14]
declare intvar s3d [1024, 14, 14]
declare intvar s3e [1024, 14, 14]
declare intvar s3f [1024, 14, 14]
declare intvar s4 [2048, 7, 7]
declare intvar s4b [2048, 7, 7]
declare intvar s4c [2048, 7, 7]

define conv1 = conv_bn x 3 64 7 2 3 12544
define stem = maxpool2d (relu conv1) 3 2 1
define s1 = bottleneck_down stem 64 64 256 1 3136 3136
define s1b = bottleneck s1 256 64 3136
define s1c = bottleneck s1b 256 64 3136
define s2 = bottleneck_down s1c 256 128 512 2 3136 784
define s2b = bottleneck s2 512 128 784
define s2c = bottleneck s2b 512 128 784
define s2d = bottleneck s2c 512 128 784
define s3 = bottleneck_down s2d 512 256 1024 2 784 196
define s3b = bottleneck s3 1024 256 196
define s3c = bottleneck s3b 1024 256 196
define s3d = bottleneck s3c 1024 256 196
define s3e = bottleneck s3d 1024 256 196
define s3f = bottleneck s3e 1024 256 196
define s4 = bottleneck_down s3f 1024 512 2048 2 196 49
define s4b = bottleneck s4 2048 512 49
define s4c = bottleneck s4b 2048 512 49

declare weight W [1000, 2048]
declare weight bias [1000]
define scores = add (matmul W (flatten (avgpool2d s4c 7))) bias
define xent = neg (dot (log_softmax scores) (one_hot label 1000))
define correct = equal (argmax scores) label
