# Self-attention on scikit-learn's 8x8 digits: the 8 rows of an image are 8
# tokens of 8 pixels, embedded in 16 dimensions with a learned position
# embedding; one two-head self-attention block with a residual connection and
# a layer norm (built from axis reductions); the tokens are averaged and
# classified.
declare input x [8, 8]
declare exp_output label
declare weight E [8, 16]
declare weight P [8, 16]
declare weight Wq [16, 16]
declare weight Wk [16, 16]
declare weight Wv [16, 16]
declare weight Wo [16, 16]
declare weight gamma [16]
declare weight beta [16]
declare weight Wc [10, 16]
declare weight bc [10]
declare intvar h [8, 16]
declare intvar q [2, 8, 8]
declare intvar k [2, 8, 8]
declare intvar v [2, 8, 8]
declare intvar attn [2, 8, 8]
declare intvar ctx [8, 16]
declare intvar z [8, 16]
declare intvar centred [8, 16]
declare intvar spread [8, 1]
declare intvar normed [8, 16]
declare output scores [10]
declare output correct
declare loss xent

define h = add (matmul x E) P
define q = permute (reshape (matmul h Wq) [8, 2, 8]) [1, 0, 2]
define k = permute (reshape (matmul h Wk) [8, 2, 8]) [1, 0, 2]
define v = permute (reshape (matmul h Wv) [8, 2, 8]) [1, 0, 2]
define attn = softmax (mul (matmul q (transpose k)) 0.35355339059327373)
define ctx = reshape (permute (matmul attn v) [1, 0, 2]) [8, 16]
define z = add h (matmul ctx Wo)
define centred = sub z (reshape (mean z -1) [8, 1])
define spread = sqrt (add (reshape (mean (mul centred centred) -1) [8, 1]) 1e-5)
define normed = add (mul (div centred spread) gamma) beta
define scores = add (matmul Wc (mean normed 0)) bc
define xent = neg (dot (log_softmax scores) (one_hot label 10))
define correct = equal (argmax scores) label
