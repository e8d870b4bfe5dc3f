# A LeNet-style convolutional network on scikit-learn's 8x8 digits:
# conv 3x3 (16) -> relu -> max-pool 2 -> conv 3x3 (32) -> relu -> max-pool 2
# -> flatten -> dense to 10 classes; labels are class indices.
declare input x [8, 8]
declare exp_output label
declare weight K1 [16, 1, 3, 3]
declare weight c1 [16, 1, 1]
declare weight K2 [32, 16, 3, 3]
declare weight c2 [32, 1, 1]
declare weight W [10, 128]
declare weight b [10]
declare intvar a1 [16, 4, 4]
declare intvar a2 [32, 2, 2]
declare output scores [10]
declare output correct
declare loss xent

define a1 = maxpool2d (relu (add (conv2d (reshape x [1, 8, 8]) K1 1 1) c1)) 2
define a2 = maxpool2d (relu (add (conv2d a1 K2 1 1) c2)) 2
define scores = add (matmul W (flatten a2)) b
define xent = neg (dot (log_softmax scores) (one_hot label 10))
define correct = equal (argmax scores) label
