# A recurrent network on scikit-learn's 8x8 digits: the image is read row by
# row, a sequence of 8 vectors of 8 pixels, by one tanh cell whose weights are
# shared across the time steps (a macro, unrolled); the last state is classified.
macro cell x h W U b -> next
  define next = tanh (add (add (matmul W x) (matmul U h)) b)
end

declare input x [8, 8]
declare exp_output label
declare weight W [32, 8]
declare weight U [32, 32]
declare weight b [32]
declare weight V [10, 32]
declare weight c [10]
declare intvar h1
declare intvar h2
declare intvar h3
declare intvar h4
declare intvar h5
declare intvar h6
declare intvar h7
declare intvar h8
declare output scores [10]
declare output correct
declare loss xent

define h1 = tanh (add (matmul W (index x 0)) b)
define h2 = cell (index x 1) h1 W U b
define h3 = cell (index x 2) h2 W U b
define h4 = cell (index x 3) h3 W U b
define h5 = cell (index x 4) h4 W U b
define h6 = cell (index x 5) h5 W U b
define h7 = cell (index x 6) h6 W U b
define h8 = cell (index x 7) h7 W U b
define scores = add (matmul V h8) c
define xent = neg (dot (log_softmax scores) (one_hot label 10))
define correct = equal (argmax scores) label
