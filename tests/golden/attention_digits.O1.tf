declare input x [8, 8]
declare input label
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
declare intvar scores [10]
declare output correct
declare loss xent
declare intvar h.1 [8, 16]
declare intvar q.1 [8, 16]
declare intvar q.2 [8, 2, 8]
declare intvar k.1 [8, 16]
declare intvar k.2 [8, 2, 8]
declare intvar v.1 [8, 16]
declare intvar v.2 [8, 2, 8]
declare intvar attn.1 [2, 8, 8]
declare intvar attn.2 [2, 8, 8]
declare intvar attn.3 [2, 8, 8]
declare intvar ctx.1 [2, 8, 8]
declare intvar ctx.2 [8, 2, 8]
declare intvar z.1 [8, 16]
declare intvar centred.1 [8]
declare intvar centred.2 [8, 1]
declare intvar spread.1 [8, 16]
declare intvar spread.2 [8]
declare intvar spread.3 [8, 1]
declare intvar spread.4 [8, 1]
declare intvar normed.1 [8, 16]
declare intvar normed.2 [8, 16]
declare intvar scores.1 [16]
declare intvar scores.2 [10]
declare intvar xent.1 [10]
declare intvar xent.2 [10]
declare intvar xent.3
declare intvar correct.1

# forward: the shape program
define h.1 = matmul x E
define h = add h.1 P
define q.1 = matmul h Wq
define q.2 = reshape q.1 [8, 2, 8]
define q = permute q.2 [1, 0, 2]
define k.1 = matmul h Wk
define k.2 = reshape k.1 [8, 2, 8]
define k = permute k.2 [1, 0, 2]
define v.1 = matmul h Wv
define v.2 = reshape v.1 [8, 2, 8]
define v = permute v.2 [1, 0, 2]
define attn.1 = transpose k
define attn.2 = matmul q attn.1
define attn.3 = mul attn.2 0.35355339059327373
define attn = softmax attn.3
define ctx.1 = matmul attn v
define ctx.2 = permute ctx.1 [1, 0, 2]
define ctx = reshape ctx.2 [8, 16]
define z.1 = matmul ctx Wo
define z = add h z.1
define centred.1 = mean z -1
define centred.2 = reshape centred.1 [8, 1]
define centred = sub z centred.2
define spread.1 = mul centred centred
define spread.2 = mean spread.1 -1
define spread.3 = reshape spread.2 [8, 1]
define spread.4 = add spread.3 1e-05
define spread = sqrt spread.4
define normed.1 = div centred spread
define normed.2 = mul normed.1 gamma
define normed = add normed.2 beta
define scores.1 = mean normed 0
define scores.2 = matmul Wc scores.1
define scores = add scores.2 bc
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

# scores = add scores.2 bc
declare intvar tmp/scores/1
declare intvar tmp/scores/2 [10]
declare intvar d/dscores [10]
define tmp/scores/1 = sum d/dxent.1
define tmp/scores/2 = mul dxent.1/dscores tmp/scores/1
define d/dscores = sub d/dxent.1 tmp/scores/2

# scores.2 = matmul Wc scores.1
declare intvar dscores.2/dscores.1 [16, 10]
define dscores.2/dscores.1 = transpose Wc

# scores.1 = mean normed 0
declare intvar d/dscores.1 [16]
define d/dscores.1 = matmul dscores.2/dscores.1 d/dscores

# normed = add normed.2 beta
declare intvar tmp/normed/1 [16]
declare intvar d/dnormed [8, 16]
define tmp/normed/1 = div d/dscores.1 8
define d/dnormed = broadcast_like tmp/normed/1 normed 0

# normed.1 = div centred spread
declare intvar d/dnormed.1 [8, 16]
declare intvar dnormed.1/dcentred [8, 1]
declare intvar tmp/normed.1/1 [8, 16]
declare intvar dnormed.1/dspread [8, 16]
define d/dnormed.1 = mul d/dnormed gamma
define dnormed.1/dcentred = div 1 spread
define tmp/normed.1/1 = div normed.1 spread
define dnormed.1/dspread = neg tmp/normed.1/1

# spread = sqrt spread.4
declare intvar tmp/spread/1 [8, 16]
declare intvar d/dspread [8, 1]
declare intvar dspread/dspread.4 [8, 1]
define tmp/spread/1 = mul d/dnormed.1 dnormed.1/dspread
define d/dspread = sum_like tmp/spread/1 spread
define dspread/dspread.4 = div 0.5 spread

# spread.4 = add spread.3 1e-05
declare intvar d/dspread.4 [8, 1]
define d/dspread.4 = mul d/dspread dspread/dspread.4

# spread.2 = mean spread.1 -1
declare intvar d/dspread.2 [8]
define d/dspread.2 = reshape d/dspread.4 [8]

# spread.1 = mul centred centred
declare intvar tmp/spread.1/1 [8]
declare intvar d/dspread.1 [8, 16]
define tmp/spread.1/1 = div d/dspread.2 16
define d/dspread.1 = broadcast_like tmp/spread.1/1 spread.1 1

# centred = sub z centred.2
declare intvar tmp/centred/1 [8, 16]
declare intvar tmp/centred/3 [8, 16]
declare intvar tmp/centred/4 [8, 16]
declare intvar d/dcentred [8, 16]
define tmp/centred/1 = mul d/dspread.1 centred
define tmp/centred/3 = mul d/dnormed.1 dnormed.1/dcentred
define tmp/centred/4 = mul 2 tmp/centred/1
define d/dcentred = add tmp/centred/4 tmp/centred/3

# centred.2 = reshape centred.1 [8, 1]
declare intvar tmp/centred.2/1 [8, 16]
declare intvar d/dcentred.2 [8, 1]
define tmp/centred.2/1 = neg d/dcentred
define d/dcentred.2 = sum_like tmp/centred.2/1 centred.2

# centred.1 = mean z -1
declare intvar d/dcentred.1 [8]
define d/dcentred.1 = reshape d/dcentred.2 [8]

# z = add h z.1
declare intvar tmp/z/2 [8]
declare intvar tmp/z/1 [8, 16]
declare intvar d/dz [8, 16]
define tmp/z/2 = div d/dcentred.1 16
define tmp/z/1 = broadcast_like tmp/z/2 z 1
define d/dz = add tmp/z/1 d/dcentred

# z.1 = matmul ctx Wo
declare intvar dz.1/dctx [16, 16]
declare intvar dz.1/dWo [16, 8]
define dz.1/dctx = transpose Wo
define dz.1/dWo = transpose ctx

# ctx = reshape ctx.2 [8, 16]
declare intvar d/dctx [8, 16]
define d/dctx = matmul d/dz dz.1/dctx

# ctx.2 = permute ctx.1 [1, 0, 2]
declare intvar d/dctx.2 [8, 2, 8]
define d/dctx.2 = reshape d/dctx [8, 2, 8]

# ctx.1 = matmul attn v
declare intvar d/dctx.1 [2, 8, 8]
declare intvar dctx.1/dattn [2, 8, 8]
declare intvar dctx.1/dv [2, 8, 8]
define d/dctx.1 = permute d/dctx.2 [1, 0, 2]
define dctx.1/dattn = transpose v
define dctx.1/dv = transpose attn

# attn = softmax attn.3
declare intvar d/dattn [2, 8, 8]
define d/dattn = matmul d/dctx.1 dctx.1/dattn

# attn.3 = mul attn.2 0.35355339059327373
declare intvar tmp/attn.3/1 [2, 8, 8]
declare intvar tmp/attn.3/2 [2, 8]
declare intvar tmp/attn.3/3 [2, 8, 8]
declare intvar tmp/attn.3/4 [2, 8, 8]
declare intvar d/dattn.3 [2, 8, 8]
define tmp/attn.3/1 = mul d/dattn attn
define tmp/attn.3/2 = sum tmp/attn.3/1 2
define tmp/attn.3/3 = broadcast_like tmp/attn.3/2 attn 2
define tmp/attn.3/4 = sub d/dattn tmp/attn.3/3
define d/dattn.3 = mul attn tmp/attn.3/4

# attn.2 = matmul q attn.1
declare intvar d/dattn.2 [2, 8, 8]
declare intvar dattn.2/dq [2, 8, 8]
declare intvar dattn.2/dattn.1 [2, 8, 8]
define d/dattn.2 = mul d/dattn.3 0.35355339059327373
define dattn.2/dq = transpose attn.1
define dattn.2/dattn.1 = transpose q

# attn.1 = transpose k
declare intvar d/dattn.1 [2, 8, 8]
define d/dattn.1 = matmul dattn.2/dattn.1 d/dattn.2

# v = permute v.2 [1, 0, 2]
declare intvar d/dv [2, 8, 8]
define d/dv = matmul dctx.1/dv d/dctx.1

# v.2 = reshape v.1 [8, 2, 8]
declare intvar d/dv.2 [8, 2, 8]
define d/dv.2 = permute d/dv [1, 0, 2]

# v.1 = matmul h Wv
declare intvar d/dv.1 [8, 16]
declare intvar dv.1/dh [16, 16]
declare intvar dv.1/dWv [16, 8]
define d/dv.1 = reshape d/dv.2 [8, 16]
define dv.1/dh = transpose Wv
define dv.1/dWv = transpose h

# k = permute k.2 [1, 0, 2]
declare intvar d/dk [2, 8, 8]
define d/dk = transpose d/dattn.1

# k.2 = reshape k.1 [8, 2, 8]
declare intvar d/dk.2 [8, 2, 8]
define d/dk.2 = permute d/dk [1, 0, 2]

# k.1 = matmul h Wk
declare intvar d/dk.1 [8, 16]
declare intvar dk.1/dh [16, 16]
define d/dk.1 = reshape d/dk.2 [8, 16]
define dk.1/dh = transpose Wk

# q = permute q.2 [1, 0, 2]
declare intvar d/dq [2, 8, 8]
define d/dq = matmul d/dattn.2 dattn.2/dq

# q.2 = reshape q.1 [8, 2, 8]
declare intvar d/dq.2 [8, 2, 8]
define d/dq.2 = permute d/dq [1, 0, 2]

# q.1 = matmul h Wq
declare intvar d/dq.1 [8, 16]
declare intvar dq.1/dh [16, 16]
define d/dq.1 = reshape d/dq.2 [8, 16]
define dq.1/dh = transpose Wq

# h = add h.1 P
declare intvar tmp/h/1 [8, 16]
declare intvar tmp/h/2 [8, 16]
declare intvar tmp/h/3 [8, 16]
declare intvar tmp/h/5 [8, 16]
declare intvar tmp/h/6 [8, 16]
declare intvar d/dh [8, 16]
define tmp/h/1 = matmul d/dq.1 dq.1/dh
define tmp/h/2 = matmul d/dk.1 dk.1/dh
define tmp/h/3 = matmul d/dv.1 dv.1/dh
define tmp/h/5 = add tmp/h/1 tmp/h/2
define tmp/h/6 = add tmp/h/5 tmp/h/3
define d/dh = add tmp/h/6 d/dz

# h.1 = matmul x E
declare intvar dh.1/dE [8, 8]
define dh.1/dE = transpose x

# weight bc
declare output d/dbc [10]
define d/dbc = d/dscores

# weight Wc
declare output d/dWc [10, 16]
define d/dWc = outer d/dscores scores.1

# weight beta
declare output d/dbeta [16]
define d/dbeta = sum_like d/dnormed beta

# weight gamma
declare intvar tmp/gamma/1 [8, 16]
declare output d/dgamma [16]
define tmp/gamma/1 = mul d/dnormed normed.1
define d/dgamma = sum_like tmp/gamma/1 gamma

# weight Wo
declare output d/dWo [16, 16]
define d/dWo = matmul dz.1/dWo d/dz

# weight Wv
declare output d/dWv [16, 16]
define d/dWv = matmul dv.1/dWv d/dv.1

# weight Wk
declare output d/dWk [16, 16]
define d/dWk = matmul dv.1/dWv d/dk.1

# weight Wq
declare output d/dWq [16, 16]
define d/dWq = matmul dv.1/dWv d/dq.1

# weight P
declare output d/dP [8, 16]
define d/dP = d/dh

# weight E
declare output d/dE [8, 16]
define d/dE = matmul dh.1/dE d/dh
