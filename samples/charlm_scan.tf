# The character language model of charlm.tf predicting every next character
# of the window: `scan` keeps the GRU's 16 states ([16, 64]), each gives a
# softmax over the alphabet for the character after it, and the loss is the
# mean over the 16 positions.  The one-hot targets are a `scan` too, used as
# a map (its state, c, only gives the shape).  `bits`: bits per character
# over the 16 positions; `last_bits`: the 16th alone (charlm.tf's task).
macro gru h x W U b -> hn
  declare intvar a
  declare intvar u
  declare intvar r
  declare intvar z
  define a = add (matmul W x) b
  define u = matmul U h
  define r = logistic (add (slice a 0 64) (slice u 0 64))
  define z = logistic (add (slice a 64 128) (slice u 64 128))
  define hn = add (mul z h) (mul (sub 1 z) (tanh (add (slice a 128 192) (mul r (slice u 128 192)))))
end
macro hot prev y -> v
  define v = one_hot y 32
end

declare input chars [17]
declare weight E [32, 16]
declare weight W [192, 16]
declare weight U [192, 64]
declare weight b [192]
declare weight h0 [64]
declare weight V [64, 32]
declare weight c [32]
declare intvar hs
declare intvar targets
declare output logp [16, 32]
declare output bits
declare output last_bits
declare loss xent

define hs = scan gru h0 (take E (slice chars 0 16)) W U b
define logp = log_softmax (add (matmul hs V) c)
define targets = scan hot c (slice chars 1 17)
define xent = neg (mean (sum (mul logp targets) 1))
define bits = div xent 0.6931471805599453
define last_bits = div (neg (dot (index logp 15) (index targets 15))) 0.6931471805599453
