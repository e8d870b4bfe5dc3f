macro gru h x W U b -> hn
  declare intvar a
  declare intvar u
  declare intvar r
  declare intvar z
  declare intvar a.1

  define a.1 = matmul W x
  define a = add a.1 b
  define u = matmul U h

  declare intvar r.1
  declare intvar r.2
  declare intvar r.3

  define r.1 = slice a 0 64
  define r.2 = slice u 0 64
  define r.3 = add r.1 r.2
  define r = logistic r.3

  declare intvar z.1
  declare intvar z.2
  declare intvar z.3

  define z.1 = slice a 64 128
  define z.2 = slice u 64 128
  define z.3 = add z.1 z.2
  define z = logistic z.3

  declare intvar hn.1
  declare intvar hn.2
  declare intvar hn.3
  declare intvar hn.4
  declare intvar hn.5
  declare intvar hn.6
  declare intvar hn.7
  declare intvar hn.8

  define hn.1 = mul z h
  define hn.2 = sub 1 z
  define hn.3 = slice a 128 192
  define hn.4 = slice u 128 192
  define hn.5 = mul r hn.4
  define hn.6 = add hn.3 hn.5
  define hn.7 = tanh hn.6
  define hn.8 = mul hn.2 hn.7
  define hn = add hn.1 hn.8
end

macro adjoint/gru h x W U b d/dhn -> d/dh, d/dx, d/dW, d/dU, d/db
  declare intvar a.1
  declare intvar a
  declare intvar u
  declare intvar r.1
  declare intvar r.2
  declare intvar r.3
  declare intvar r
  declare intvar z.1
  declare intvar z.2
  declare intvar z.3
  declare intvar z
  declare intvar hn.2
  declare intvar hn.3
  declare intvar hn.4
  declare intvar hn.5
  declare intvar hn.6
  declare intvar hn.7
  declare intvar d/dhn.7
  declare intvar dhn.7/dhn.6
  declare intvar d/dhn.6
  declare intvar d/dhn.4
  declare intvar d/dhn.2
  declare intvar tmp/z/1
  declare intvar tmp/z/2
  declare intvar d/dz
  declare intvar dz/dz.3
  declare intvar d/dz.3
  declare intvar d/dr
  declare intvar dr/dr.3
  declare intvar d/dr.3
  declare intvar d/du
  declare intvar du/dh
  declare intvar d/da
  declare intvar da.1/dx
  declare intvar tmp/h/1
  declare intvar tmp/h/2

  define a.1 = matmul W x
  define a = add a.1 b
  define u = matmul U h
  define r.1 = slice a 0 64
  define r.2 = slice u 0 64
  define r.3 = add r.1 r.2
  define r = logistic r.3
  define z.1 = slice a 64 128
  define z.2 = slice u 64 128
  define z.3 = add z.1 z.2
  define z = logistic z.3
  define hn.2 = sub 1 z
  define hn.3 = slice a 128 192
  define hn.4 = slice u 128 192
  define hn.5 = mul r hn.4
  define hn.6 = add hn.3 hn.5
  define hn.7 = tanh hn.6

  # hn.7 = tanh hn.6
  define d/dhn.7 = mul d/dhn hn.2
  define dhn.7/dhn.6 = tanh_deriv hn.6

  # hn.6 = add hn.3 hn.5
  define d/dhn.6 = mul d/dhn.7 dhn.7/dhn.6

  # hn.4 = slice u 128 192
  define d/dhn.4 = mul d/dhn.6 r

  # hn.2 = sub 1 z
  define d/dhn.2 = mul d/dhn hn.7

  # z = logistic z.3
  define tmp/z/1 = mul d/dhn h
  define tmp/z/2 = neg d/dhn.2
  define d/dz = add tmp/z/1 tmp/z/2
  define dz/dz.3 = logistic_deriv z.3

  # z.3 = add z.1 z.2
  define d/dz.3 = mul d/dz dz/dz.3

  # r = logistic r.3
  define d/dr = mul d/dhn.6 hn.4
  define dr/dr.3 = logistic_deriv r.3

  # r.3 = add r.1 r.2
  define d/dr.3 = mul d/dr dr/dr.3

  # u = matmul U h
  define d/du = concat d/dr.3 d/dz.3 d/dhn.4
  define du/dh = transpose U

  # a = add a.1 b
  define d/da = concat d/dr.3 d/dz.3 d/dhn.6

  # a.1 = matmul W x
  define da.1/dx = transpose W

  # parameter b
  define d/db = d/da

  # parameter U
  define d/dU = outer d/du h

  # parameter W
  define d/dW = outer d/da x

  # parameter x
  define d/dx = matmul da.1/dx d/da

  # parameter h
  define tmp/h/1 = matmul du/dh d/du
  define tmp/h/2 = mul d/dhn z
  define d/dh = add tmp/h/1 tmp/h/2
end

declare input chars [17]
declare weight E [32, 16]
declare weight W [192, 16]
declare weight U [192, 64]
declare weight b [192]
declare weight h0 [64]
declare weight V [32, 64]
declare weight c [32]
declare intvar h [64]
declare intvar logp [32]
declare output bits
declare loss xent
declare intvar h.1 [16]
declare intvar h.2 [16, 16]
declare intvar h.states [16, 64]
declare intvar logp.1 [32]
declare intvar logp.2 [32]
declare intvar xent.1
declare intvar xent.2 [32]
declare intvar xent.3

# forward: the shape program
define h.1 = slice chars 0 16
define h.2 = take E h.1
define h.states = scan gru h0 h.2 W U b
define h = index h.states 15
define logp.1 = matmul V h
define logp.2 = add logp.1 c
define logp = log_softmax logp.2
define xent.1 = index chars 16
define xent.2 = one_hot xent.1 32
define xent.3 = dot logp xent.2
define xent = neg xent.3
define bits = div xent 0.6931471805599453

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# logp = log_softmax logp.2
declare intvar d/dlogp [32]
declare intvar dlogp/dlogp.2 [32]
define d/dlogp = neg xent.2
define dlogp/dlogp.2 = softmax logp.2

# logp.2 = add logp.1 c
declare intvar tmp/logp.2/1
declare intvar tmp/logp.2/2 [32]
declare intvar d/dlogp.2 [32]
define tmp/logp.2/1 = sum d/dlogp
define tmp/logp.2/2 = mul dlogp/dlogp.2 tmp/logp.2/1
define d/dlogp.2 = sub d/dlogp tmp/logp.2/2

# logp.1 = matmul V h
declare intvar dlogp.1/dh [64, 32]
define dlogp.1/dh = transpose V

# h = index h.states 15
declare intvar d/dh [64]
define d/dh = matmul dlogp.1/dh d/dlogp.2

# h.states = scan gru h0 h.2 W U b
declare intvar tmp/h.states/1 [1, 64]
declare intvar d/dh.states [16, 64]
declare intvar tmp/h.states/2 [64]
declare intvar tmp/h.states/3 [16, 16]
declare intvar tmp/h.states/4 [192, 16]
declare intvar tmp/h.states/5 [192, 64]
declare intvar tmp/h.states/6 [192]
define tmp/h.states/1 = reshape d/dh [1, 64]
define d/dh.states = unslice tmp/h.states/1 h.states 15
define tmp/h.states/2, tmp/h.states/3, tmp/h.states/4, tmp/h.states/5, tmp/h.states/6 = scan_back adjoint/gru h.states h0 h.2 W U b d/dh.states

# weight c
declare output d/dc [32]
define d/dc = d/dlogp.2

# weight V
declare output d/dV [32, 64]
define d/dV = outer d/dlogp.2 h

# weight h0
declare output d/dh0 [64]
define d/dh0 = tmp/h.states/2

# weight b
declare output d/db [192]
define d/db = tmp/h.states/6

# weight U
declare output d/dU [192, 64]
define d/dU = tmp/h.states/5

# weight W
declare output d/dW [192, 16]
define d/dW = tmp/h.states/4

# weight E
declare output d/dE [32, 16]
define d/dE = take_grad tmp/h.states/3 h.1 E
