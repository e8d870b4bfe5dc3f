# A VGG-style network on scikit-learn's 8x8 digits: two stacks of two padded
# 3x3 convolutions (8, then 16 channels), each stack ending in a 2x2 max-pool;
# dropout (p = 0.25) before the classifier, a dense layer to 10 classes.
macro conv3 x K c -> y
  define y = relu (add (conv2d x K 1 1) c)
end

declare input x [8, 8]
declare exp_output label
declare weight K1 [8, 1, 3, 3]
declare weight c1 [8, 1, 1]
declare weight K2 [8, 8, 3, 3]
declare weight c2 [8, 1, 1]
declare weight K3 [16, 8, 3, 3]
declare weight c3 [16, 1, 1]
declare weight K4 [16, 16, 3, 3]
declare weight c4 [16, 1, 1]
declare weight W [10, 64]
declare weight b [10]
declare intvar a1 [8, 4, 4]
declare intvar a2 [16, 2, 2]
declare intvar f [64]
declare output scores [10]
declare output correct
declare loss xent

define a1 = maxpool2d (conv3 (conv3 (reshape x [1, 8, 8]) K1 c1) K2 c2) 2
define a2 = maxpool2d (conv3 (conv3 a1 K3 c3) K4 c4) 2
define f = flatten a2
define scores = add (matmul W (mul f (dropout_mask f 0.25))) b
define xent = neg (dot (log_softmax scores) (one_hot label 10))
define correct = equal (argmax scores) label
