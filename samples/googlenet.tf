# GoogLeNet (Szegedy et al., "Going Deeper with Convolutions", 2015) as
# published, in the layout of Caffe's bvlc_googlenet: a 3x224x224 image, a
# 7x7 stride-2 convolution (64), a 3x3 stride-2 max-pool, local response
# normalisation (n 5, alpha 1e-4, beta 0.75), 1x1 (64) and 3x3 (192)
# convolutions, normalisation and a max-pool again, nine inception blocks
# (3a, 3b; 4a-4e; 5a, 5b) with max-pools between the groups, a 7x7 average
# pool, dropout (p = 0.4) and a dense layer to 1000 classes, trained by
# softmax cross-entropy.  Every convolution has a bias and relu; the 3x3
# stride-2 max-pools round their size up (Caffe's pooling, `ceil` 1).
# The two auxiliary classifiers (after 4a and 4d, used in training only) are
# left out.  Weights: 6 998 552, bvlc_googlenet's without them
# (tests/commands/test_big_samples.py).
# A training step's memory by batch size, compile and step times:
# docs/guide/performance.md (Speed).
#
# `conv` owns its kernel and bias, as PyTorch's Conv2d does.
macro conv x Cin Cout k stride pad -> y
  declare weight K [Cout, Cin, k, k] init he
  declare weight c [Cout, 1, 1]
  define y = relu (add (conv2d x K stride pad) c)
end

# An inception block on Cin channels: four branches side by side -- a 1x1
# convolution (c1); 1x1 (r3) then 3x3 (c3); 1x1 (r5) then 5x5 (c5); a 3x3
# stride-1 padded max-pool then 1x1 (cp) -- joined along the channels.
macro inception x Cin c1 r3 c3 r5 c5 cp -> y
  declare intvar b1
  declare intvar r3x3
  declare intvar b3
  declare intvar r5x5
  declare intvar b5
  declare intvar bp
  define b1 = conv x Cin c1 1 1 0
  define r3x3 = conv x Cin r3 1 1 0
  define b3 = conv r3x3 r3 c3 3 1 1
  define r5x5 = conv x Cin r5 1 1 0
  define b5 = conv r5x5 r5 c5 5 1 2
  define bp = conv (maxpool2d x 3 1 1) Cin cp 1 1 0
  define y = concat b1 b3 b5 bp
end

declare input x [3, 224, 224]
declare exp_output label
declare intvar conv1 [64, 112, 112]
declare intvar reduce2 [64, 56, 56]
declare intvar conv2 [192, 56, 56]
declare intvar i3a [256, 28, 28]
declare intvar i3b [480, 28, 28]
declare intvar i4a [512, 14, 14]
declare intvar i4b [512, 14, 14]
declare intvar i4c [512, 14, 14]
declare intvar i4d [528, 14, 14]
declare intvar i4e [832, 14, 14]
declare intvar i5a [832, 7, 7]
declare intvar i5b [1024, 7, 7]
declare intvar f [1024]
declare output scores [1000]
declare output correct
declare loss xent

define conv1 = conv x 3 64 7 2 3
define reduce2 = conv (lrn (maxpool2d conv1 3 2 0 1) 5) 64 64 1 1 0
define conv2 = conv reduce2 64 192 3 1 1
define i3a = inception (maxpool2d (lrn conv2 5) 3 2 0 1) 192 64 96 128 16 32 32
define i3b = inception i3a 256 128 128 192 32 96 64
define i4a = inception (maxpool2d i3b 3 2 0 1) 480 192 96 208 16 48 64
define i4b = inception i4a 512 160 112 224 24 64 64
define i4c = inception i4b 512 128 128 256 24 64 64
define i4d = inception i4c 512 112 144 288 32 64 64
define i4e = inception i4d 528 256 160 320 32 128 128
define i5a = inception (maxpool2d i4e 3 2 0 1) 832 256 160 320 32 128 128
define i5b = inception i5a 832 384 192 384 48 128 128
define f = flatten (avgpool2d i5b 7)

declare weight W [1000, 1024]
declare weight b [1000]
define scores = add (matmul W (mul f (dropout_mask f 0.4))) b
define xent = neg (dot (log_softmax scores) (one_hot label 1000))
define correct = equal (argmax scores) label
