# Logistic regression on scikit-learn's breast-cancer data (30 standardised
# features, label 1 = benign).  The loss is the cross-entropy written in its
# stable form: softplus(z) - y z  =  -[y log σ(z) + (1 - y) log(1 - σ(z))].
declare input x [30]
declare exp_output y
declare weight w [30]
declare weight b
declare intvar t
declare intvar z
declare output p
declare intvar sp
declare intvar yz
declare loss xent

define t = dot w x
define z = add t b
define p = logistic z
define sp = softplus z
define yz = mul y z
define xent = sub sp yz

# L2 penalty, as scikit-learn's LogisticRegression (C = 1) adds to its
# objective: |w|² / (2 C n) per example, n = 455 training examples.
declare intvar ww
declare loss penalty
define ww = dot w w
define penalty = mul ww 0.001098901098901099
