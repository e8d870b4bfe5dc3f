# A GoogLeNet (inception) block on scikit-learn's 8x8 digits: a padded 3x3
# convolution (8 channels), then the block's four branches side by side -- a
# 1x1 convolution; 1x1 then 3x3; 1x1 then 5x5; a 3x3 stride-1 padded max-pool
# then 1x1 -- concatenated along the channels (8 + 8 + 4 + 4), a 2x2 max-pool
# and a dense layer to 10 classes.
macro conv x K c pad -> y
  define y = relu (add (conv2d x K 1 pad) c)
end

declare input x [8, 8]
declare exp_output label
declare weight K0 [8, 1, 3, 3]
declare weight c0 [8, 1, 1]
declare weight K1 [8, 8, 1, 1]
declare weight c1 [8, 1, 1]
declare weight K2 [8, 8, 1, 1]
declare weight c2 [8, 1, 1]
declare weight K3 [8, 8, 3, 3]
declare weight c3 [8, 1, 1]
declare weight K4 [4, 8, 1, 1]
declare weight c4 [4, 1, 1]
declare weight K5 [4, 4, 5, 5]
declare weight c5 [4, 1, 1]
declare weight K6 [4, 8, 1, 1]
declare weight c6 [4, 1, 1]
declare weight W [10, 384]
declare weight b [10]
declare intvar h [8, 8, 8]
declare intvar one [8, 8, 8]
declare intvar three [8, 8, 8]
declare intvar five [4, 8, 8]
declare intvar pool [4, 8, 8]
declare intvar block [24, 8, 8]
declare output scores [10]
declare output correct
declare loss xent

define h = conv (reshape x [1, 8, 8]) K0 c0 1
define one = conv h K1 c1 0
define three = conv (conv h K2 c2 0) K3 c3 1
define five = conv (conv h K4 c4 0) K5 c5 2
define pool = conv (maxpool2d h 3 1 1) K6 c6 0
define block = concat one three five pool
define scores = add (matmul W (flatten (maxpool2d block 2))) b
define xent = neg (dot (log_softmax scores) (one_hot label 10))
define correct = equal (argmax scores) label
