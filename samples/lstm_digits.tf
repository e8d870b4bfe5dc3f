# An LSTM on the 8x8 digits, read row by row: the cell is a macro whose state
# (h, c) is one [2, 32] tensor, folded over the 8 rows of the image (one line:
# `fold`); the last h is classified.  Gates i, f, g, o are the rows of z.
macro lstm s x W U b -> next
  declare intvar z
  declare intvar c
  define z = add (add (matmul W x) (matmul U (index s 0))) b
  define c = add (mul (logistic (slice z 32 64)) (index s 1)) (mul (logistic (slice z 0 32)) (tanh (slice z 64 96)))
  define next = concat (reshape (mul (logistic (slice z 96 128)) (tanh c)) [1, 32]) (reshape c [1, 32])
end

declare input x [8, 8]
declare exp_output label
declare weight W [128, 8]
declare weight U [128, 32]
declare weight b [128]
declare weight s0 [2, 32]
declare weight V [10, 32]
declare weight c [10]
declare intvar s
declare output scores [10]
declare output correct
declare loss xent

define s = fold lstm s0 x W U b
define scores = add (matmul V (index s 0)) c
define xent = neg (dot (log_softmax scores) (one_hot label 10))
define correct = equal (argmax scores) label
