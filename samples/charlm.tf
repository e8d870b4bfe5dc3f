# A character-level language model: 16 characters of docstring text (indices
# into a 32-symbol alphabet, samples/make_data.py --charlm) predict the 17th.  Each
# character's embedding is a row of E (`take`); a GRU cell, a macro, is folded
# over the 16 embeddings (one `fold` line); the last state gives a softmax over
# the alphabet.  `bits` is the cross-entropy in bits per character.
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

declare input chars [17]
declare weight E [32, 16]
declare weight W [192, 16]
declare weight U [192, 64]
declare weight b [192]
declare weight h0 [64]
declare weight V [32, 64]
declare weight c [32]
declare intvar h
declare output logp [32]
declare output bits
declare loss xent

define h = fold gru h0 (take E (slice chars 0 16)) W U b
define logp = log_softmax (add (matmul V h) c)
define xent = neg (dot logp (one_hot (index chars 16) 32))
define bits = div xent 0.6931471805599453
