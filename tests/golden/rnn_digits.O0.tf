declare input x [8, 8]
declare input label
declare weight W [32, 8]
declare weight U [32, 32]
declare weight b [32]
declare weight V [10, 32]
declare weight c [10]
declare intvar h1 [32]
declare intvar h2 [32]
declare intvar h3 [32]
declare intvar h4 [32]
declare intvar h5 [32]
declare intvar h6 [32]
declare intvar h7 [32]
declare intvar h8 [32]
declare intvar scores [10]
declare output correct
declare loss xent
declare intvar h1.1 [8]
declare intvar h1.2 [32]
declare intvar h1.3 [32]
declare intvar h2.1 [8]
declare intvar h2.2 [32]
declare intvar h2.3 [32]
declare intvar h2.4 [32]
declare intvar h2.5 [32]
declare intvar h3.1 [8]
declare intvar h3.2 [32]
declare intvar h3.3 [32]
declare intvar h3.4 [32]
declare intvar h3.5 [32]
declare intvar h4.1 [8]
declare intvar h4.2 [32]
declare intvar h4.3 [32]
declare intvar h4.4 [32]
declare intvar h4.5 [32]
declare intvar h5.1 [8]
declare intvar h5.2 [32]
declare intvar h5.3 [32]
declare intvar h5.4 [32]
declare intvar h5.5 [32]
declare intvar h6.1 [8]
declare intvar h6.2 [32]
declare intvar h6.3 [32]
declare intvar h6.4 [32]
declare intvar h6.5 [32]
declare intvar h7.1 [8]
declare intvar h7.2 [32]
declare intvar h7.3 [32]
declare intvar h7.4 [32]
declare intvar h7.5 [32]
declare intvar h8.1 [8]
declare intvar h8.2 [32]
declare intvar h8.3 [32]
declare intvar h8.4 [32]
declare intvar h8.5 [32]
declare intvar scores.1 [10]
declare intvar xent.1 [10]
declare intvar xent.2 [10]
declare intvar xent.3
declare intvar correct.1
declare intvar d/dcorrect
declare intvar dcorrect/dcorrect.1
declare intvar dcorrect/dlabel
declare intvar d/dcorrect.1
declare intvar d/dxent
declare intvar dxent/dxent.3
declare intvar d/dxent.3
declare intvar dxent.3/dxent.1 [10]
declare intvar dxent.3/dxent.2 [10]
declare intvar d/dxent.2 [10]
declare intvar d/dxent.1 [10]
declare intvar dxent.1/dscores [10]
declare intvar d/dscores.2.1
declare intvar d/dscores.2.2 [10]
declare intvar d/dscores.2 [10]
declare intvar d/dscores.3 [10]
declare intvar d/dscores [10]
declare intvar dscores/dscores.1
declare intvar dscores/dc
declare intvar d/dscores.1 [10]
declare intvar dscores.1/dV [32]
declare intvar dscores.1/dh8 [32, 10]
declare intvar d/dh8 [32]
declare intvar dh8/dh8.5 [32]
declare intvar d/dh8.5 [32]
declare intvar dh8.5/dh8.4
declare intvar dh8.5/db
declare intvar d/dh8.4 [32]
declare intvar dh8.4/dh8.2
declare intvar dh8.4/dh8.3
declare intvar d/dh8.3 [32]
declare intvar dh8.3/dU [32]
declare intvar dh8.3/dh7 [32, 32]
declare intvar d/dh8.2 [32]
declare intvar dh8.2/dW [8]
declare intvar dh8.2/dh8.1 [8, 32]
declare intvar d/dh8.1 [8]
declare intvar d/dh7 [32]
declare intvar dh7/dh7.5 [32]
declare intvar d/dh7.5 [32]
declare intvar dh7.5/dh7.4
declare intvar dh7.5/db
declare intvar d/dh7.4 [32]
declare intvar dh7.4/dh7.2
declare intvar dh7.4/dh7.3
declare intvar d/dh7.3 [32]
declare intvar dh7.3/dU [32]
declare intvar dh7.3/dh6 [32, 32]
declare intvar d/dh7.2 [32]
declare intvar dh7.2/dW [8]
declare intvar dh7.2/dh7.1 [8, 32]
declare intvar d/dh7.1 [8]
declare intvar d/dh6 [32]
declare intvar dh6/dh6.5 [32]
declare intvar d/dh6.5 [32]
declare intvar dh6.5/dh6.4
declare intvar dh6.5/db
declare intvar d/dh6.4 [32]
declare intvar dh6.4/dh6.2
declare intvar dh6.4/dh6.3
declare intvar d/dh6.3 [32]
declare intvar dh6.3/dU [32]
declare intvar dh6.3/dh5 [32, 32]
declare intvar d/dh6.2 [32]
declare intvar dh6.2/dW [8]
declare intvar dh6.2/dh6.1 [8, 32]
declare intvar d/dh6.1 [8]
declare intvar d/dh5 [32]
declare intvar dh5/dh5.5 [32]
declare intvar d/dh5.5 [32]
declare intvar dh5.5/dh5.4
declare intvar dh5.5/db
declare intvar d/dh5.4 [32]
declare intvar dh5.4/dh5.2
declare intvar dh5.4/dh5.3
declare intvar d/dh5.3 [32]
declare intvar dh5.3/dU [32]
declare intvar dh5.3/dh4 [32, 32]
declare intvar d/dh5.2 [32]
declare intvar dh5.2/dW [8]
declare intvar dh5.2/dh5.1 [8, 32]
declare intvar d/dh5.1 [8]
declare intvar d/dh4 [32]
declare intvar dh4/dh4.5 [32]
declare intvar d/dh4.5 [32]
declare intvar dh4.5/dh4.4
declare intvar dh4.5/db
declare intvar d/dh4.4 [32]
declare intvar dh4.4/dh4.2
declare intvar dh4.4/dh4.3
declare intvar d/dh4.3 [32]
declare intvar dh4.3/dU [32]
declare intvar dh4.3/dh3 [32, 32]
declare intvar d/dh4.2 [32]
declare intvar dh4.2/dW [8]
declare intvar dh4.2/dh4.1 [8, 32]
declare intvar d/dh4.1 [8]
declare intvar d/dh3 [32]
declare intvar dh3/dh3.5 [32]
declare intvar d/dh3.5 [32]
declare intvar dh3.5/dh3.4
declare intvar dh3.5/db
declare intvar d/dh3.4 [32]
declare intvar dh3.4/dh3.2
declare intvar dh3.4/dh3.3
declare intvar d/dh3.3 [32]
declare intvar dh3.3/dU [32]
declare intvar dh3.3/dh2 [32, 32]
declare intvar d/dh3.2 [32]
declare intvar dh3.2/dW [8]
declare intvar dh3.2/dh3.1 [8, 32]
declare intvar d/dh3.1 [8]
declare intvar d/dh2 [32]
declare intvar dh2/dh2.5 [32]
declare intvar d/dh2.5 [32]
declare intvar dh2.5/dh2.4
declare intvar dh2.5/db
declare intvar d/dh2.4 [32]
declare intvar dh2.4/dh2.2
declare intvar dh2.4/dh2.3
declare intvar d/dh2.3 [32]
declare intvar dh2.3/dU [32]
declare intvar dh2.3/dh1 [32, 32]
declare intvar d/dh2.2 [32]
declare intvar dh2.2/dW [8]
declare intvar dh2.2/dh2.1 [8, 32]
declare intvar d/dh2.1 [8]
declare intvar d/dh1 [32]
declare intvar dh1/dh1.3 [32]
declare intvar d/dh1.3 [32]
declare intvar dh1.3/dh1.2
declare intvar dh1.3/db
declare intvar d/dh1.2 [32]
declare intvar dh1.2/dW [8]
declare intvar dh1.2/dh1.1 [8, 32]
declare intvar d/dh1.1 [8]
declare output d/dc [10]
declare output d/dV [10, 32]
declare intvar d/db.1 [32]
declare intvar d/db.2 [32]
declare intvar d/db.3 [32]
declare intvar d/db.4 [32]
declare intvar d/db.5 [32]
declare intvar d/db.6 [32]
declare intvar d/db.7 [32]
declare intvar d/db.8 [32]
declare intvar d/db.9 [32]
declare intvar d/db.10 [32]
declare intvar d/db.11 [32]
declare intvar d/db.12 [32]
declare intvar d/db.13 [32]
declare intvar d/db.14 [32]
declare output d/db [32]
declare intvar d/dU.1 [32, 32]
declare intvar d/dU.2 [32, 32]
declare intvar d/dU.3 [32, 32]
declare intvar d/dU.4 [32, 32]
declare intvar d/dU.5 [32, 32]
declare intvar d/dU.6 [32, 32]
declare intvar d/dU.7 [32, 32]
declare intvar d/dU.8 [32, 32]
declare intvar d/dU.9 [32, 32]
declare intvar d/dU.10 [32, 32]
declare intvar d/dU.11 [32, 32]
declare intvar d/dU.12 [32, 32]
declare output d/dU [32, 32]
declare intvar d/dW.1 [32, 8]
declare intvar d/dW.2 [32, 8]
declare intvar d/dW.3 [32, 8]
declare intvar d/dW.4 [32, 8]
declare intvar d/dW.5 [32, 8]
declare intvar d/dW.6 [32, 8]
declare intvar d/dW.7 [32, 8]
declare intvar d/dW.8 [32, 8]
declare intvar d/dW.9 [32, 8]
declare intvar d/dW.10 [32, 8]
declare intvar d/dW.11 [32, 8]
declare intvar d/dW.12 [32, 8]
declare intvar d/dW.13 [32, 8]
declare intvar d/dW.14 [32, 8]
declare output d/dW [32, 8]
declare intvar d/dlabel.1
declare intvar d/dlabel.2
declare intvar d/dlabel
declare intvar d/dx.1.1 [1, 8]
declare intvar d/dx.1 [8, 8]
declare intvar d/dx.2.1 [1, 8]
declare intvar d/dx.2 [8, 8]
declare intvar d/dx.3.1 [1, 8]
declare intvar d/dx.3 [8, 8]
declare intvar d/dx.4.1 [1, 8]
declare intvar d/dx.4 [8, 8]
declare intvar d/dx.5.1 [1, 8]
declare intvar d/dx.5 [8, 8]
declare intvar d/dx.6.1 [1, 8]
declare intvar d/dx.6 [8, 8]
declare intvar d/dx.7.1 [1, 8]
declare intvar d/dx.7 [8, 8]
declare intvar d/dx.8.1 [1, 8]
declare intvar d/dx.8 [8, 8]
declare intvar d/dx.9 [8, 8]
declare intvar d/dx.10 [8, 8]
declare intvar d/dx.11 [8, 8]
declare intvar d/dx.12 [8, 8]
declare intvar d/dx.13 [8, 8]
declare intvar d/dx.14 [8, 8]
declare intvar d/dx [8, 8]

# forward: the shape program
define h1.1 = index x 0
define h1.2 = matmul W h1.1
define h1.3 = add h1.2 b
define h1 = tanh h1.3
define h2.1 = index x 1
define h2.2 = matmul W h2.1
define h2.3 = matmul U h1
define h2.4 = add h2.2 h2.3
define h2.5 = add h2.4 b
define h2 = tanh h2.5
define h3.1 = index x 2
define h3.2 = matmul W h3.1
define h3.3 = matmul U h2
define h3.4 = add h3.2 h3.3
define h3.5 = add h3.4 b
define h3 = tanh h3.5
define h4.1 = index x 3
define h4.2 = matmul W h4.1
define h4.3 = matmul U h3
define h4.4 = add h4.2 h4.3
define h4.5 = add h4.4 b
define h4 = tanh h4.5
define h5.1 = index x 4
define h5.2 = matmul W h5.1
define h5.3 = matmul U h4
define h5.4 = add h5.2 h5.3
define h5.5 = add h5.4 b
define h5 = tanh h5.5
define h6.1 = index x 5
define h6.2 = matmul W h6.1
define h6.3 = matmul U h5
define h6.4 = add h6.2 h6.3
define h6.5 = add h6.4 b
define h6 = tanh h6.5
define h7.1 = index x 6
define h7.2 = matmul W h7.1
define h7.3 = matmul U h6
define h7.4 = add h7.2 h7.3
define h7.5 = add h7.4 b
define h7 = tanh h7.5
define h8.1 = index x 7
define h8.2 = matmul W h8.1
define h8.3 = matmul U h7
define h8.4 = add h8.2 h8.3
define h8.5 = add h8.4 b
define h8 = tanh h8.5
define scores.1 = matmul V h8
define scores = add scores.1 c
define xent.1 = log_softmax scores
define xent.2 = one_hot label 10
define xent.3 = dot xent.1 xent.2
define xent = neg xent.3
define correct.1 = argmax scores
define correct = equal correct.1 label

# backward: adjoints d/dv and local partials dv/dm
# correct = equal correct.1 label
define d/dcorrect = 0
define dcorrect/dcorrect.1 = 0
define dcorrect/dlabel = 0

# correct.1 = argmax scores
define d/dcorrect.1 = mul d/dcorrect dcorrect/dcorrect.1

# xent = neg xent.3
define d/dxent = 1
define dxent/dxent.3 = -1

# xent.3 = dot xent.1 xent.2
define d/dxent.3 = mul d/dxent dxent/dxent.3
define dxent.3/dxent.1 = xent.2
define dxent.3/dxent.2 = xent.1

# xent.2 = one_hot label 10
define d/dxent.2 = mul d/dxent.3 dxent.3/dxent.2

# xent.1 = log_softmax scores
define d/dxent.1 = mul d/dxent.3 dxent.3/dxent.1
define dxent.1/dscores = softmax scores

# scores = add scores.1 c
define d/dscores.2.1 = sum d/dxent.1
define d/dscores.2.2 = mul dxent.1/dscores d/dscores.2.1
define d/dscores.2 = sub d/dxent.1 d/dscores.2.2
define d/dscores.3 = broadcast_like 0 scores
define d/dscores = add d/dscores.2 d/dscores.3
define dscores/dscores.1 = 1
define dscores/dc = 1

# scores.1 = matmul V h8
define d/dscores.1 = mul d/dscores dscores/dscores.1
define dscores.1/dV = h8
define dscores.1/dh8 = transpose V

# h8 = tanh h8.5
define d/dh8 = matmul dscores.1/dh8 d/dscores.1
define dh8/dh8.5 = tanh_deriv h8.5

# h8.5 = add h8.4 b
define d/dh8.5 = mul d/dh8 dh8/dh8.5
define dh8.5/dh8.4 = 1
define dh8.5/db = 1

# h8.4 = add h8.2 h8.3
define d/dh8.4 = mul d/dh8.5 dh8.5/dh8.4
define dh8.4/dh8.2 = 1
define dh8.4/dh8.3 = 1

# h8.3 = matmul U h7
define d/dh8.3 = mul d/dh8.4 dh8.4/dh8.3
define dh8.3/dU = h7
define dh8.3/dh7 = transpose U

# h8.2 = matmul W h8.1
define d/dh8.2 = mul d/dh8.4 dh8.4/dh8.2
define dh8.2/dW = h8.1
define dh8.2/dh8.1 = transpose W

# h8.1 = index x 7
define d/dh8.1 = matmul dh8.2/dh8.1 d/dh8.2

# h7 = tanh h7.5
define d/dh7 = matmul dh8.3/dh7 d/dh8.3
define dh7/dh7.5 = tanh_deriv h7.5

# h7.5 = add h7.4 b
define d/dh7.5 = mul d/dh7 dh7/dh7.5
define dh7.5/dh7.4 = 1
define dh7.5/db = 1

# h7.4 = add h7.2 h7.3
define d/dh7.4 = mul d/dh7.5 dh7.5/dh7.4
define dh7.4/dh7.2 = 1
define dh7.4/dh7.3 = 1

# h7.3 = matmul U h6
define d/dh7.3 = mul d/dh7.4 dh7.4/dh7.3
define dh7.3/dU = h6
define dh7.3/dh6 = transpose U

# h7.2 = matmul W h7.1
define d/dh7.2 = mul d/dh7.4 dh7.4/dh7.2
define dh7.2/dW = h7.1
define dh7.2/dh7.1 = transpose W

# h7.1 = index x 6
define d/dh7.1 = matmul dh7.2/dh7.1 d/dh7.2

# h6 = tanh h6.5
define d/dh6 = matmul dh7.3/dh6 d/dh7.3
define dh6/dh6.5 = tanh_deriv h6.5

# h6.5 = add h6.4 b
define d/dh6.5 = mul d/dh6 dh6/dh6.5
define dh6.5/dh6.4 = 1
define dh6.5/db = 1

# h6.4 = add h6.2 h6.3
define d/dh6.4 = mul d/dh6.5 dh6.5/dh6.4
define dh6.4/dh6.2 = 1
define dh6.4/dh6.3 = 1

# h6.3 = matmul U h5
define d/dh6.3 = mul d/dh6.4 dh6.4/dh6.3
define dh6.3/dU = h5
define dh6.3/dh5 = transpose U

# h6.2 = matmul W h6.1
define d/dh6.2 = mul d/dh6.4 dh6.4/dh6.2
define dh6.2/dW = h6.1
define dh6.2/dh6.1 = transpose W

# h6.1 = index x 5
define d/dh6.1 = matmul dh6.2/dh6.1 d/dh6.2

# h5 = tanh h5.5
define d/dh5 = matmul dh6.3/dh5 d/dh6.3
define dh5/dh5.5 = tanh_deriv h5.5

# h5.5 = add h5.4 b
define d/dh5.5 = mul d/dh5 dh5/dh5.5
define dh5.5/dh5.4 = 1
define dh5.5/db = 1

# h5.4 = add h5.2 h5.3
define d/dh5.4 = mul d/dh5.5 dh5.5/dh5.4
define dh5.4/dh5.2 = 1
define dh5.4/dh5.3 = 1

# h5.3 = matmul U h4
define d/dh5.3 = mul d/dh5.4 dh5.4/dh5.3
define dh5.3/dU = h4
define dh5.3/dh4 = transpose U

# h5.2 = matmul W h5.1
define d/dh5.2 = mul d/dh5.4 dh5.4/dh5.2
define dh5.2/dW = h5.1
define dh5.2/dh5.1 = transpose W

# h5.1 = index x 4
define d/dh5.1 = matmul dh5.2/dh5.1 d/dh5.2

# h4 = tanh h4.5
define d/dh4 = matmul dh5.3/dh4 d/dh5.3
define dh4/dh4.5 = tanh_deriv h4.5

# h4.5 = add h4.4 b
define d/dh4.5 = mul d/dh4 dh4/dh4.5
define dh4.5/dh4.4 = 1
define dh4.5/db = 1

# h4.4 = add h4.2 h4.3
define d/dh4.4 = mul d/dh4.5 dh4.5/dh4.4
define dh4.4/dh4.2 = 1
define dh4.4/dh4.3 = 1

# h4.3 = matmul U h3
define d/dh4.3 = mul d/dh4.4 dh4.4/dh4.3
define dh4.3/dU = h3
define dh4.3/dh3 = transpose U

# h4.2 = matmul W h4.1
define d/dh4.2 = mul d/dh4.4 dh4.4/dh4.2
define dh4.2/dW = h4.1
define dh4.2/dh4.1 = transpose W

# h4.1 = index x 3
define d/dh4.1 = matmul dh4.2/dh4.1 d/dh4.2

# h3 = tanh h3.5
define d/dh3 = matmul dh4.3/dh3 d/dh4.3
define dh3/dh3.5 = tanh_deriv h3.5

# h3.5 = add h3.4 b
define d/dh3.5 = mul d/dh3 dh3/dh3.5
define dh3.5/dh3.4 = 1
define dh3.5/db = 1

# h3.4 = add h3.2 h3.3
define d/dh3.4 = mul d/dh3.5 dh3.5/dh3.4
define dh3.4/dh3.2 = 1
define dh3.4/dh3.3 = 1

# h3.3 = matmul U h2
define d/dh3.3 = mul d/dh3.4 dh3.4/dh3.3
define dh3.3/dU = h2
define dh3.3/dh2 = transpose U

# h3.2 = matmul W h3.1
define d/dh3.2 = mul d/dh3.4 dh3.4/dh3.2
define dh3.2/dW = h3.1
define dh3.2/dh3.1 = transpose W

# h3.1 = index x 2
define d/dh3.1 = matmul dh3.2/dh3.1 d/dh3.2

# h2 = tanh h2.5
define d/dh2 = matmul dh3.3/dh2 d/dh3.3
define dh2/dh2.5 = tanh_deriv h2.5

# h2.5 = add h2.4 b
define d/dh2.5 = mul d/dh2 dh2/dh2.5
define dh2.5/dh2.4 = 1
define dh2.5/db = 1

# h2.4 = add h2.2 h2.3
define d/dh2.4 = mul d/dh2.5 dh2.5/dh2.4
define dh2.4/dh2.2 = 1
define dh2.4/dh2.3 = 1

# h2.3 = matmul U h1
define d/dh2.3 = mul d/dh2.4 dh2.4/dh2.3
define dh2.3/dU = h1
define dh2.3/dh1 = transpose U

# h2.2 = matmul W h2.1
define d/dh2.2 = mul d/dh2.4 dh2.4/dh2.2
define dh2.2/dW = h2.1
define dh2.2/dh2.1 = transpose W

# h2.1 = index x 1
define d/dh2.1 = matmul dh2.2/dh2.1 d/dh2.2

# h1 = tanh h1.3
define d/dh1 = matmul dh2.3/dh1 d/dh2.3
define dh1/dh1.3 = tanh_deriv h1.3

# h1.3 = add h1.2 b
define d/dh1.3 = mul d/dh1 dh1/dh1.3
define dh1.3/dh1.2 = 1
define dh1.3/db = 1

# h1.2 = matmul W h1.1
define d/dh1.2 = mul d/dh1.3 dh1.3/dh1.2
define dh1.2/dW = h1.1
define dh1.2/dh1.1 = transpose W

# h1.1 = index x 0
define d/dh1.1 = matmul dh1.2/dh1.1 d/dh1.2

# weight c
define d/dc = mul d/dscores dscores/dc

# weight V
define d/dV = outer d/dscores.1 dscores.1/dV

# weight b
define d/db.1 = mul d/dh1.3 dh1.3/db
define d/db.2 = mul d/dh2.5 dh2.5/db
define d/db.3 = mul d/dh3.5 dh3.5/db
define d/db.4 = mul d/dh4.5 dh4.5/db
define d/db.5 = mul d/dh5.5 dh5.5/db
define d/db.6 = mul d/dh6.5 dh6.5/db
define d/db.7 = mul d/dh7.5 dh7.5/db
define d/db.8 = mul d/dh8.5 dh8.5/db
define d/db.9 = add d/db.1 d/db.2
define d/db.10 = add d/db.9 d/db.3
define d/db.11 = add d/db.10 d/db.4
define d/db.12 = add d/db.11 d/db.5
define d/db.13 = add d/db.12 d/db.6
define d/db.14 = add d/db.13 d/db.7
define d/db = add d/db.14 d/db.8

# weight U
define d/dU.1 = outer d/dh2.3 dh2.3/dU
define d/dU.2 = outer d/dh3.3 dh3.3/dU
define d/dU.3 = outer d/dh4.3 dh4.3/dU
define d/dU.4 = outer d/dh5.3 dh5.3/dU
define d/dU.5 = outer d/dh6.3 dh6.3/dU
define d/dU.6 = outer d/dh7.3 dh7.3/dU
define d/dU.7 = outer d/dh8.3 dh8.3/dU
define d/dU.8 = add d/dU.1 d/dU.2
define d/dU.9 = add d/dU.8 d/dU.3
define d/dU.10 = add d/dU.9 d/dU.4
define d/dU.11 = add d/dU.10 d/dU.5
define d/dU.12 = add d/dU.11 d/dU.6
define d/dU = add d/dU.12 d/dU.7

# weight W
define d/dW.1 = outer d/dh1.2 dh1.2/dW
define d/dW.2 = outer d/dh2.2 dh2.2/dW
define d/dW.3 = outer d/dh3.2 dh3.2/dW
define d/dW.4 = outer d/dh4.2 dh4.2/dW
define d/dW.5 = outer d/dh5.2 dh5.2/dW
define d/dW.6 = outer d/dh6.2 dh6.2/dW
define d/dW.7 = outer d/dh7.2 dh7.2/dW
define d/dW.8 = outer d/dh8.2 dh8.2/dW
define d/dW.9 = add d/dW.1 d/dW.2
define d/dW.10 = add d/dW.9 d/dW.3
define d/dW.11 = add d/dW.10 d/dW.4
define d/dW.12 = add d/dW.11 d/dW.5
define d/dW.13 = add d/dW.12 d/dW.6
define d/dW.14 = add d/dW.13 d/dW.7
define d/dW = add d/dW.14 d/dW.8

# exp_output label
define d/dlabel.1 = broadcast_like 0 label
define d/dlabel.2 = mul d/dcorrect dcorrect/dlabel
define d/dlabel = add d/dlabel.1 d/dlabel.2

# input x
define d/dx.1.1 = reshape d/dh1.1 [1, 8]
define d/dx.1 = unslice d/dx.1.1 x 0
define d/dx.2.1 = reshape d/dh2.1 [1, 8]
define d/dx.2 = unslice d/dx.2.1 x 1
define d/dx.3.1 = reshape d/dh3.1 [1, 8]
define d/dx.3 = unslice d/dx.3.1 x 2
define d/dx.4.1 = reshape d/dh4.1 [1, 8]
define d/dx.4 = unslice d/dx.4.1 x 3
define d/dx.5.1 = reshape d/dh5.1 [1, 8]
define d/dx.5 = unslice d/dx.5.1 x 4
define d/dx.6.1 = reshape d/dh6.1 [1, 8]
define d/dx.6 = unslice d/dx.6.1 x 5
define d/dx.7.1 = reshape d/dh7.1 [1, 8]
define d/dx.7 = unslice d/dx.7.1 x 6
define d/dx.8.1 = reshape d/dh8.1 [1, 8]
define d/dx.8 = unslice d/dx.8.1 x 7
define d/dx.9 = add d/dx.1 d/dx.2
define d/dx.10 = add d/dx.9 d/dx.3
define d/dx.11 = add d/dx.10 d/dx.4
define d/dx.12 = add d/dx.11 d/dx.5
define d/dx.13 = add d/dx.12 d/dx.6
define d/dx.14 = add d/dx.13 d/dx.7
define d/dx = add d/dx.14 d/dx.8
