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

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# correct = equal correct.1 label
declare intvar d/dcorrect
declare intvar dcorrect/dcorrect.1
declare intvar dcorrect/dlabel
define d/dcorrect = 0
define dcorrect/dcorrect.1 = 0
define dcorrect/dlabel = 0

# correct.1 = argmax scores
declare intvar d/dcorrect.1
define d/dcorrect.1 = mul d/dcorrect dcorrect/dcorrect.1

# xent = neg xent.3
declare intvar d/dxent
declare intvar dxent/dxent.3
define d/dxent = 1
define dxent/dxent.3 = -1

# xent.3 = dot xent.1 xent.2
declare intvar d/dxent.3
declare intvar dxent.3/dxent.1 [10]
declare intvar dxent.3/dxent.2 [10]
define d/dxent.3 = mul d/dxent dxent/dxent.3
define dxent.3/dxent.1 = xent.2
define dxent.3/dxent.2 = xent.1

# xent.2 = one_hot label 10
declare intvar d/dxent.2 [10]
define d/dxent.2 = mul d/dxent.3 dxent.3/dxent.2

# xent.1 = log_softmax scores
declare intvar d/dxent.1 [10]
declare intvar dxent.1/dscores [10]
define d/dxent.1 = mul d/dxent.3 dxent.3/dxent.1
define dxent.1/dscores = softmax scores

# scores = add scores.1 c
declare intvar tmp/scores/2
declare intvar tmp/scores/3 [10]
declare intvar tmp/scores/1 [10]
declare intvar tmp/scores/4 [10]
declare intvar d/dscores [10]
declare intvar dscores/dscores.1
declare intvar dscores/dc
define tmp/scores/2 = sum d/dxent.1
define tmp/scores/3 = mul dxent.1/dscores tmp/scores/2
define tmp/scores/1 = sub d/dxent.1 tmp/scores/3
define tmp/scores/4 = broadcast_like 0 scores
define d/dscores = add tmp/scores/1 tmp/scores/4
define dscores/dscores.1 = 1
define dscores/dc = 1

# scores.1 = matmul V h8
declare intvar d/dscores.1 [10]
declare intvar dscores.1/dV [32]
declare intvar dscores.1/dh8 [32, 10]
define d/dscores.1 = mul d/dscores dscores/dscores.1
define dscores.1/dV = h8
define dscores.1/dh8 = transpose V

# h8 = tanh h8.5
declare intvar d/dh8 [32]
declare intvar dh8/dh8.5 [32]
define d/dh8 = matmul dscores.1/dh8 d/dscores.1
define dh8/dh8.5 = tanh_deriv h8.5

# h8.5 = add h8.4 b
declare intvar d/dh8.5 [32]
declare intvar dh8.5/dh8.4
declare intvar dh8.5/db
define d/dh8.5 = mul d/dh8 dh8/dh8.5
define dh8.5/dh8.4 = 1
define dh8.5/db = 1

# h8.4 = add h8.2 h8.3
declare intvar d/dh8.4 [32]
declare intvar dh8.4/dh8.2
declare intvar dh8.4/dh8.3
define d/dh8.4 = mul d/dh8.5 dh8.5/dh8.4
define dh8.4/dh8.2 = 1
define dh8.4/dh8.3 = 1

# h8.3 = matmul U h7
declare intvar d/dh8.3 [32]
declare intvar dh8.3/dU [32]
declare intvar dh8.3/dh7 [32, 32]
define d/dh8.3 = mul d/dh8.4 dh8.4/dh8.3
define dh8.3/dU = h7
define dh8.3/dh7 = transpose U

# h8.2 = matmul W h8.1
declare intvar d/dh8.2 [32]
declare intvar dh8.2/dW [8]
declare intvar dh8.2/dh8.1 [8, 32]
define d/dh8.2 = mul d/dh8.4 dh8.4/dh8.2
define dh8.2/dW = h8.1
define dh8.2/dh8.1 = transpose W

# h8.1 = index x 7
declare intvar d/dh8.1 [8]
define d/dh8.1 = matmul dh8.2/dh8.1 d/dh8.2

# h7 = tanh h7.5
declare intvar d/dh7 [32]
declare intvar dh7/dh7.5 [32]
define d/dh7 = matmul dh8.3/dh7 d/dh8.3
define dh7/dh7.5 = tanh_deriv h7.5

# h7.5 = add h7.4 b
declare intvar d/dh7.5 [32]
declare intvar dh7.5/dh7.4
declare intvar dh7.5/db
define d/dh7.5 = mul d/dh7 dh7/dh7.5
define dh7.5/dh7.4 = 1
define dh7.5/db = 1

# h7.4 = add h7.2 h7.3
declare intvar d/dh7.4 [32]
declare intvar dh7.4/dh7.2
declare intvar dh7.4/dh7.3
define d/dh7.4 = mul d/dh7.5 dh7.5/dh7.4
define dh7.4/dh7.2 = 1
define dh7.4/dh7.3 = 1

# h7.3 = matmul U h6
declare intvar d/dh7.3 [32]
declare intvar dh7.3/dU [32]
declare intvar dh7.3/dh6 [32, 32]
define d/dh7.3 = mul d/dh7.4 dh7.4/dh7.3
define dh7.3/dU = h6
define dh7.3/dh6 = transpose U

# h7.2 = matmul W h7.1
declare intvar d/dh7.2 [32]
declare intvar dh7.2/dW [8]
declare intvar dh7.2/dh7.1 [8, 32]
define d/dh7.2 = mul d/dh7.4 dh7.4/dh7.2
define dh7.2/dW = h7.1
define dh7.2/dh7.1 = transpose W

# h7.1 = index x 6
declare intvar d/dh7.1 [8]
define d/dh7.1 = matmul dh7.2/dh7.1 d/dh7.2

# h6 = tanh h6.5
declare intvar d/dh6 [32]
declare intvar dh6/dh6.5 [32]
define d/dh6 = matmul dh7.3/dh6 d/dh7.3
define dh6/dh6.5 = tanh_deriv h6.5

# h6.5 = add h6.4 b
declare intvar d/dh6.5 [32]
declare intvar dh6.5/dh6.4
declare intvar dh6.5/db
define d/dh6.5 = mul d/dh6 dh6/dh6.5
define dh6.5/dh6.4 = 1
define dh6.5/db = 1

# h6.4 = add h6.2 h6.3
declare intvar d/dh6.4 [32]
declare intvar dh6.4/dh6.2
declare intvar dh6.4/dh6.3
define d/dh6.4 = mul d/dh6.5 dh6.5/dh6.4
define dh6.4/dh6.2 = 1
define dh6.4/dh6.3 = 1

# h6.3 = matmul U h5
declare intvar d/dh6.3 [32]
declare intvar dh6.3/dU [32]
declare intvar dh6.3/dh5 [32, 32]
define d/dh6.3 = mul d/dh6.4 dh6.4/dh6.3
define dh6.3/dU = h5
define dh6.3/dh5 = transpose U

# h6.2 = matmul W h6.1
declare intvar d/dh6.2 [32]
declare intvar dh6.2/dW [8]
declare intvar dh6.2/dh6.1 [8, 32]
define d/dh6.2 = mul d/dh6.4 dh6.4/dh6.2
define dh6.2/dW = h6.1
define dh6.2/dh6.1 = transpose W

# h6.1 = index x 5
declare intvar d/dh6.1 [8]
define d/dh6.1 = matmul dh6.2/dh6.1 d/dh6.2

# h5 = tanh h5.5
declare intvar d/dh5 [32]
declare intvar dh5/dh5.5 [32]
define d/dh5 = matmul dh6.3/dh5 d/dh6.3
define dh5/dh5.5 = tanh_deriv h5.5

# h5.5 = add h5.4 b
declare intvar d/dh5.5 [32]
declare intvar dh5.5/dh5.4
declare intvar dh5.5/db
define d/dh5.5 = mul d/dh5 dh5/dh5.5
define dh5.5/dh5.4 = 1
define dh5.5/db = 1

# h5.4 = add h5.2 h5.3
declare intvar d/dh5.4 [32]
declare intvar dh5.4/dh5.2
declare intvar dh5.4/dh5.3
define d/dh5.4 = mul d/dh5.5 dh5.5/dh5.4
define dh5.4/dh5.2 = 1
define dh5.4/dh5.3 = 1

# h5.3 = matmul U h4
declare intvar d/dh5.3 [32]
declare intvar dh5.3/dU [32]
declare intvar dh5.3/dh4 [32, 32]
define d/dh5.3 = mul d/dh5.4 dh5.4/dh5.3
define dh5.3/dU = h4
define dh5.3/dh4 = transpose U

# h5.2 = matmul W h5.1
declare intvar d/dh5.2 [32]
declare intvar dh5.2/dW [8]
declare intvar dh5.2/dh5.1 [8, 32]
define d/dh5.2 = mul d/dh5.4 dh5.4/dh5.2
define dh5.2/dW = h5.1
define dh5.2/dh5.1 = transpose W

# h5.1 = index x 4
declare intvar d/dh5.1 [8]
define d/dh5.1 = matmul dh5.2/dh5.1 d/dh5.2

# h4 = tanh h4.5
declare intvar d/dh4 [32]
declare intvar dh4/dh4.5 [32]
define d/dh4 = matmul dh5.3/dh4 d/dh5.3
define dh4/dh4.5 = tanh_deriv h4.5

# h4.5 = add h4.4 b
declare intvar d/dh4.5 [32]
declare intvar dh4.5/dh4.4
declare intvar dh4.5/db
define d/dh4.5 = mul d/dh4 dh4/dh4.5
define dh4.5/dh4.4 = 1
define dh4.5/db = 1

# h4.4 = add h4.2 h4.3
declare intvar d/dh4.4 [32]
declare intvar dh4.4/dh4.2
declare intvar dh4.4/dh4.3
define d/dh4.4 = mul d/dh4.5 dh4.5/dh4.4
define dh4.4/dh4.2 = 1
define dh4.4/dh4.3 = 1

# h4.3 = matmul U h3
declare intvar d/dh4.3 [32]
declare intvar dh4.3/dU [32]
declare intvar dh4.3/dh3 [32, 32]
define d/dh4.3 = mul d/dh4.4 dh4.4/dh4.3
define dh4.3/dU = h3
define dh4.3/dh3 = transpose U

# h4.2 = matmul W h4.1
declare intvar d/dh4.2 [32]
declare intvar dh4.2/dW [8]
declare intvar dh4.2/dh4.1 [8, 32]
define d/dh4.2 = mul d/dh4.4 dh4.4/dh4.2
define dh4.2/dW = h4.1
define dh4.2/dh4.1 = transpose W

# h4.1 = index x 3
declare intvar d/dh4.1 [8]
define d/dh4.1 = matmul dh4.2/dh4.1 d/dh4.2

# h3 = tanh h3.5
declare intvar d/dh3 [32]
declare intvar dh3/dh3.5 [32]
define d/dh3 = matmul dh4.3/dh3 d/dh4.3
define dh3/dh3.5 = tanh_deriv h3.5

# h3.5 = add h3.4 b
declare intvar d/dh3.5 [32]
declare intvar dh3.5/dh3.4
declare intvar dh3.5/db
define d/dh3.5 = mul d/dh3 dh3/dh3.5
define dh3.5/dh3.4 = 1
define dh3.5/db = 1

# h3.4 = add h3.2 h3.3
declare intvar d/dh3.4 [32]
declare intvar dh3.4/dh3.2
declare intvar dh3.4/dh3.3
define d/dh3.4 = mul d/dh3.5 dh3.5/dh3.4
define dh3.4/dh3.2 = 1
define dh3.4/dh3.3 = 1

# h3.3 = matmul U h2
declare intvar d/dh3.3 [32]
declare intvar dh3.3/dU [32]
declare intvar dh3.3/dh2 [32, 32]
define d/dh3.3 = mul d/dh3.4 dh3.4/dh3.3
define dh3.3/dU = h2
define dh3.3/dh2 = transpose U

# h3.2 = matmul W h3.1
declare intvar d/dh3.2 [32]
declare intvar dh3.2/dW [8]
declare intvar dh3.2/dh3.1 [8, 32]
define d/dh3.2 = mul d/dh3.4 dh3.4/dh3.2
define dh3.2/dW = h3.1
define dh3.2/dh3.1 = transpose W

# h3.1 = index x 2
declare intvar d/dh3.1 [8]
define d/dh3.1 = matmul dh3.2/dh3.1 d/dh3.2

# h2 = tanh h2.5
declare intvar d/dh2 [32]
declare intvar dh2/dh2.5 [32]
define d/dh2 = matmul dh3.3/dh2 d/dh3.3
define dh2/dh2.5 = tanh_deriv h2.5

# h2.5 = add h2.4 b
declare intvar d/dh2.5 [32]
declare intvar dh2.5/dh2.4
declare intvar dh2.5/db
define d/dh2.5 = mul d/dh2 dh2/dh2.5
define dh2.5/dh2.4 = 1
define dh2.5/db = 1

# h2.4 = add h2.2 h2.3
declare intvar d/dh2.4 [32]
declare intvar dh2.4/dh2.2
declare intvar dh2.4/dh2.3
define d/dh2.4 = mul d/dh2.5 dh2.5/dh2.4
define dh2.4/dh2.2 = 1
define dh2.4/dh2.3 = 1

# h2.3 = matmul U h1
declare intvar d/dh2.3 [32]
declare intvar dh2.3/dU [32]
declare intvar dh2.3/dh1 [32, 32]
define d/dh2.3 = mul d/dh2.4 dh2.4/dh2.3
define dh2.3/dU = h1
define dh2.3/dh1 = transpose U

# h2.2 = matmul W h2.1
declare intvar d/dh2.2 [32]
declare intvar dh2.2/dW [8]
declare intvar dh2.2/dh2.1 [8, 32]
define d/dh2.2 = mul d/dh2.4 dh2.4/dh2.2
define dh2.2/dW = h2.1
define dh2.2/dh2.1 = transpose W

# h2.1 = index x 1
declare intvar d/dh2.1 [8]
define d/dh2.1 = matmul dh2.2/dh2.1 d/dh2.2

# h1 = tanh h1.3
declare intvar d/dh1 [32]
declare intvar dh1/dh1.3 [32]
define d/dh1 = matmul dh2.3/dh1 d/dh2.3
define dh1/dh1.3 = tanh_deriv h1.3

# h1.3 = add h1.2 b
declare intvar d/dh1.3 [32]
declare intvar dh1.3/dh1.2
declare intvar dh1.3/db
define d/dh1.3 = mul d/dh1 dh1/dh1.3
define dh1.3/dh1.2 = 1
define dh1.3/db = 1

# h1.2 = matmul W h1.1
declare intvar d/dh1.2 [32]
declare intvar dh1.2/dW [8]
declare intvar dh1.2/dh1.1 [8, 32]
define d/dh1.2 = mul d/dh1.3 dh1.3/dh1.2
define dh1.2/dW = h1.1
define dh1.2/dh1.1 = transpose W

# h1.1 = index x 0
declare intvar d/dh1.1 [8]
define d/dh1.1 = matmul dh1.2/dh1.1 d/dh1.2

# weight c
declare output d/dc [10]
define d/dc = mul d/dscores dscores/dc

# weight V
declare output d/dV [10, 32]
define d/dV = outer d/dscores.1 dscores.1/dV

# weight b
declare intvar tmp/b/1 [32]
declare intvar tmp/b/2 [32]
declare intvar tmp/b/3 [32]
declare intvar tmp/b/4 [32]
declare intvar tmp/b/5 [32]
declare intvar tmp/b/6 [32]
declare intvar tmp/b/7 [32]
declare intvar tmp/b/8 [32]
declare intvar tmp/b/9 [32]
declare intvar tmp/b/10 [32]
declare intvar tmp/b/11 [32]
declare intvar tmp/b/12 [32]
declare intvar tmp/b/13 [32]
declare intvar tmp/b/14 [32]
declare output d/db [32]
define tmp/b/1 = mul d/dh1.3 dh1.3/db
define tmp/b/2 = mul d/dh2.5 dh2.5/db
define tmp/b/3 = mul d/dh3.5 dh3.5/db
define tmp/b/4 = mul d/dh4.5 dh4.5/db
define tmp/b/5 = mul d/dh5.5 dh5.5/db
define tmp/b/6 = mul d/dh6.5 dh6.5/db
define tmp/b/7 = mul d/dh7.5 dh7.5/db
define tmp/b/8 = mul d/dh8.5 dh8.5/db
define tmp/b/9 = add tmp/b/1 tmp/b/2
define tmp/b/10 = add tmp/b/9 tmp/b/3
define tmp/b/11 = add tmp/b/10 tmp/b/4
define tmp/b/12 = add tmp/b/11 tmp/b/5
define tmp/b/13 = add tmp/b/12 tmp/b/6
define tmp/b/14 = add tmp/b/13 tmp/b/7
define d/db = add tmp/b/14 tmp/b/8

# weight U
declare intvar tmp/U/1 [32, 32]
declare intvar tmp/U/2 [32, 32]
declare intvar tmp/U/3 [32, 32]
declare intvar tmp/U/4 [32, 32]
declare intvar tmp/U/5 [32, 32]
declare intvar tmp/U/6 [32, 32]
declare intvar tmp/U/7 [32, 32]
declare intvar tmp/U/8 [32, 32]
declare intvar tmp/U/9 [32, 32]
declare intvar tmp/U/10 [32, 32]
declare intvar tmp/U/11 [32, 32]
declare intvar tmp/U/12 [32, 32]
declare output d/dU [32, 32]
define tmp/U/1 = outer d/dh2.3 dh2.3/dU
define tmp/U/2 = outer d/dh3.3 dh3.3/dU
define tmp/U/3 = outer d/dh4.3 dh4.3/dU
define tmp/U/4 = outer d/dh5.3 dh5.3/dU
define tmp/U/5 = outer d/dh6.3 dh6.3/dU
define tmp/U/6 = outer d/dh7.3 dh7.3/dU
define tmp/U/7 = outer d/dh8.3 dh8.3/dU
define tmp/U/8 = add tmp/U/1 tmp/U/2
define tmp/U/9 = add tmp/U/8 tmp/U/3
define tmp/U/10 = add tmp/U/9 tmp/U/4
define tmp/U/11 = add tmp/U/10 tmp/U/5
define tmp/U/12 = add tmp/U/11 tmp/U/6
define d/dU = add tmp/U/12 tmp/U/7

# weight W
declare intvar tmp/W/1 [32, 8]
declare intvar tmp/W/2 [32, 8]
declare intvar tmp/W/3 [32, 8]
declare intvar tmp/W/4 [32, 8]
declare intvar tmp/W/5 [32, 8]
declare intvar tmp/W/6 [32, 8]
declare intvar tmp/W/7 [32, 8]
declare intvar tmp/W/8 [32, 8]
declare intvar tmp/W/9 [32, 8]
declare intvar tmp/W/10 [32, 8]
declare intvar tmp/W/11 [32, 8]
declare intvar tmp/W/12 [32, 8]
declare intvar tmp/W/13 [32, 8]
declare intvar tmp/W/14 [32, 8]
declare output d/dW [32, 8]
define tmp/W/1 = outer d/dh1.2 dh1.2/dW
define tmp/W/2 = outer d/dh2.2 dh2.2/dW
define tmp/W/3 = outer d/dh3.2 dh3.2/dW
define tmp/W/4 = outer d/dh4.2 dh4.2/dW
define tmp/W/5 = outer d/dh5.2 dh5.2/dW
define tmp/W/6 = outer d/dh6.2 dh6.2/dW
define tmp/W/7 = outer d/dh7.2 dh7.2/dW
define tmp/W/8 = outer d/dh8.2 dh8.2/dW
define tmp/W/9 = add tmp/W/1 tmp/W/2
define tmp/W/10 = add tmp/W/9 tmp/W/3
define tmp/W/11 = add tmp/W/10 tmp/W/4
define tmp/W/12 = add tmp/W/11 tmp/W/5
define tmp/W/13 = add tmp/W/12 tmp/W/6
define tmp/W/14 = add tmp/W/13 tmp/W/7
define d/dW = add tmp/W/14 tmp/W/8

# exp_output label
declare intvar tmp/label/1
declare intvar tmp/label/2
declare intvar d/dlabel
define tmp/label/1 = broadcast_like 0 label
define tmp/label/2 = mul d/dcorrect dcorrect/dlabel
define d/dlabel = add tmp/label/1 tmp/label/2

# input x
declare intvar tmp/x/2 [1, 8]
declare intvar tmp/x/1 [8, 8]
declare intvar tmp/x/4 [1, 8]
declare intvar tmp/x/3 [8, 8]
declare intvar tmp/x/6 [1, 8]
declare intvar tmp/x/5 [8, 8]
declare intvar tmp/x/8 [1, 8]
declare intvar tmp/x/7 [8, 8]
declare intvar tmp/x/10 [1, 8]
declare intvar tmp/x/9 [8, 8]
declare intvar tmp/x/12 [1, 8]
declare intvar tmp/x/11 [8, 8]
declare intvar tmp/x/14 [1, 8]
declare intvar tmp/x/13 [8, 8]
declare intvar tmp/x/16 [1, 8]
declare intvar tmp/x/15 [8, 8]
declare intvar tmp/x/17 [8, 8]
declare intvar tmp/x/18 [8, 8]
declare intvar tmp/x/19 [8, 8]
declare intvar tmp/x/20 [8, 8]
declare intvar tmp/x/21 [8, 8]
declare intvar tmp/x/22 [8, 8]
declare intvar d/dx [8, 8]
define tmp/x/2 = reshape d/dh1.1 [1, 8]
define tmp/x/1 = unslice tmp/x/2 x 0
define tmp/x/4 = reshape d/dh2.1 [1, 8]
define tmp/x/3 = unslice tmp/x/4 x 1
define tmp/x/6 = reshape d/dh3.1 [1, 8]
define tmp/x/5 = unslice tmp/x/6 x 2
define tmp/x/8 = reshape d/dh4.1 [1, 8]
define tmp/x/7 = unslice tmp/x/8 x 3
define tmp/x/10 = reshape d/dh5.1 [1, 8]
define tmp/x/9 = unslice tmp/x/10 x 4
define tmp/x/12 = reshape d/dh6.1 [1, 8]
define tmp/x/11 = unslice tmp/x/12 x 5
define tmp/x/14 = reshape d/dh7.1 [1, 8]
define tmp/x/13 = unslice tmp/x/14 x 6
define tmp/x/16 = reshape d/dh8.1 [1, 8]
define tmp/x/15 = unslice tmp/x/16 x 7
define tmp/x/17 = add tmp/x/1 tmp/x/3
define tmp/x/18 = add tmp/x/17 tmp/x/5
define tmp/x/19 = add tmp/x/18 tmp/x/7
define tmp/x/20 = add tmp/x/19 tmp/x/9
define tmp/x/21 = add tmp/x/20 tmp/x/11
define tmp/x/22 = add tmp/x/21 tmp/x/13
define d/dx = add tmp/x/22 tmp/x/15
