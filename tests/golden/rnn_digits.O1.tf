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
# xent.1 = log_softmax scores
declare intvar d/dxent.1 [10]
declare intvar dxent.1/dscores [10]
define d/dxent.1 = neg xent.2
define dxent.1/dscores = softmax scores

# scores = add scores.1 c
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
define tmp/scores/1 = sum d/dxent.1
define tmp/scores/2 = mul dxent.1/dscores tmp/scores/1
define d/dscores = sub d/dxent.1 tmp/scores/2

# scores.1 = matmul V h8
declare intvar dscores.1/dh8 [32, 10]
define dscores.1/dh8 = transpose V

# h8 = tanh h8.5
declare intvar d/dh8 [32]
declare intvar dh8/dh8.5 [32]
define d/dh8 = matmul dscores.1/dh8 d/dscores
define dh8/dh8.5 = tanh_deriv h8.5

# h8.5 = add h8.4 b
declare intvar d/dh8.5 [32]
define d/dh8.5 = mul d/dh8 dh8/dh8.5

# h8.3 = matmul U h7
declare intvar dh8.3/dh7 [32, 32]
define dh8.3/dh7 = transpose U

# h7 = tanh h7.5
declare intvar d/dh7 [32]
declare intvar dh7/dh7.5 [32]
define d/dh7 = matmul dh8.3/dh7 d/dh8.5
define dh7/dh7.5 = tanh_deriv h7.5

# h7.5 = add h7.4 b
declare intvar d/dh7.5 [32]
define d/dh7.5 = mul d/dh7 dh7/dh7.5

# h6 = tanh h6.5
declare intvar d/dh6 [32]
declare intvar dh6/dh6.5 [32]
define d/dh6 = matmul dh8.3/dh7 d/dh7.5
define dh6/dh6.5 = tanh_deriv h6.5

# h6.5 = add h6.4 b
declare intvar d/dh6.5 [32]
define d/dh6.5 = mul d/dh6 dh6/dh6.5

# h5 = tanh h5.5
declare intvar d/dh5 [32]
declare intvar dh5/dh5.5 [32]
define d/dh5 = matmul dh8.3/dh7 d/dh6.5
define dh5/dh5.5 = tanh_deriv h5.5

# h5.5 = add h5.4 b
declare intvar d/dh5.5 [32]
define d/dh5.5 = mul d/dh5 dh5/dh5.5

# h4 = tanh h4.5
declare intvar d/dh4 [32]
declare intvar dh4/dh4.5 [32]
define d/dh4 = matmul dh8.3/dh7 d/dh5.5
define dh4/dh4.5 = tanh_deriv h4.5

# h4.5 = add h4.4 b
declare intvar d/dh4.5 [32]
define d/dh4.5 = mul d/dh4 dh4/dh4.5

# h3 = tanh h3.5
declare intvar d/dh3 [32]
declare intvar dh3/dh3.5 [32]
define d/dh3 = matmul dh8.3/dh7 d/dh4.5
define dh3/dh3.5 = tanh_deriv h3.5

# h3.5 = add h3.4 b
declare intvar d/dh3.5 [32]
define d/dh3.5 = mul d/dh3 dh3/dh3.5

# h2 = tanh h2.5
declare intvar d/dh2 [32]
declare intvar dh2/dh2.5 [32]
define d/dh2 = matmul dh8.3/dh7 d/dh3.5
define dh2/dh2.5 = tanh_deriv h2.5

# h2.5 = add h2.4 b
declare intvar d/dh2.5 [32]
define d/dh2.5 = mul d/dh2 dh2/dh2.5

# h1 = tanh h1.3
declare intvar d/dh1 [32]
declare intvar dh1/dh1.3 [32]
define d/dh1 = matmul dh8.3/dh7 d/dh2.5
define dh1/dh1.3 = tanh_deriv h1.3

# h1.3 = add h1.2 b
declare intvar d/dh1.3 [32]
define d/dh1.3 = mul d/dh1 dh1/dh1.3

# weight c
declare output d/dc [10]
define d/dc = d/dscores

# weight V
declare output d/dV [10, 32]
define d/dV = outer d/dscores h8

# weight b
declare intvar tmp/b/9 [32]
declare intvar tmp/b/10 [32]
declare intvar tmp/b/11 [32]
declare intvar tmp/b/12 [32]
declare intvar tmp/b/13 [32]
declare intvar tmp/b/14 [32]
declare output d/db [32]
define tmp/b/9 = add d/dh1.3 d/dh2.5
define tmp/b/10 = add tmp/b/9 d/dh3.5
define tmp/b/11 = add tmp/b/10 d/dh4.5
define tmp/b/12 = add tmp/b/11 d/dh5.5
define tmp/b/13 = add tmp/b/12 d/dh6.5
define tmp/b/14 = add tmp/b/13 d/dh7.5
define d/db = add tmp/b/14 d/dh8.5

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
define tmp/U/1 = outer d/dh2.5 h1
define tmp/U/2 = outer d/dh3.5 h2
define tmp/U/3 = outer d/dh4.5 h3
define tmp/U/4 = outer d/dh5.5 h4
define tmp/U/5 = outer d/dh6.5 h5
define tmp/U/6 = outer d/dh7.5 h6
define tmp/U/7 = outer d/dh8.5 h7
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
define tmp/W/1 = outer d/dh1.3 h1.1
define tmp/W/2 = outer d/dh2.5 h2.1
define tmp/W/3 = outer d/dh3.5 h3.1
define tmp/W/4 = outer d/dh4.5 h4.1
define tmp/W/5 = outer d/dh5.5 h5.1
define tmp/W/6 = outer d/dh6.5 h6.1
define tmp/W/7 = outer d/dh7.5 h7.1
define tmp/W/8 = outer d/dh8.5 h8.1
define tmp/W/9 = add tmp/W/1 tmp/W/2
define tmp/W/10 = add tmp/W/9 tmp/W/3
define tmp/W/11 = add tmp/W/10 tmp/W/4
define tmp/W/12 = add tmp/W/11 tmp/W/5
define tmp/W/13 = add tmp/W/12 tmp/W/6
define tmp/W/14 = add tmp/W/13 tmp/W/7
define d/dW = add tmp/W/14 tmp/W/8
