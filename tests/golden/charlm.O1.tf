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
declare intvar h.0 [64]
declare intvar h.0.1 [16]
declare intvar h.0.a [192]
declare intvar h.0.u [192]
declare intvar h.0.r [64]
declare intvar h.0.z [64]
declare intvar h.0.a.1 [192]
declare intvar h.0.r.1 [64]
declare intvar h.0.r.2 [64]
declare intvar h.0.r.3 [64]
declare intvar h.0.z.1 [64]
declare intvar h.0.z.2 [64]
declare intvar h.0.z.3 [64]
declare intvar h.0.2 [64]
declare intvar h.0.3 [64]
declare intvar h.0.4 [64]
declare intvar h.0.5 [64]
declare intvar h.0.6 [64]
declare intvar h.0.7 [64]
declare intvar h.0.8 [64]
declare intvar h.0.9 [64]
declare intvar h.1.1 [64]
declare intvar h.1.1.1 [16]
declare intvar h.1.1.a [192]
declare intvar h.1.1.u [192]
declare intvar h.1.1.r [64]
declare intvar h.1.1.z [64]
declare intvar h.1.1.a.1 [192]
declare intvar h.1.1.r.1 [64]
declare intvar h.1.1.r.2 [64]
declare intvar h.1.1.r.3 [64]
declare intvar h.1.1.z.1 [64]
declare intvar h.1.1.z.2 [64]
declare intvar h.1.1.z.3 [64]
declare intvar h.1.1.2 [64]
declare intvar h.1.1.3 [64]
declare intvar h.1.1.4 [64]
declare intvar h.1.1.5 [64]
declare intvar h.1.1.6 [64]
declare intvar h.1.1.7 [64]
declare intvar h.1.1.8 [64]
declare intvar h.1.1.9 [64]
declare intvar h.2.1 [64]
declare intvar h.2.1.1 [16]
declare intvar h.2.1.a [192]
declare intvar h.2.1.u [192]
declare intvar h.2.1.r [64]
declare intvar h.2.1.z [64]
declare intvar h.2.1.a.1 [192]
declare intvar h.2.1.r.1 [64]
declare intvar h.2.1.r.2 [64]
declare intvar h.2.1.r.3 [64]
declare intvar h.2.1.z.1 [64]
declare intvar h.2.1.z.2 [64]
declare intvar h.2.1.z.3 [64]
declare intvar h.2.1.2 [64]
declare intvar h.2.1.3 [64]
declare intvar h.2.1.4 [64]
declare intvar h.2.1.5 [64]
declare intvar h.2.1.6 [64]
declare intvar h.2.1.7 [64]
declare intvar h.2.1.8 [64]
declare intvar h.2.1.9 [64]
declare intvar h.3 [64]
declare intvar h.3.1 [16]
declare intvar h.3.a [192]
declare intvar h.3.u [192]
declare intvar h.3.r [64]
declare intvar h.3.z [64]
declare intvar h.3.a.1 [192]
declare intvar h.3.r.1 [64]
declare intvar h.3.r.2 [64]
declare intvar h.3.r.3 [64]
declare intvar h.3.z.1 [64]
declare intvar h.3.z.2 [64]
declare intvar h.3.z.3 [64]
declare intvar h.3.2 [64]
declare intvar h.3.3 [64]
declare intvar h.3.4 [64]
declare intvar h.3.5 [64]
declare intvar h.3.6 [64]
declare intvar h.3.7 [64]
declare intvar h.3.8 [64]
declare intvar h.3.9 [64]
declare intvar h.4 [64]
declare intvar h.4.1 [16]
declare intvar h.4.a [192]
declare intvar h.4.u [192]
declare intvar h.4.r [64]
declare intvar h.4.z [64]
declare intvar h.4.a.1 [192]
declare intvar h.4.r.1 [64]
declare intvar h.4.r.2 [64]
declare intvar h.4.r.3 [64]
declare intvar h.4.z.1 [64]
declare intvar h.4.z.2 [64]
declare intvar h.4.z.3 [64]
declare intvar h.4.2 [64]
declare intvar h.4.3 [64]
declare intvar h.4.4 [64]
declare intvar h.4.5 [64]
declare intvar h.4.6 [64]
declare intvar h.4.7 [64]
declare intvar h.4.8 [64]
declare intvar h.4.9 [64]
declare intvar h.5 [64]
declare intvar h.5.1 [16]
declare intvar h.5.a [192]
declare intvar h.5.u [192]
declare intvar h.5.r [64]
declare intvar h.5.z [64]
declare intvar h.5.a.1 [192]
declare intvar h.5.r.1 [64]
declare intvar h.5.r.2 [64]
declare intvar h.5.r.3 [64]
declare intvar h.5.z.1 [64]
declare intvar h.5.z.2 [64]
declare intvar h.5.z.3 [64]
declare intvar h.5.2 [64]
declare intvar h.5.3 [64]
declare intvar h.5.4 [64]
declare intvar h.5.5 [64]
declare intvar h.5.6 [64]
declare intvar h.5.7 [64]
declare intvar h.5.8 [64]
declare intvar h.5.9 [64]
declare intvar h.6 [64]
declare intvar h.6.1 [16]
declare intvar h.6.a [192]
declare intvar h.6.u [192]
declare intvar h.6.r [64]
declare intvar h.6.z [64]
declare intvar h.6.a.1 [192]
declare intvar h.6.r.1 [64]
declare intvar h.6.r.2 [64]
declare intvar h.6.r.3 [64]
declare intvar h.6.z.1 [64]
declare intvar h.6.z.2 [64]
declare intvar h.6.z.3 [64]
declare intvar h.6.2 [64]
declare intvar h.6.3 [64]
declare intvar h.6.4 [64]
declare intvar h.6.5 [64]
declare intvar h.6.6 [64]
declare intvar h.6.7 [64]
declare intvar h.6.8 [64]
declare intvar h.6.9 [64]
declare intvar h.7 [64]
declare intvar h.7.1 [16]
declare intvar h.7.a [192]
declare intvar h.7.u [192]
declare intvar h.7.r [64]
declare intvar h.7.z [64]
declare intvar h.7.a.1 [192]
declare intvar h.7.r.1 [64]
declare intvar h.7.r.2 [64]
declare intvar h.7.r.3 [64]
declare intvar h.7.z.1 [64]
declare intvar h.7.z.2 [64]
declare intvar h.7.z.3 [64]
declare intvar h.7.2 [64]
declare intvar h.7.3 [64]
declare intvar h.7.4 [64]
declare intvar h.7.5 [64]
declare intvar h.7.6 [64]
declare intvar h.7.7 [64]
declare intvar h.7.8 [64]
declare intvar h.7.9 [64]
declare intvar h.8 [64]
declare intvar h.8.1 [16]
declare intvar h.8.a [192]
declare intvar h.8.u [192]
declare intvar h.8.r [64]
declare intvar h.8.z [64]
declare intvar h.8.a.1 [192]
declare intvar h.8.r.1 [64]
declare intvar h.8.r.2 [64]
declare intvar h.8.r.3 [64]
declare intvar h.8.z.1 [64]
declare intvar h.8.z.2 [64]
declare intvar h.8.z.3 [64]
declare intvar h.8.2 [64]
declare intvar h.8.3 [64]
declare intvar h.8.4 [64]
declare intvar h.8.5 [64]
declare intvar h.8.6 [64]
declare intvar h.8.7 [64]
declare intvar h.8.8 [64]
declare intvar h.8.9 [64]
declare intvar h.9 [64]
declare intvar h.9.1 [16]
declare intvar h.9.a [192]
declare intvar h.9.u [192]
declare intvar h.9.r [64]
declare intvar h.9.z [64]
declare intvar h.9.a.1 [192]
declare intvar h.9.r.1 [64]
declare intvar h.9.r.2 [64]
declare intvar h.9.r.3 [64]
declare intvar h.9.z.1 [64]
declare intvar h.9.z.2 [64]
declare intvar h.9.z.3 [64]
declare intvar h.9.2 [64]
declare intvar h.9.3 [64]
declare intvar h.9.4 [64]
declare intvar h.9.5 [64]
declare intvar h.9.6 [64]
declare intvar h.9.7 [64]
declare intvar h.9.8 [64]
declare intvar h.9.9 [64]
declare intvar h.10 [64]
declare intvar h.10.1 [16]
declare intvar h.10.a [192]
declare intvar h.10.u [192]
declare intvar h.10.r [64]
declare intvar h.10.z [64]
declare intvar h.10.a.1 [192]
declare intvar h.10.r.1 [64]
declare intvar h.10.r.2 [64]
declare intvar h.10.r.3 [64]
declare intvar h.10.z.1 [64]
declare intvar h.10.z.2 [64]
declare intvar h.10.z.3 [64]
declare intvar h.10.2 [64]
declare intvar h.10.3 [64]
declare intvar h.10.4 [64]
declare intvar h.10.5 [64]
declare intvar h.10.6 [64]
declare intvar h.10.7 [64]
declare intvar h.10.8 [64]
declare intvar h.10.9 [64]
declare intvar h.11 [64]
declare intvar h.11.1 [16]
declare intvar h.11.a [192]
declare intvar h.11.u [192]
declare intvar h.11.r [64]
declare intvar h.11.z [64]
declare intvar h.11.a.1 [192]
declare intvar h.11.r.1 [64]
declare intvar h.11.r.2 [64]
declare intvar h.11.r.3 [64]
declare intvar h.11.z.1 [64]
declare intvar h.11.z.2 [64]
declare intvar h.11.z.3 [64]
declare intvar h.11.2 [64]
declare intvar h.11.3 [64]
declare intvar h.11.4 [64]
declare intvar h.11.5 [64]
declare intvar h.11.6 [64]
declare intvar h.11.7 [64]
declare intvar h.11.8 [64]
declare intvar h.11.9 [64]
declare intvar h.12 [64]
declare intvar h.12.1 [16]
declare intvar h.12.a [192]
declare intvar h.12.u [192]
declare intvar h.12.r [64]
declare intvar h.12.z [64]
declare intvar h.12.a.1 [192]
declare intvar h.12.r.1 [64]
declare intvar h.12.r.2 [64]
declare intvar h.12.r.3 [64]
declare intvar h.12.z.1 [64]
declare intvar h.12.z.2 [64]
declare intvar h.12.z.3 [64]
declare intvar h.12.2 [64]
declare intvar h.12.3 [64]
declare intvar h.12.4 [64]
declare intvar h.12.5 [64]
declare intvar h.12.6 [64]
declare intvar h.12.7 [64]
declare intvar h.12.8 [64]
declare intvar h.12.9 [64]
declare intvar h.13 [64]
declare intvar h.13.1 [16]
declare intvar h.13.a [192]
declare intvar h.13.u [192]
declare intvar h.13.r [64]
declare intvar h.13.z [64]
declare intvar h.13.a.1 [192]
declare intvar h.13.r.1 [64]
declare intvar h.13.r.2 [64]
declare intvar h.13.r.3 [64]
declare intvar h.13.z.1 [64]
declare intvar h.13.z.2 [64]
declare intvar h.13.z.3 [64]
declare intvar h.13.2 [64]
declare intvar h.13.3 [64]
declare intvar h.13.4 [64]
declare intvar h.13.5 [64]
declare intvar h.13.6 [64]
declare intvar h.13.7 [64]
declare intvar h.13.8 [64]
declare intvar h.13.9 [64]
declare intvar h.14 [64]
declare intvar h.14.1 [16]
declare intvar h.14.a [192]
declare intvar h.14.u [192]
declare intvar h.14.r [64]
declare intvar h.14.z [64]
declare intvar h.14.a.1 [192]
declare intvar h.14.r.1 [64]
declare intvar h.14.r.2 [64]
declare intvar h.14.r.3 [64]
declare intvar h.14.z.1 [64]
declare intvar h.14.z.2 [64]
declare intvar h.14.z.3 [64]
declare intvar h.14.2 [64]
declare intvar h.14.3 [64]
declare intvar h.14.4 [64]
declare intvar h.14.5 [64]
declare intvar h.14.6 [64]
declare intvar h.14.7 [64]
declare intvar h.14.8 [64]
declare intvar h.14.9 [64]
declare intvar h.15 [64]
declare intvar h.15.1 [16]
declare intvar h.15.a [192]
declare intvar h.15.u [192]
declare intvar h.15.r [64]
declare intvar h.15.z [64]
declare intvar h.15.a.1 [192]
declare intvar h.15.r.1 [64]
declare intvar h.15.r.2 [64]
declare intvar h.15.r.3 [64]
declare intvar h.15.z.1 [64]
declare intvar h.15.z.2 [64]
declare intvar h.15.z.3 [64]
declare intvar h.15.2 [64]
declare intvar h.15.3 [64]
declare intvar h.15.4 [64]
declare intvar h.15.5 [64]
declare intvar h.15.6 [64]
declare intvar h.15.7 [64]
declare intvar h.15.8 [64]
declare intvar h.15.9 [64]
declare intvar logp.1 [32]
declare intvar logp.2 [32]
declare intvar xent.1
declare intvar xent.2 [32]
declare intvar xent.3

# forward: the shape program
define h.1 = slice chars 0 16
define h.2 = take E h.1
define h.0.1 = index h.2 0
define h.0.a.1 = matmul W h.0.1
define h.0.a = add h.0.a.1 b
define h.0.u = matmul U h0
define h.0.r.1 = slice h.0.a 0 64
define h.0.r.2 = slice h.0.u 0 64
define h.0.r.3 = add h.0.r.1 h.0.r.2
define h.0.r = logistic h.0.r.3
define h.0.z.1 = slice h.0.a 64 128
define h.0.z.2 = slice h.0.u 64 128
define h.0.z.3 = add h.0.z.1 h.0.z.2
define h.0.z = logistic h.0.z.3
define h.0.2 = mul h.0.z h0
define h.0.3 = sub 1 h.0.z
define h.0.4 = slice h.0.a 128 192
define h.0.5 = slice h.0.u 128 192
define h.0.6 = mul h.0.r h.0.5
define h.0.7 = add h.0.4 h.0.6
define h.0.8 = tanh h.0.7
define h.0.9 = mul h.0.3 h.0.8
define h.0 = add h.0.2 h.0.9
define h.1.1.1 = index h.2 1
define h.1.1.a.1 = matmul W h.1.1.1
define h.1.1.a = add h.1.1.a.1 b
define h.1.1.u = matmul U h.0
define h.1.1.r.1 = slice h.1.1.a 0 64
define h.1.1.r.2 = slice h.1.1.u 0 64
define h.1.1.r.3 = add h.1.1.r.1 h.1.1.r.2
define h.1.1.r = logistic h.1.1.r.3
define h.1.1.z.1 = slice h.1.1.a 64 128
define h.1.1.z.2 = slice h.1.1.u 64 128
define h.1.1.z.3 = add h.1.1.z.1 h.1.1.z.2
define h.1.1.z = logistic h.1.1.z.3
define h.1.1.2 = mul h.1.1.z h.0
define h.1.1.3 = sub 1 h.1.1.z
define h.1.1.4 = slice h.1.1.a 128 192
define h.1.1.5 = slice h.1.1.u 128 192
define h.1.1.6 = mul h.1.1.r h.1.1.5
define h.1.1.7 = add h.1.1.4 h.1.1.6
define h.1.1.8 = tanh h.1.1.7
define h.1.1.9 = mul h.1.1.3 h.1.1.8
define h.1.1 = add h.1.1.2 h.1.1.9
define h.2.1.1 = index h.2 2
define h.2.1.a.1 = matmul W h.2.1.1
define h.2.1.a = add h.2.1.a.1 b
define h.2.1.u = matmul U h.1.1
define h.2.1.r.1 = slice h.2.1.a 0 64
define h.2.1.r.2 = slice h.2.1.u 0 64
define h.2.1.r.3 = add h.2.1.r.1 h.2.1.r.2
define h.2.1.r = logistic h.2.1.r.3
define h.2.1.z.1 = slice h.2.1.a 64 128
define h.2.1.z.2 = slice h.2.1.u 64 128
define h.2.1.z.3 = add h.2.1.z.1 h.2.1.z.2
define h.2.1.z = logistic h.2.1.z.3
define h.2.1.2 = mul h.2.1.z h.1.1
define h.2.1.3 = sub 1 h.2.1.z
define h.2.1.4 = slice h.2.1.a 128 192
define h.2.1.5 = slice h.2.1.u 128 192
define h.2.1.6 = mul h.2.1.r h.2.1.5
define h.2.1.7 = add h.2.1.4 h.2.1.6
define h.2.1.8 = tanh h.2.1.7
define h.2.1.9 = mul h.2.1.3 h.2.1.8
define h.2.1 = add h.2.1.2 h.2.1.9
define h.3.1 = index h.2 3
define h.3.a.1 = matmul W h.3.1
define h.3.a = add h.3.a.1 b
define h.3.u = matmul U h.2.1
define h.3.r.1 = slice h.3.a 0 64
define h.3.r.2 = slice h.3.u 0 64
define h.3.r.3 = add h.3.r.1 h.3.r.2
define h.3.r = logistic h.3.r.3
define h.3.z.1 = slice h.3.a 64 128
define h.3.z.2 = slice h.3.u 64 128
define h.3.z.3 = add h.3.z.1 h.3.z.2
define h.3.z = logistic h.3.z.3
define h.3.2 = mul h.3.z h.2.1
define h.3.3 = sub 1 h.3.z
define h.3.4 = slice h.3.a 128 192
define h.3.5 = slice h.3.u 128 192
define h.3.6 = mul h.3.r h.3.5
define h.3.7 = add h.3.4 h.3.6
define h.3.8 = tanh h.3.7
define h.3.9 = mul h.3.3 h.3.8
define h.3 = add h.3.2 h.3.9
define h.4.1 = index h.2 4
define h.4.a.1 = matmul W h.4.1
define h.4.a = add h.4.a.1 b
define h.4.u = matmul U h.3
define h.4.r.1 = slice h.4.a 0 64
define h.4.r.2 = slice h.4.u 0 64
define h.4.r.3 = add h.4.r.1 h.4.r.2
define h.4.r = logistic h.4.r.3
define h.4.z.1 = slice h.4.a 64 128
define h.4.z.2 = slice h.4.u 64 128
define h.4.z.3 = add h.4.z.1 h.4.z.2
define h.4.z = logistic h.4.z.3
define h.4.2 = mul h.4.z h.3
define h.4.3 = sub 1 h.4.z
define h.4.4 = slice h.4.a 128 192
define h.4.5 = slice h.4.u 128 192
define h.4.6 = mul h.4.r h.4.5
define h.4.7 = add h.4.4 h.4.6
define h.4.8 = tanh h.4.7
define h.4.9 = mul h.4.3 h.4.8
define h.4 = add h.4.2 h.4.9
define h.5.1 = index h.2 5
define h.5.a.1 = matmul W h.5.1
define h.5.a = add h.5.a.1 b
define h.5.u = matmul U h.4
define h.5.r.1 = slice h.5.a 0 64
define h.5.r.2 = slice h.5.u 0 64
define h.5.r.3 = add h.5.r.1 h.5.r.2
define h.5.r = logistic h.5.r.3
define h.5.z.1 = slice h.5.a 64 128
define h.5.z.2 = slice h.5.u 64 128
define h.5.z.3 = add h.5.z.1 h.5.z.2
define h.5.z = logistic h.5.z.3
define h.5.2 = mul h.5.z h.4
define h.5.3 = sub 1 h.5.z
define h.5.4 = slice h.5.a 128 192
define h.5.5 = slice h.5.u 128 192
define h.5.6 = mul h.5.r h.5.5
define h.5.7 = add h.5.4 h.5.6
define h.5.8 = tanh h.5.7
define h.5.9 = mul h.5.3 h.5.8
define h.5 = add h.5.2 h.5.9
define h.6.1 = index h.2 6
define h.6.a.1 = matmul W h.6.1
define h.6.a = add h.6.a.1 b
define h.6.u = matmul U h.5
define h.6.r.1 = slice h.6.a 0 64
define h.6.r.2 = slice h.6.u 0 64
define h.6.r.3 = add h.6.r.1 h.6.r.2
define h.6.r = logistic h.6.r.3
define h.6.z.1 = slice h.6.a 64 128
define h.6.z.2 = slice h.6.u 64 128
define h.6.z.3 = add h.6.z.1 h.6.z.2
define h.6.z = logistic h.6.z.3
define h.6.2 = mul h.6.z h.5
define h.6.3 = sub 1 h.6.z
define h.6.4 = slice h.6.a 128 192
define h.6.5 = slice h.6.u 128 192
define h.6.6 = mul h.6.r h.6.5
define h.6.7 = add h.6.4 h.6.6
define h.6.8 = tanh h.6.7
define h.6.9 = mul h.6.3 h.6.8
define h.6 = add h.6.2 h.6.9
define h.7.1 = index h.2 7
define h.7.a.1 = matmul W h.7.1
define h.7.a = add h.7.a.1 b
define h.7.u = matmul U h.6
define h.7.r.1 = slice h.7.a 0 64
define h.7.r.2 = slice h.7.u 0 64
define h.7.r.3 = add h.7.r.1 h.7.r.2
define h.7.r = logistic h.7.r.3
define h.7.z.1 = slice h.7.a 64 128
define h.7.z.2 = slice h.7.u 64 128
define h.7.z.3 = add h.7.z.1 h.7.z.2
define h.7.z = logistic h.7.z.3
define h.7.2 = mul h.7.z h.6
define h.7.3 = sub 1 h.7.z
define h.7.4 = slice h.7.a 128 192
define h.7.5 = slice h.7.u 128 192
define h.7.6 = mul h.7.r h.7.5
define h.7.7 = add h.7.4 h.7.6
define h.7.8 = tanh h.7.7
define h.7.9 = mul h.7.3 h.7.8
define h.7 = add h.7.2 h.7.9
define h.8.1 = index h.2 8
define h.8.a.1 = matmul W h.8.1
define h.8.a = add h.8.a.1 b
define h.8.u = matmul U h.7
define h.8.r.1 = slice h.8.a 0 64
define h.8.r.2 = slice h.8.u 0 64
define h.8.r.3 = add h.8.r.1 h.8.r.2
define h.8.r = logistic h.8.r.3
define h.8.z.1 = slice h.8.a 64 128
define h.8.z.2 = slice h.8.u 64 128
define h.8.z.3 = add h.8.z.1 h.8.z.2
define h.8.z = logistic h.8.z.3
define h.8.2 = mul h.8.z h.7
define h.8.3 = sub 1 h.8.z
define h.8.4 = slice h.8.a 128 192
define h.8.5 = slice h.8.u 128 192
define h.8.6 = mul h.8.r h.8.5
define h.8.7 = add h.8.4 h.8.6
define h.8.8 = tanh h.8.7
define h.8.9 = mul h.8.3 h.8.8
define h.8 = add h.8.2 h.8.9
define h.9.1 = index h.2 9
define h.9.a.1 = matmul W h.9.1
define h.9.a = add h.9.a.1 b
define h.9.u = matmul U h.8
define h.9.r.1 = slice h.9.a 0 64
define h.9.r.2 = slice h.9.u 0 64
define h.9.r.3 = add h.9.r.1 h.9.r.2
define h.9.r = logistic h.9.r.3
define h.9.z.1 = slice h.9.a 64 128
define h.9.z.2 = slice h.9.u 64 128
define h.9.z.3 = add h.9.z.1 h.9.z.2
define h.9.z = logistic h.9.z.3
define h.9.2 = mul h.9.z h.8
define h.9.3 = sub 1 h.9.z
define h.9.4 = slice h.9.a 128 192
define h.9.5 = slice h.9.u 128 192
define h.9.6 = mul h.9.r h.9.5
define h.9.7 = add h.9.4 h.9.6
define h.9.8 = tanh h.9.7
define h.9.9 = mul h.9.3 h.9.8
define h.9 = add h.9.2 h.9.9
define h.10.1 = index h.2 10
define h.10.a.1 = matmul W h.10.1
define h.10.a = add h.10.a.1 b
define h.10.u = matmul U h.9
define h.10.r.1 = slice h.10.a 0 64
define h.10.r.2 = slice h.10.u 0 64
define h.10.r.3 = add h.10.r.1 h.10.r.2
define h.10.r = logistic h.10.r.3
define h.10.z.1 = slice h.10.a 64 128
define h.10.z.2 = slice h.10.u 64 128
define h.10.z.3 = add h.10.z.1 h.10.z.2
define h.10.z = logistic h.10.z.3
define h.10.2 = mul h.10.z h.9
define h.10.3 = sub 1 h.10.z
define h.10.4 = slice h.10.a 128 192
define h.10.5 = slice h.10.u 128 192
define h.10.6 = mul h.10.r h.10.5
define h.10.7 = add h.10.4 h.10.6
define h.10.8 = tanh h.10.7
define h.10.9 = mul h.10.3 h.10.8
define h.10 = add h.10.2 h.10.9
define h.11.1 = index h.2 11
define h.11.a.1 = matmul W h.11.1
define h.11.a = add h.11.a.1 b
define h.11.u = matmul U h.10
define h.11.r.1 = slice h.11.a 0 64
define h.11.r.2 = slice h.11.u 0 64
define h.11.r.3 = add h.11.r.1 h.11.r.2
define h.11.r = logistic h.11.r.3
define h.11.z.1 = slice h.11.a 64 128
define h.11.z.2 = slice h.11.u 64 128
define h.11.z.3 = add h.11.z.1 h.11.z.2
define h.11.z = logistic h.11.z.3
define h.11.2 = mul h.11.z h.10
define h.11.3 = sub 1 h.11.z
define h.11.4 = slice h.11.a 128 192
define h.11.5 = slice h.11.u 128 192
define h.11.6 = mul h.11.r h.11.5
define h.11.7 = add h.11.4 h.11.6
define h.11.8 = tanh h.11.7
define h.11.9 = mul h.11.3 h.11.8
define h.11 = add h.11.2 h.11.9
define h.12.1 = index h.2 12
define h.12.a.1 = matmul W h.12.1
define h.12.a = add h.12.a.1 b
define h.12.u = matmul U h.11
define h.12.r.1 = slice h.12.a 0 64
define h.12.r.2 = slice h.12.u 0 64
define h.12.r.3 = add h.12.r.1 h.12.r.2
define h.12.r = logistic h.12.r.3
define h.12.z.1 = slice h.12.a 64 128
define h.12.z.2 = slice h.12.u 64 128
define h.12.z.3 = add h.12.z.1 h.12.z.2
define h.12.z = logistic h.12.z.3
define h.12.2 = mul h.12.z h.11
define h.12.3 = sub 1 h.12.z
define h.12.4 = slice h.12.a 128 192
define h.12.5 = slice h.12.u 128 192
define h.12.6 = mul h.12.r h.12.5
define h.12.7 = add h.12.4 h.12.6
define h.12.8 = tanh h.12.7
define h.12.9 = mul h.12.3 h.12.8
define h.12 = add h.12.2 h.12.9
define h.13.1 = index h.2 13
define h.13.a.1 = matmul W h.13.1
define h.13.a = add h.13.a.1 b
define h.13.u = matmul U h.12
define h.13.r.1 = slice h.13.a 0 64
define h.13.r.2 = slice h.13.u 0 64
define h.13.r.3 = add h.13.r.1 h.13.r.2
define h.13.r = logistic h.13.r.3
define h.13.z.1 = slice h.13.a 64 128
define h.13.z.2 = slice h.13.u 64 128
define h.13.z.3 = add h.13.z.1 h.13.z.2
define h.13.z = logistic h.13.z.3
define h.13.2 = mul h.13.z h.12
define h.13.3 = sub 1 h.13.z
define h.13.4 = slice h.13.a 128 192
define h.13.5 = slice h.13.u 128 192
define h.13.6 = mul h.13.r h.13.5
define h.13.7 = add h.13.4 h.13.6
define h.13.8 = tanh h.13.7
define h.13.9 = mul h.13.3 h.13.8
define h.13 = add h.13.2 h.13.9
define h.14.1 = index h.2 14
define h.14.a.1 = matmul W h.14.1
define h.14.a = add h.14.a.1 b
define h.14.u = matmul U h.13
define h.14.r.1 = slice h.14.a 0 64
define h.14.r.2 = slice h.14.u 0 64
define h.14.r.3 = add h.14.r.1 h.14.r.2
define h.14.r = logistic h.14.r.3
define h.14.z.1 = slice h.14.a 64 128
define h.14.z.2 = slice h.14.u 64 128
define h.14.z.3 = add h.14.z.1 h.14.z.2
define h.14.z = logistic h.14.z.3
define h.14.2 = mul h.14.z h.13
define h.14.3 = sub 1 h.14.z
define h.14.4 = slice h.14.a 128 192
define h.14.5 = slice h.14.u 128 192
define h.14.6 = mul h.14.r h.14.5
define h.14.7 = add h.14.4 h.14.6
define h.14.8 = tanh h.14.7
define h.14.9 = mul h.14.3 h.14.8
define h.14 = add h.14.2 h.14.9
define h.15.1 = index h.2 15
define h.15.a.1 = matmul W h.15.1
define h.15.a = add h.15.a.1 b
define h.15.u = matmul U h.14
define h.15.r.1 = slice h.15.a 0 64
define h.15.r.2 = slice h.15.u 0 64
define h.15.r.3 = add h.15.r.1 h.15.r.2
define h.15.r = logistic h.15.r.3
define h.15.z.1 = slice h.15.a 64 128
define h.15.z.2 = slice h.15.u 64 128
define h.15.z.3 = add h.15.z.1 h.15.z.2
define h.15.z = logistic h.15.z.3
define h.15.2 = mul h.15.z h.14
define h.15.3 = sub 1 h.15.z
define h.15.4 = slice h.15.a 128 192
define h.15.5 = slice h.15.u 128 192
define h.15.6 = mul h.15.r h.15.5
define h.15.7 = add h.15.4 h.15.6
define h.15.8 = tanh h.15.7
define h.15.9 = mul h.15.3 h.15.8
define h.15 = add h.15.2 h.15.9
define h = h.15
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

# h = h.15
declare intvar d/dh [64]
define d/dh = matmul dlogp.1/dh d/dlogp.2

# h.15.8 = tanh h.15.7
declare intvar d/dh.15.8 [64]
declare intvar dh.15.8/dh.15.7 [64]
define d/dh.15.8 = mul d/dh h.15.3
define dh.15.8/dh.15.7 = tanh_deriv h.15.7

# h.15.7 = add h.15.4 h.15.6
declare intvar d/dh.15.7 [64]
define d/dh.15.7 = mul d/dh.15.8 dh.15.8/dh.15.7

# h.15.5 = slice h.15.u 128 192
declare intvar d/dh.15.5 [64]
define d/dh.15.5 = mul d/dh.15.7 h.15.r

# h.15.3 = sub 1 h.15.z
declare intvar d/dh.15.3 [64]
define d/dh.15.3 = mul d/dh h.15.8

# h.15.z = logistic h.15.z.3
declare intvar tmp/h.15.z/1 [64]
declare intvar tmp/h.15.z/2 [64]
declare intvar d/dh.15.z [64]
declare intvar dh.15.z/dh.15.z.3 [64]
define tmp/h.15.z/1 = mul d/dh h.14
define tmp/h.15.z/2 = neg d/dh.15.3
define d/dh.15.z = add tmp/h.15.z/1 tmp/h.15.z/2
define dh.15.z/dh.15.z.3 = logistic_deriv h.15.z.3

# h.15.z.3 = add h.15.z.1 h.15.z.2
declare intvar d/dh.15.z.3 [64]
define d/dh.15.z.3 = mul d/dh.15.z dh.15.z/dh.15.z.3

# h.15.r = logistic h.15.r.3
declare intvar d/dh.15.r [64]
declare intvar dh.15.r/dh.15.r.3 [64]
define d/dh.15.r = mul d/dh.15.7 h.15.5
define dh.15.r/dh.15.r.3 = logistic_deriv h.15.r.3

# h.15.r.3 = add h.15.r.1 h.15.r.2
declare intvar d/dh.15.r.3 [64]
define d/dh.15.r.3 = mul d/dh.15.r dh.15.r/dh.15.r.3

# h.15.u = matmul U h.14
declare intvar tmp/h.15.u/1 [192]
declare intvar tmp/h.15.u/2 [192]
declare intvar tmp/h.15.u/3 [192]
declare intvar tmp/h.15.u/4 [192]
declare intvar d/dh.15.u [192]
declare intvar dh.15.u/dh.14 [64, 192]
define tmp/h.15.u/1 = unslice d/dh.15.r.3 h.15.u 0
define tmp/h.15.u/2 = unslice d/dh.15.z.3 h.15.u 64
define tmp/h.15.u/3 = unslice d/dh.15.5 h.15.u 128
define tmp/h.15.u/4 = add tmp/h.15.u/1 tmp/h.15.u/2
define d/dh.15.u = add tmp/h.15.u/4 tmp/h.15.u/3
define dh.15.u/dh.14 = transpose U

# h.15.a = add h.15.a.1 b
declare intvar tmp/h.15.a/1 [192]
declare intvar tmp/h.15.a/2 [192]
declare intvar tmp/h.15.a/3 [192]
declare intvar tmp/h.15.a/4 [192]
declare intvar d/dh.15.a [192]
define tmp/h.15.a/1 = unslice d/dh.15.r.3 h.15.a 0
define tmp/h.15.a/2 = unslice d/dh.15.z.3 h.15.a 64
define tmp/h.15.a/3 = unslice d/dh.15.7 h.15.a 128
define tmp/h.15.a/4 = add tmp/h.15.a/1 tmp/h.15.a/2
define d/dh.15.a = add tmp/h.15.a/4 tmp/h.15.a/3

# h.15.a.1 = matmul W h.15.1
declare intvar dh.15.a.1/dh.15.1 [16, 192]
define dh.15.a.1/dh.15.1 = transpose W

# h.15.1 = index h.2 15
declare intvar d/dh.15.1 [16]
define d/dh.15.1 = matmul dh.15.a.1/dh.15.1 d/dh.15.a

# h.14 = add h.14.2 h.14.9
declare intvar tmp/h.14/1 [64]
declare intvar tmp/h.14/2 [64]
declare intvar d/dh.14 [64]
define tmp/h.14/1 = matmul dh.15.u/dh.14 d/dh.15.u
define tmp/h.14/2 = mul d/dh h.15.z
define d/dh.14 = add tmp/h.14/1 tmp/h.14/2

# h.14.8 = tanh h.14.7
declare intvar d/dh.14.8 [64]
declare intvar dh.14.8/dh.14.7 [64]
define d/dh.14.8 = mul d/dh.14 h.14.3
define dh.14.8/dh.14.7 = tanh_deriv h.14.7

# h.14.7 = add h.14.4 h.14.6
declare intvar d/dh.14.7 [64]
define d/dh.14.7 = mul d/dh.14.8 dh.14.8/dh.14.7

# h.14.5 = slice h.14.u 128 192
declare intvar d/dh.14.5 [64]
define d/dh.14.5 = mul d/dh.14.7 h.14.r

# h.14.3 = sub 1 h.14.z
declare intvar d/dh.14.3 [64]
define d/dh.14.3 = mul d/dh.14 h.14.8

# h.14.z = logistic h.14.z.3
declare intvar tmp/h.14.z/1 [64]
declare intvar tmp/h.14.z/2 [64]
declare intvar d/dh.14.z [64]
declare intvar dh.14.z/dh.14.z.3 [64]
define tmp/h.14.z/1 = mul d/dh.14 h.13
define tmp/h.14.z/2 = neg d/dh.14.3
define d/dh.14.z = add tmp/h.14.z/1 tmp/h.14.z/2
define dh.14.z/dh.14.z.3 = logistic_deriv h.14.z.3

# h.14.z.3 = add h.14.z.1 h.14.z.2
declare intvar d/dh.14.z.3 [64]
define d/dh.14.z.3 = mul d/dh.14.z dh.14.z/dh.14.z.3

# h.14.r = logistic h.14.r.3
declare intvar d/dh.14.r [64]
declare intvar dh.14.r/dh.14.r.3 [64]
define d/dh.14.r = mul d/dh.14.7 h.14.5
define dh.14.r/dh.14.r.3 = logistic_deriv h.14.r.3

# h.14.r.3 = add h.14.r.1 h.14.r.2
declare intvar d/dh.14.r.3 [64]
define d/dh.14.r.3 = mul d/dh.14.r dh.14.r/dh.14.r.3

# h.14.u = matmul U h.13
declare intvar tmp/h.14.u/1 [192]
declare intvar tmp/h.14.u/2 [192]
declare intvar tmp/h.14.u/3 [192]
declare intvar tmp/h.14.u/4 [192]
declare intvar d/dh.14.u [192]
define tmp/h.14.u/1 = unslice d/dh.14.r.3 h.14.u 0
define tmp/h.14.u/2 = unslice d/dh.14.z.3 h.14.u 64
define tmp/h.14.u/3 = unslice d/dh.14.5 h.14.u 128
define tmp/h.14.u/4 = add tmp/h.14.u/1 tmp/h.14.u/2
define d/dh.14.u = add tmp/h.14.u/4 tmp/h.14.u/3

# h.14.a = add h.14.a.1 b
declare intvar tmp/h.14.a/1 [192]
declare intvar tmp/h.14.a/2 [192]
declare intvar tmp/h.14.a/3 [192]
declare intvar tmp/h.14.a/4 [192]
declare intvar d/dh.14.a [192]
define tmp/h.14.a/1 = unslice d/dh.14.r.3 h.14.a 0
define tmp/h.14.a/2 = unslice d/dh.14.z.3 h.14.a 64
define tmp/h.14.a/3 = unslice d/dh.14.7 h.14.a 128
define tmp/h.14.a/4 = add tmp/h.14.a/1 tmp/h.14.a/2
define d/dh.14.a = add tmp/h.14.a/4 tmp/h.14.a/3

# h.14.1 = index h.2 14
declare intvar d/dh.14.1 [16]
define d/dh.14.1 = matmul dh.15.a.1/dh.15.1 d/dh.14.a

# h.13 = add h.13.2 h.13.9
declare intvar tmp/h.13/1 [64]
declare intvar tmp/h.13/2 [64]
declare intvar d/dh.13 [64]
define tmp/h.13/1 = matmul dh.15.u/dh.14 d/dh.14.u
define tmp/h.13/2 = mul d/dh.14 h.14.z
define d/dh.13 = add tmp/h.13/1 tmp/h.13/2

# h.13.8 = tanh h.13.7
declare intvar d/dh.13.8 [64]
declare intvar dh.13.8/dh.13.7 [64]
define d/dh.13.8 = mul d/dh.13 h.13.3
define dh.13.8/dh.13.7 = tanh_deriv h.13.7

# h.13.7 = add h.13.4 h.13.6
declare intvar d/dh.13.7 [64]
define d/dh.13.7 = mul d/dh.13.8 dh.13.8/dh.13.7

# h.13.5 = slice h.13.u 128 192
declare intvar d/dh.13.5 [64]
define d/dh.13.5 = mul d/dh.13.7 h.13.r

# h.13.3 = sub 1 h.13.z
declare intvar d/dh.13.3 [64]
define d/dh.13.3 = mul d/dh.13 h.13.8

# h.13.z = logistic h.13.z.3
declare intvar tmp/h.13.z/1 [64]
declare intvar tmp/h.13.z/2 [64]
declare intvar d/dh.13.z [64]
declare intvar dh.13.z/dh.13.z.3 [64]
define tmp/h.13.z/1 = mul d/dh.13 h.12
define tmp/h.13.z/2 = neg d/dh.13.3
define d/dh.13.z = add tmp/h.13.z/1 tmp/h.13.z/2
define dh.13.z/dh.13.z.3 = logistic_deriv h.13.z.3

# h.13.z.3 = add h.13.z.1 h.13.z.2
declare intvar d/dh.13.z.3 [64]
define d/dh.13.z.3 = mul d/dh.13.z dh.13.z/dh.13.z.3

# h.13.r = logistic h.13.r.3
declare intvar d/dh.13.r [64]
declare intvar dh.13.r/dh.13.r.3 [64]
define d/dh.13.r = mul d/dh.13.7 h.13.5
define dh.13.r/dh.13.r.3 = logistic_deriv h.13.r.3

# h.13.r.3 = add h.13.r.1 h.13.r.2
declare intvar d/dh.13.r.3 [64]
define d/dh.13.r.3 = mul d/dh.13.r dh.13.r/dh.13.r.3

# h.13.u = matmul U h.12
declare intvar tmp/h.13.u/1 [192]
declare intvar tmp/h.13.u/2 [192]
declare intvar tmp/h.13.u/3 [192]
declare intvar tmp/h.13.u/4 [192]
declare intvar d/dh.13.u [192]
define tmp/h.13.u/1 = unslice d/dh.13.r.3 h.13.u 0
define tmp/h.13.u/2 = unslice d/dh.13.z.3 h.13.u 64
define tmp/h.13.u/3 = unslice d/dh.13.5 h.13.u 128
define tmp/h.13.u/4 = add tmp/h.13.u/1 tmp/h.13.u/2
define d/dh.13.u = add tmp/h.13.u/4 tmp/h.13.u/3

# h.13.a = add h.13.a.1 b
declare intvar tmp/h.13.a/1 [192]
declare intvar tmp/h.13.a/2 [192]
declare intvar tmp/h.13.a/3 [192]
declare intvar tmp/h.13.a/4 [192]
declare intvar d/dh.13.a [192]
define tmp/h.13.a/1 = unslice d/dh.13.r.3 h.13.a 0
define tmp/h.13.a/2 = unslice d/dh.13.z.3 h.13.a 64
define tmp/h.13.a/3 = unslice d/dh.13.7 h.13.a 128
define tmp/h.13.a/4 = add tmp/h.13.a/1 tmp/h.13.a/2
define d/dh.13.a = add tmp/h.13.a/4 tmp/h.13.a/3

# h.13.1 = index h.2 13
declare intvar d/dh.13.1 [16]
define d/dh.13.1 = matmul dh.15.a.1/dh.15.1 d/dh.13.a

# h.12 = add h.12.2 h.12.9
declare intvar tmp/h.12/1 [64]
declare intvar tmp/h.12/2 [64]
declare intvar d/dh.12 [64]
define tmp/h.12/1 = matmul dh.15.u/dh.14 d/dh.13.u
define tmp/h.12/2 = mul d/dh.13 h.13.z
define d/dh.12 = add tmp/h.12/1 tmp/h.12/2

# h.12.8 = tanh h.12.7
declare intvar d/dh.12.8 [64]
declare intvar dh.12.8/dh.12.7 [64]
define d/dh.12.8 = mul d/dh.12 h.12.3
define dh.12.8/dh.12.7 = tanh_deriv h.12.7

# h.12.7 = add h.12.4 h.12.6
declare intvar d/dh.12.7 [64]
define d/dh.12.7 = mul d/dh.12.8 dh.12.8/dh.12.7

# h.12.5 = slice h.12.u 128 192
declare intvar d/dh.12.5 [64]
define d/dh.12.5 = mul d/dh.12.7 h.12.r

# h.12.3 = sub 1 h.12.z
declare intvar d/dh.12.3 [64]
define d/dh.12.3 = mul d/dh.12 h.12.8

# h.12.z = logistic h.12.z.3
declare intvar tmp/h.12.z/1 [64]
declare intvar tmp/h.12.z/2 [64]
declare intvar d/dh.12.z [64]
declare intvar dh.12.z/dh.12.z.3 [64]
define tmp/h.12.z/1 = mul d/dh.12 h.11
define tmp/h.12.z/2 = neg d/dh.12.3
define d/dh.12.z = add tmp/h.12.z/1 tmp/h.12.z/2
define dh.12.z/dh.12.z.3 = logistic_deriv h.12.z.3

# h.12.z.3 = add h.12.z.1 h.12.z.2
declare intvar d/dh.12.z.3 [64]
define d/dh.12.z.3 = mul d/dh.12.z dh.12.z/dh.12.z.3

# h.12.r = logistic h.12.r.3
declare intvar d/dh.12.r [64]
declare intvar dh.12.r/dh.12.r.3 [64]
define d/dh.12.r = mul d/dh.12.7 h.12.5
define dh.12.r/dh.12.r.3 = logistic_deriv h.12.r.3

# h.12.r.3 = add h.12.r.1 h.12.r.2
declare intvar d/dh.12.r.3 [64]
define d/dh.12.r.3 = mul d/dh.12.r dh.12.r/dh.12.r.3

# h.12.u = matmul U h.11
declare intvar tmp/h.12.u/1 [192]
declare intvar tmp/h.12.u/2 [192]
declare intvar tmp/h.12.u/3 [192]
declare intvar tmp/h.12.u/4 [192]
declare intvar d/dh.12.u [192]
define tmp/h.12.u/1 = unslice d/dh.12.r.3 h.12.u 0
define tmp/h.12.u/2 = unslice d/dh.12.z.3 h.12.u 64
define tmp/h.12.u/3 = unslice d/dh.12.5 h.12.u 128
define tmp/h.12.u/4 = add tmp/h.12.u/1 tmp/h.12.u/2
define d/dh.12.u = add tmp/h.12.u/4 tmp/h.12.u/3

# h.12.a = add h.12.a.1 b
declare intvar tmp/h.12.a/1 [192]
declare intvar tmp/h.12.a/2 [192]
declare intvar tmp/h.12.a/3 [192]
declare intvar tmp/h.12.a/4 [192]
declare intvar d/dh.12.a [192]
define tmp/h.12.a/1 = unslice d/dh.12.r.3 h.12.a 0
define tmp/h.12.a/2 = unslice d/dh.12.z.3 h.12.a 64
define tmp/h.12.a/3 = unslice d/dh.12.7 h.12.a 128
define tmp/h.12.a/4 = add tmp/h.12.a/1 tmp/h.12.a/2
define d/dh.12.a = add tmp/h.12.a/4 tmp/h.12.a/3

# h.12.1 = index h.2 12
declare intvar d/dh.12.1 [16]
define d/dh.12.1 = matmul dh.15.a.1/dh.15.1 d/dh.12.a

# h.11 = add h.11.2 h.11.9
declare intvar tmp/h.11/1 [64]
declare intvar tmp/h.11/2 [64]
declare intvar d/dh.11 [64]
define tmp/h.11/1 = matmul dh.15.u/dh.14 d/dh.12.u
define tmp/h.11/2 = mul d/dh.12 h.12.z
define d/dh.11 = add tmp/h.11/1 tmp/h.11/2

# h.11.8 = tanh h.11.7
declare intvar d/dh.11.8 [64]
declare intvar dh.11.8/dh.11.7 [64]
define d/dh.11.8 = mul d/dh.11 h.11.3
define dh.11.8/dh.11.7 = tanh_deriv h.11.7

# h.11.7 = add h.11.4 h.11.6
declare intvar d/dh.11.7 [64]
define d/dh.11.7 = mul d/dh.11.8 dh.11.8/dh.11.7

# h.11.5 = slice h.11.u 128 192
declare intvar d/dh.11.5 [64]
define d/dh.11.5 = mul d/dh.11.7 h.11.r

# h.11.3 = sub 1 h.11.z
declare intvar d/dh.11.3 [64]
define d/dh.11.3 = mul d/dh.11 h.11.8

# h.11.z = logistic h.11.z.3
declare intvar tmp/h.11.z/1 [64]
declare intvar tmp/h.11.z/2 [64]
declare intvar d/dh.11.z [64]
declare intvar dh.11.z/dh.11.z.3 [64]
define tmp/h.11.z/1 = mul d/dh.11 h.10
define tmp/h.11.z/2 = neg d/dh.11.3
define d/dh.11.z = add tmp/h.11.z/1 tmp/h.11.z/2
define dh.11.z/dh.11.z.3 = logistic_deriv h.11.z.3

# h.11.z.3 = add h.11.z.1 h.11.z.2
declare intvar d/dh.11.z.3 [64]
define d/dh.11.z.3 = mul d/dh.11.z dh.11.z/dh.11.z.3

# h.11.r = logistic h.11.r.3
declare intvar d/dh.11.r [64]
declare intvar dh.11.r/dh.11.r.3 [64]
define d/dh.11.r = mul d/dh.11.7 h.11.5
define dh.11.r/dh.11.r.3 = logistic_deriv h.11.r.3

# h.11.r.3 = add h.11.r.1 h.11.r.2
declare intvar d/dh.11.r.3 [64]
define d/dh.11.r.3 = mul d/dh.11.r dh.11.r/dh.11.r.3

# h.11.u = matmul U h.10
declare intvar tmp/h.11.u/1 [192]
declare intvar tmp/h.11.u/2 [192]
declare intvar tmp/h.11.u/3 [192]
declare intvar tmp/h.11.u/4 [192]
declare intvar d/dh.11.u [192]
define tmp/h.11.u/1 = unslice d/dh.11.r.3 h.11.u 0
define tmp/h.11.u/2 = unslice d/dh.11.z.3 h.11.u 64
define tmp/h.11.u/3 = unslice d/dh.11.5 h.11.u 128
define tmp/h.11.u/4 = add tmp/h.11.u/1 tmp/h.11.u/2
define d/dh.11.u = add tmp/h.11.u/4 tmp/h.11.u/3

# h.11.a = add h.11.a.1 b
declare intvar tmp/h.11.a/1 [192]
declare intvar tmp/h.11.a/2 [192]
declare intvar tmp/h.11.a/3 [192]
declare intvar tmp/h.11.a/4 [192]
declare intvar d/dh.11.a [192]
define tmp/h.11.a/1 = unslice d/dh.11.r.3 h.11.a 0
define tmp/h.11.a/2 = unslice d/dh.11.z.3 h.11.a 64
define tmp/h.11.a/3 = unslice d/dh.11.7 h.11.a 128
define tmp/h.11.a/4 = add tmp/h.11.a/1 tmp/h.11.a/2
define d/dh.11.a = add tmp/h.11.a/4 tmp/h.11.a/3

# h.11.1 = index h.2 11
declare intvar d/dh.11.1 [16]
define d/dh.11.1 = matmul dh.15.a.1/dh.15.1 d/dh.11.a

# h.10 = add h.10.2 h.10.9
declare intvar tmp/h.10/1 [64]
declare intvar tmp/h.10/2 [64]
declare intvar d/dh.10 [64]
define tmp/h.10/1 = matmul dh.15.u/dh.14 d/dh.11.u
define tmp/h.10/2 = mul d/dh.11 h.11.z
define d/dh.10 = add tmp/h.10/1 tmp/h.10/2

# h.10.8 = tanh h.10.7
declare intvar d/dh.10.8 [64]
declare intvar dh.10.8/dh.10.7 [64]
define d/dh.10.8 = mul d/dh.10 h.10.3
define dh.10.8/dh.10.7 = tanh_deriv h.10.7

# h.10.7 = add h.10.4 h.10.6
declare intvar d/dh.10.7 [64]
define d/dh.10.7 = mul d/dh.10.8 dh.10.8/dh.10.7

# h.10.5 = slice h.10.u 128 192
declare intvar d/dh.10.5 [64]
define d/dh.10.5 = mul d/dh.10.7 h.10.r

# h.10.3 = sub 1 h.10.z
declare intvar d/dh.10.3 [64]
define d/dh.10.3 = mul d/dh.10 h.10.8

# h.10.z = logistic h.10.z.3
declare intvar tmp/h.10.z/1 [64]
declare intvar tmp/h.10.z/2 [64]
declare intvar d/dh.10.z [64]
declare intvar dh.10.z/dh.10.z.3 [64]
define tmp/h.10.z/1 = mul d/dh.10 h.9
define tmp/h.10.z/2 = neg d/dh.10.3
define d/dh.10.z = add tmp/h.10.z/1 tmp/h.10.z/2
define dh.10.z/dh.10.z.3 = logistic_deriv h.10.z.3

# h.10.z.3 = add h.10.z.1 h.10.z.2
declare intvar d/dh.10.z.3 [64]
define d/dh.10.z.3 = mul d/dh.10.z dh.10.z/dh.10.z.3

# h.10.r = logistic h.10.r.3
declare intvar d/dh.10.r [64]
declare intvar dh.10.r/dh.10.r.3 [64]
define d/dh.10.r = mul d/dh.10.7 h.10.5
define dh.10.r/dh.10.r.3 = logistic_deriv h.10.r.3

# h.10.r.3 = add h.10.r.1 h.10.r.2
declare intvar d/dh.10.r.3 [64]
define d/dh.10.r.3 = mul d/dh.10.r dh.10.r/dh.10.r.3

# h.10.u = matmul U h.9
declare intvar tmp/h.10.u/1 [192]
declare intvar tmp/h.10.u/2 [192]
declare intvar tmp/h.10.u/3 [192]
declare intvar tmp/h.10.u/4 [192]
declare intvar d/dh.10.u [192]
define tmp/h.10.u/1 = unslice d/dh.10.r.3 h.10.u 0
define tmp/h.10.u/2 = unslice d/dh.10.z.3 h.10.u 64
define tmp/h.10.u/3 = unslice d/dh.10.5 h.10.u 128
define tmp/h.10.u/4 = add tmp/h.10.u/1 tmp/h.10.u/2
define d/dh.10.u = add tmp/h.10.u/4 tmp/h.10.u/3

# h.10.a = add h.10.a.1 b
declare intvar tmp/h.10.a/1 [192]
declare intvar tmp/h.10.a/2 [192]
declare intvar tmp/h.10.a/3 [192]
declare intvar tmp/h.10.a/4 [192]
declare intvar d/dh.10.a [192]
define tmp/h.10.a/1 = unslice d/dh.10.r.3 h.10.a 0
define tmp/h.10.a/2 = unslice d/dh.10.z.3 h.10.a 64
define tmp/h.10.a/3 = unslice d/dh.10.7 h.10.a 128
define tmp/h.10.a/4 = add tmp/h.10.a/1 tmp/h.10.a/2
define d/dh.10.a = add tmp/h.10.a/4 tmp/h.10.a/3

# h.10.1 = index h.2 10
declare intvar d/dh.10.1 [16]
define d/dh.10.1 = matmul dh.15.a.1/dh.15.1 d/dh.10.a

# h.9 = add h.9.2 h.9.9
declare intvar tmp/h.9/1 [64]
declare intvar tmp/h.9/2 [64]
declare intvar d/dh.9 [64]
define tmp/h.9/1 = matmul dh.15.u/dh.14 d/dh.10.u
define tmp/h.9/2 = mul d/dh.10 h.10.z
define d/dh.9 = add tmp/h.9/1 tmp/h.9/2

# h.9.8 = tanh h.9.7
declare intvar d/dh.9.8 [64]
declare intvar dh.9.8/dh.9.7 [64]
define d/dh.9.8 = mul d/dh.9 h.9.3
define dh.9.8/dh.9.7 = tanh_deriv h.9.7

# h.9.7 = add h.9.4 h.9.6
declare intvar d/dh.9.7 [64]
define d/dh.9.7 = mul d/dh.9.8 dh.9.8/dh.9.7

# h.9.5 = slice h.9.u 128 192
declare intvar d/dh.9.5 [64]
define d/dh.9.5 = mul d/dh.9.7 h.9.r

# h.9.3 = sub 1 h.9.z
declare intvar d/dh.9.3 [64]
define d/dh.9.3 = mul d/dh.9 h.9.8

# h.9.z = logistic h.9.z.3
declare intvar tmp/h.9.z/1 [64]
declare intvar tmp/h.9.z/2 [64]
declare intvar d/dh.9.z [64]
declare intvar dh.9.z/dh.9.z.3 [64]
define tmp/h.9.z/1 = mul d/dh.9 h.8
define tmp/h.9.z/2 = neg d/dh.9.3
define d/dh.9.z = add tmp/h.9.z/1 tmp/h.9.z/2
define dh.9.z/dh.9.z.3 = logistic_deriv h.9.z.3

# h.9.z.3 = add h.9.z.1 h.9.z.2
declare intvar d/dh.9.z.3 [64]
define d/dh.9.z.3 = mul d/dh.9.z dh.9.z/dh.9.z.3

# h.9.r = logistic h.9.r.3
declare intvar d/dh.9.r [64]
declare intvar dh.9.r/dh.9.r.3 [64]
define d/dh.9.r = mul d/dh.9.7 h.9.5
define dh.9.r/dh.9.r.3 = logistic_deriv h.9.r.3

# h.9.r.3 = add h.9.r.1 h.9.r.2
declare intvar d/dh.9.r.3 [64]
define d/dh.9.r.3 = mul d/dh.9.r dh.9.r/dh.9.r.3

# h.9.u = matmul U h.8
declare intvar tmp/h.9.u/1 [192]
declare intvar tmp/h.9.u/2 [192]
declare intvar tmp/h.9.u/3 [192]
declare intvar tmp/h.9.u/4 [192]
declare intvar d/dh.9.u [192]
define tmp/h.9.u/1 = unslice d/dh.9.r.3 h.9.u 0
define tmp/h.9.u/2 = unslice d/dh.9.z.3 h.9.u 64
define tmp/h.9.u/3 = unslice d/dh.9.5 h.9.u 128
define tmp/h.9.u/4 = add tmp/h.9.u/1 tmp/h.9.u/2
define d/dh.9.u = add tmp/h.9.u/4 tmp/h.9.u/3

# h.9.a = add h.9.a.1 b
declare intvar tmp/h.9.a/1 [192]
declare intvar tmp/h.9.a/2 [192]
declare intvar tmp/h.9.a/3 [192]
declare intvar tmp/h.9.a/4 [192]
declare intvar d/dh.9.a [192]
define tmp/h.9.a/1 = unslice d/dh.9.r.3 h.9.a 0
define tmp/h.9.a/2 = unslice d/dh.9.z.3 h.9.a 64
define tmp/h.9.a/3 = unslice d/dh.9.7 h.9.a 128
define tmp/h.9.a/4 = add tmp/h.9.a/1 tmp/h.9.a/2
define d/dh.9.a = add tmp/h.9.a/4 tmp/h.9.a/3

# h.9.1 = index h.2 9
declare intvar d/dh.9.1 [16]
define d/dh.9.1 = matmul dh.15.a.1/dh.15.1 d/dh.9.a

# h.8 = add h.8.2 h.8.9
declare intvar tmp/h.8/1 [64]
declare intvar tmp/h.8/2 [64]
declare intvar d/dh.8 [64]
define tmp/h.8/1 = matmul dh.15.u/dh.14 d/dh.9.u
define tmp/h.8/2 = mul d/dh.9 h.9.z
define d/dh.8 = add tmp/h.8/1 tmp/h.8/2

# h.8.8 = tanh h.8.7
declare intvar d/dh.8.8 [64]
declare intvar dh.8.8/dh.8.7 [64]
define d/dh.8.8 = mul d/dh.8 h.8.3
define dh.8.8/dh.8.7 = tanh_deriv h.8.7

# h.8.7 = add h.8.4 h.8.6
declare intvar d/dh.8.7 [64]
define d/dh.8.7 = mul d/dh.8.8 dh.8.8/dh.8.7

# h.8.5 = slice h.8.u 128 192
declare intvar d/dh.8.5 [64]
define d/dh.8.5 = mul d/dh.8.7 h.8.r

# h.8.3 = sub 1 h.8.z
declare intvar d/dh.8.3 [64]
define d/dh.8.3 = mul d/dh.8 h.8.8

# h.8.z = logistic h.8.z.3
declare intvar tmp/h.8.z/1 [64]
declare intvar tmp/h.8.z/2 [64]
declare intvar d/dh.8.z [64]
declare intvar dh.8.z/dh.8.z.3 [64]
define tmp/h.8.z/1 = mul d/dh.8 h.7
define tmp/h.8.z/2 = neg d/dh.8.3
define d/dh.8.z = add tmp/h.8.z/1 tmp/h.8.z/2
define dh.8.z/dh.8.z.3 = logistic_deriv h.8.z.3

# h.8.z.3 = add h.8.z.1 h.8.z.2
declare intvar d/dh.8.z.3 [64]
define d/dh.8.z.3 = mul d/dh.8.z dh.8.z/dh.8.z.3

# h.8.r = logistic h.8.r.3
declare intvar d/dh.8.r [64]
declare intvar dh.8.r/dh.8.r.3 [64]
define d/dh.8.r = mul d/dh.8.7 h.8.5
define dh.8.r/dh.8.r.3 = logistic_deriv h.8.r.3

# h.8.r.3 = add h.8.r.1 h.8.r.2
declare intvar d/dh.8.r.3 [64]
define d/dh.8.r.3 = mul d/dh.8.r dh.8.r/dh.8.r.3

# h.8.u = matmul U h.7
declare intvar tmp/h.8.u/1 [192]
declare intvar tmp/h.8.u/2 [192]
declare intvar tmp/h.8.u/3 [192]
declare intvar tmp/h.8.u/4 [192]
declare intvar d/dh.8.u [192]
define tmp/h.8.u/1 = unslice d/dh.8.r.3 h.8.u 0
define tmp/h.8.u/2 = unslice d/dh.8.z.3 h.8.u 64
define tmp/h.8.u/3 = unslice d/dh.8.5 h.8.u 128
define tmp/h.8.u/4 = add tmp/h.8.u/1 tmp/h.8.u/2
define d/dh.8.u = add tmp/h.8.u/4 tmp/h.8.u/3

# h.8.a = add h.8.a.1 b
declare intvar tmp/h.8.a/1 [192]
declare intvar tmp/h.8.a/2 [192]
declare intvar tmp/h.8.a/3 [192]
declare intvar tmp/h.8.a/4 [192]
declare intvar d/dh.8.a [192]
define tmp/h.8.a/1 = unslice d/dh.8.r.3 h.8.a 0
define tmp/h.8.a/2 = unslice d/dh.8.z.3 h.8.a 64
define tmp/h.8.a/3 = unslice d/dh.8.7 h.8.a 128
define tmp/h.8.a/4 = add tmp/h.8.a/1 tmp/h.8.a/2
define d/dh.8.a = add tmp/h.8.a/4 tmp/h.8.a/3

# h.8.1 = index h.2 8
declare intvar d/dh.8.1 [16]
define d/dh.8.1 = matmul dh.15.a.1/dh.15.1 d/dh.8.a

# h.7 = add h.7.2 h.7.9
declare intvar tmp/h.7/1 [64]
declare intvar tmp/h.7/2 [64]
declare intvar d/dh.7 [64]
define tmp/h.7/1 = matmul dh.15.u/dh.14 d/dh.8.u
define tmp/h.7/2 = mul d/dh.8 h.8.z
define d/dh.7 = add tmp/h.7/1 tmp/h.7/2

# h.7.8 = tanh h.7.7
declare intvar d/dh.7.8 [64]
declare intvar dh.7.8/dh.7.7 [64]
define d/dh.7.8 = mul d/dh.7 h.7.3
define dh.7.8/dh.7.7 = tanh_deriv h.7.7

# h.7.7 = add h.7.4 h.7.6
declare intvar d/dh.7.7 [64]
define d/dh.7.7 = mul d/dh.7.8 dh.7.8/dh.7.7

# h.7.5 = slice h.7.u 128 192
declare intvar d/dh.7.5 [64]
define d/dh.7.5 = mul d/dh.7.7 h.7.r

# h.7.3 = sub 1 h.7.z
declare intvar d/dh.7.3 [64]
define d/dh.7.3 = mul d/dh.7 h.7.8

# h.7.z = logistic h.7.z.3
declare intvar tmp/h.7.z/1 [64]
declare intvar tmp/h.7.z/2 [64]
declare intvar d/dh.7.z [64]
declare intvar dh.7.z/dh.7.z.3 [64]
define tmp/h.7.z/1 = mul d/dh.7 h.6
define tmp/h.7.z/2 = neg d/dh.7.3
define d/dh.7.z = add tmp/h.7.z/1 tmp/h.7.z/2
define dh.7.z/dh.7.z.3 = logistic_deriv h.7.z.3

# h.7.z.3 = add h.7.z.1 h.7.z.2
declare intvar d/dh.7.z.3 [64]
define d/dh.7.z.3 = mul d/dh.7.z dh.7.z/dh.7.z.3

# h.7.r = logistic h.7.r.3
declare intvar d/dh.7.r [64]
declare intvar dh.7.r/dh.7.r.3 [64]
define d/dh.7.r = mul d/dh.7.7 h.7.5
define dh.7.r/dh.7.r.3 = logistic_deriv h.7.r.3

# h.7.r.3 = add h.7.r.1 h.7.r.2
declare intvar d/dh.7.r.3 [64]
define d/dh.7.r.3 = mul d/dh.7.r dh.7.r/dh.7.r.3

# h.7.u = matmul U h.6
declare intvar tmp/h.7.u/1 [192]
declare intvar tmp/h.7.u/2 [192]
declare intvar tmp/h.7.u/3 [192]
declare intvar tmp/h.7.u/4 [192]
declare intvar d/dh.7.u [192]
define tmp/h.7.u/1 = unslice d/dh.7.r.3 h.7.u 0
define tmp/h.7.u/2 = unslice d/dh.7.z.3 h.7.u 64
define tmp/h.7.u/3 = unslice d/dh.7.5 h.7.u 128
define tmp/h.7.u/4 = add tmp/h.7.u/1 tmp/h.7.u/2
define d/dh.7.u = add tmp/h.7.u/4 tmp/h.7.u/3

# h.7.a = add h.7.a.1 b
declare intvar tmp/h.7.a/1 [192]
declare intvar tmp/h.7.a/2 [192]
declare intvar tmp/h.7.a/3 [192]
declare intvar tmp/h.7.a/4 [192]
declare intvar d/dh.7.a [192]
define tmp/h.7.a/1 = unslice d/dh.7.r.3 h.7.a 0
define tmp/h.7.a/2 = unslice d/dh.7.z.3 h.7.a 64
define tmp/h.7.a/3 = unslice d/dh.7.7 h.7.a 128
define tmp/h.7.a/4 = add tmp/h.7.a/1 tmp/h.7.a/2
define d/dh.7.a = add tmp/h.7.a/4 tmp/h.7.a/3

# h.7.1 = index h.2 7
declare intvar d/dh.7.1 [16]
define d/dh.7.1 = matmul dh.15.a.1/dh.15.1 d/dh.7.a

# h.6 = add h.6.2 h.6.9
declare intvar tmp/h.6/1 [64]
declare intvar tmp/h.6/2 [64]
declare intvar d/dh.6 [64]
define tmp/h.6/1 = matmul dh.15.u/dh.14 d/dh.7.u
define tmp/h.6/2 = mul d/dh.7 h.7.z
define d/dh.6 = add tmp/h.6/1 tmp/h.6/2

# h.6.8 = tanh h.6.7
declare intvar d/dh.6.8 [64]
declare intvar dh.6.8/dh.6.7 [64]
define d/dh.6.8 = mul d/dh.6 h.6.3
define dh.6.8/dh.6.7 = tanh_deriv h.6.7

# h.6.7 = add h.6.4 h.6.6
declare intvar d/dh.6.7 [64]
define d/dh.6.7 = mul d/dh.6.8 dh.6.8/dh.6.7

# h.6.5 = slice h.6.u 128 192
declare intvar d/dh.6.5 [64]
define d/dh.6.5 = mul d/dh.6.7 h.6.r

# h.6.3 = sub 1 h.6.z
declare intvar d/dh.6.3 [64]
define d/dh.6.3 = mul d/dh.6 h.6.8

# h.6.z = logistic h.6.z.3
declare intvar tmp/h.6.z/1 [64]
declare intvar tmp/h.6.z/2 [64]
declare intvar d/dh.6.z [64]
declare intvar dh.6.z/dh.6.z.3 [64]
define tmp/h.6.z/1 = mul d/dh.6 h.5
define tmp/h.6.z/2 = neg d/dh.6.3
define d/dh.6.z = add tmp/h.6.z/1 tmp/h.6.z/2
define dh.6.z/dh.6.z.3 = logistic_deriv h.6.z.3

# h.6.z.3 = add h.6.z.1 h.6.z.2
declare intvar d/dh.6.z.3 [64]
define d/dh.6.z.3 = mul d/dh.6.z dh.6.z/dh.6.z.3

# h.6.r = logistic h.6.r.3
declare intvar d/dh.6.r [64]
declare intvar dh.6.r/dh.6.r.3 [64]
define d/dh.6.r = mul d/dh.6.7 h.6.5
define dh.6.r/dh.6.r.3 = logistic_deriv h.6.r.3

# h.6.r.3 = add h.6.r.1 h.6.r.2
declare intvar d/dh.6.r.3 [64]
define d/dh.6.r.3 = mul d/dh.6.r dh.6.r/dh.6.r.3

# h.6.u = matmul U h.5
declare intvar tmp/h.6.u/1 [192]
declare intvar tmp/h.6.u/2 [192]
declare intvar tmp/h.6.u/3 [192]
declare intvar tmp/h.6.u/4 [192]
declare intvar d/dh.6.u [192]
define tmp/h.6.u/1 = unslice d/dh.6.r.3 h.6.u 0
define tmp/h.6.u/2 = unslice d/dh.6.z.3 h.6.u 64
define tmp/h.6.u/3 = unslice d/dh.6.5 h.6.u 128
define tmp/h.6.u/4 = add tmp/h.6.u/1 tmp/h.6.u/2
define d/dh.6.u = add tmp/h.6.u/4 tmp/h.6.u/3

# h.6.a = add h.6.a.1 b
declare intvar tmp/h.6.a/1 [192]
declare intvar tmp/h.6.a/2 [192]
declare intvar tmp/h.6.a/3 [192]
declare intvar tmp/h.6.a/4 [192]
declare intvar d/dh.6.a [192]
define tmp/h.6.a/1 = unslice d/dh.6.r.3 h.6.a 0
define tmp/h.6.a/2 = unslice d/dh.6.z.3 h.6.a 64
define tmp/h.6.a/3 = unslice d/dh.6.7 h.6.a 128
define tmp/h.6.a/4 = add tmp/h.6.a/1 tmp/h.6.a/2
define d/dh.6.a = add tmp/h.6.a/4 tmp/h.6.a/3

# h.6.1 = index h.2 6
declare intvar d/dh.6.1 [16]
define d/dh.6.1 = matmul dh.15.a.1/dh.15.1 d/dh.6.a

# h.5 = add h.5.2 h.5.9
declare intvar tmp/h.5/1 [64]
declare intvar tmp/h.5/2 [64]
declare intvar d/dh.5 [64]
define tmp/h.5/1 = matmul dh.15.u/dh.14 d/dh.6.u
define tmp/h.5/2 = mul d/dh.6 h.6.z
define d/dh.5 = add tmp/h.5/1 tmp/h.5/2

# h.5.8 = tanh h.5.7
declare intvar d/dh.5.8 [64]
declare intvar dh.5.8/dh.5.7 [64]
define d/dh.5.8 = mul d/dh.5 h.5.3
define dh.5.8/dh.5.7 = tanh_deriv h.5.7

# h.5.7 = add h.5.4 h.5.6
declare intvar d/dh.5.7 [64]
define d/dh.5.7 = mul d/dh.5.8 dh.5.8/dh.5.7

# h.5.5 = slice h.5.u 128 192
declare intvar d/dh.5.5 [64]
define d/dh.5.5 = mul d/dh.5.7 h.5.r

# h.5.3 = sub 1 h.5.z
declare intvar d/dh.5.3 [64]
define d/dh.5.3 = mul d/dh.5 h.5.8

# h.5.z = logistic h.5.z.3
declare intvar tmp/h.5.z/1 [64]
declare intvar tmp/h.5.z/2 [64]
declare intvar d/dh.5.z [64]
declare intvar dh.5.z/dh.5.z.3 [64]
define tmp/h.5.z/1 = mul d/dh.5 h.4
define tmp/h.5.z/2 = neg d/dh.5.3
define d/dh.5.z = add tmp/h.5.z/1 tmp/h.5.z/2
define dh.5.z/dh.5.z.3 = logistic_deriv h.5.z.3

# h.5.z.3 = add h.5.z.1 h.5.z.2
declare intvar d/dh.5.z.3 [64]
define d/dh.5.z.3 = mul d/dh.5.z dh.5.z/dh.5.z.3

# h.5.r = logistic h.5.r.3
declare intvar d/dh.5.r [64]
declare intvar dh.5.r/dh.5.r.3 [64]
define d/dh.5.r = mul d/dh.5.7 h.5.5
define dh.5.r/dh.5.r.3 = logistic_deriv h.5.r.3

# h.5.r.3 = add h.5.r.1 h.5.r.2
declare intvar d/dh.5.r.3 [64]
define d/dh.5.r.3 = mul d/dh.5.r dh.5.r/dh.5.r.3

# h.5.u = matmul U h.4
declare intvar tmp/h.5.u/1 [192]
declare intvar tmp/h.5.u/2 [192]
declare intvar tmp/h.5.u/3 [192]
declare intvar tmp/h.5.u/4 [192]
declare intvar d/dh.5.u [192]
define tmp/h.5.u/1 = unslice d/dh.5.r.3 h.5.u 0
define tmp/h.5.u/2 = unslice d/dh.5.z.3 h.5.u 64
define tmp/h.5.u/3 = unslice d/dh.5.5 h.5.u 128
define tmp/h.5.u/4 = add tmp/h.5.u/1 tmp/h.5.u/2
define d/dh.5.u = add tmp/h.5.u/4 tmp/h.5.u/3

# h.5.a = add h.5.a.1 b
declare intvar tmp/h.5.a/1 [192]
declare intvar tmp/h.5.a/2 [192]
declare intvar tmp/h.5.a/3 [192]
declare intvar tmp/h.5.a/4 [192]
declare intvar d/dh.5.a [192]
define tmp/h.5.a/1 = unslice d/dh.5.r.3 h.5.a 0
define tmp/h.5.a/2 = unslice d/dh.5.z.3 h.5.a 64
define tmp/h.5.a/3 = unslice d/dh.5.7 h.5.a 128
define tmp/h.5.a/4 = add tmp/h.5.a/1 tmp/h.5.a/2
define d/dh.5.a = add tmp/h.5.a/4 tmp/h.5.a/3

# h.5.1 = index h.2 5
declare intvar d/dh.5.1 [16]
define d/dh.5.1 = matmul dh.15.a.1/dh.15.1 d/dh.5.a

# h.4 = add h.4.2 h.4.9
declare intvar tmp/h.4/1 [64]
declare intvar tmp/h.4/2 [64]
declare intvar d/dh.4 [64]
define tmp/h.4/1 = matmul dh.15.u/dh.14 d/dh.5.u
define tmp/h.4/2 = mul d/dh.5 h.5.z
define d/dh.4 = add tmp/h.4/1 tmp/h.4/2

# h.4.8 = tanh h.4.7
declare intvar d/dh.4.8 [64]
declare intvar dh.4.8/dh.4.7 [64]
define d/dh.4.8 = mul d/dh.4 h.4.3
define dh.4.8/dh.4.7 = tanh_deriv h.4.7

# h.4.7 = add h.4.4 h.4.6
declare intvar d/dh.4.7 [64]
define d/dh.4.7 = mul d/dh.4.8 dh.4.8/dh.4.7

# h.4.5 = slice h.4.u 128 192
declare intvar d/dh.4.5 [64]
define d/dh.4.5 = mul d/dh.4.7 h.4.r

# h.4.3 = sub 1 h.4.z
declare intvar d/dh.4.3 [64]
define d/dh.4.3 = mul d/dh.4 h.4.8

# h.4.z = logistic h.4.z.3
declare intvar tmp/h.4.z/1 [64]
declare intvar tmp/h.4.z/2 [64]
declare intvar d/dh.4.z [64]
declare intvar dh.4.z/dh.4.z.3 [64]
define tmp/h.4.z/1 = mul d/dh.4 h.3
define tmp/h.4.z/2 = neg d/dh.4.3
define d/dh.4.z = add tmp/h.4.z/1 tmp/h.4.z/2
define dh.4.z/dh.4.z.3 = logistic_deriv h.4.z.3

# h.4.z.3 = add h.4.z.1 h.4.z.2
declare intvar d/dh.4.z.3 [64]
define d/dh.4.z.3 = mul d/dh.4.z dh.4.z/dh.4.z.3

# h.4.r = logistic h.4.r.3
declare intvar d/dh.4.r [64]
declare intvar dh.4.r/dh.4.r.3 [64]
define d/dh.4.r = mul d/dh.4.7 h.4.5
define dh.4.r/dh.4.r.3 = logistic_deriv h.4.r.3

# h.4.r.3 = add h.4.r.1 h.4.r.2
declare intvar d/dh.4.r.3 [64]
define d/dh.4.r.3 = mul d/dh.4.r dh.4.r/dh.4.r.3

# h.4.u = matmul U h.3
declare intvar tmp/h.4.u/1 [192]
declare intvar tmp/h.4.u/2 [192]
declare intvar tmp/h.4.u/3 [192]
declare intvar tmp/h.4.u/4 [192]
declare intvar d/dh.4.u [192]
define tmp/h.4.u/1 = unslice d/dh.4.r.3 h.4.u 0
define tmp/h.4.u/2 = unslice d/dh.4.z.3 h.4.u 64
define tmp/h.4.u/3 = unslice d/dh.4.5 h.4.u 128
define tmp/h.4.u/4 = add tmp/h.4.u/1 tmp/h.4.u/2
define d/dh.4.u = add tmp/h.4.u/4 tmp/h.4.u/3

# h.4.a = add h.4.a.1 b
declare intvar tmp/h.4.a/1 [192]
declare intvar tmp/h.4.a/2 [192]
declare intvar tmp/h.4.a/3 [192]
declare intvar tmp/h.4.a/4 [192]
declare intvar d/dh.4.a [192]
define tmp/h.4.a/1 = unslice d/dh.4.r.3 h.4.a 0
define tmp/h.4.a/2 = unslice d/dh.4.z.3 h.4.a 64
define tmp/h.4.a/3 = unslice d/dh.4.7 h.4.a 128
define tmp/h.4.a/4 = add tmp/h.4.a/1 tmp/h.4.a/2
define d/dh.4.a = add tmp/h.4.a/4 tmp/h.4.a/3

# h.4.1 = index h.2 4
declare intvar d/dh.4.1 [16]
define d/dh.4.1 = matmul dh.15.a.1/dh.15.1 d/dh.4.a

# h.3 = add h.3.2 h.3.9
declare intvar tmp/h.3/1 [64]
declare intvar tmp/h.3/2 [64]
declare intvar d/dh.3 [64]
define tmp/h.3/1 = matmul dh.15.u/dh.14 d/dh.4.u
define tmp/h.3/2 = mul d/dh.4 h.4.z
define d/dh.3 = add tmp/h.3/1 tmp/h.3/2

# h.3.8 = tanh h.3.7
declare intvar d/dh.3.8 [64]
declare intvar dh.3.8/dh.3.7 [64]
define d/dh.3.8 = mul d/dh.3 h.3.3
define dh.3.8/dh.3.7 = tanh_deriv h.3.7

# h.3.7 = add h.3.4 h.3.6
declare intvar d/dh.3.7 [64]
define d/dh.3.7 = mul d/dh.3.8 dh.3.8/dh.3.7

# h.3.5 = slice h.3.u 128 192
declare intvar d/dh.3.5 [64]
define d/dh.3.5 = mul d/dh.3.7 h.3.r

# h.3.3 = sub 1 h.3.z
declare intvar d/dh.3.3 [64]
define d/dh.3.3 = mul d/dh.3 h.3.8

# h.3.z = logistic h.3.z.3
declare intvar tmp/h.3.z/1 [64]
declare intvar tmp/h.3.z/2 [64]
declare intvar d/dh.3.z [64]
declare intvar dh.3.z/dh.3.z.3 [64]
define tmp/h.3.z/1 = mul d/dh.3 h.2.1
define tmp/h.3.z/2 = neg d/dh.3.3
define d/dh.3.z = add tmp/h.3.z/1 tmp/h.3.z/2
define dh.3.z/dh.3.z.3 = logistic_deriv h.3.z.3

# h.3.z.3 = add h.3.z.1 h.3.z.2
declare intvar d/dh.3.z.3 [64]
define d/dh.3.z.3 = mul d/dh.3.z dh.3.z/dh.3.z.3

# h.3.r = logistic h.3.r.3
declare intvar d/dh.3.r [64]
declare intvar dh.3.r/dh.3.r.3 [64]
define d/dh.3.r = mul d/dh.3.7 h.3.5
define dh.3.r/dh.3.r.3 = logistic_deriv h.3.r.3

# h.3.r.3 = add h.3.r.1 h.3.r.2
declare intvar d/dh.3.r.3 [64]
define d/dh.3.r.3 = mul d/dh.3.r dh.3.r/dh.3.r.3

# h.3.u = matmul U h.2.1
declare intvar tmp/h.3.u/1 [192]
declare intvar tmp/h.3.u/2 [192]
declare intvar tmp/h.3.u/3 [192]
declare intvar tmp/h.3.u/4 [192]
declare intvar d/dh.3.u [192]
define tmp/h.3.u/1 = unslice d/dh.3.r.3 h.3.u 0
define tmp/h.3.u/2 = unslice d/dh.3.z.3 h.3.u 64
define tmp/h.3.u/3 = unslice d/dh.3.5 h.3.u 128
define tmp/h.3.u/4 = add tmp/h.3.u/1 tmp/h.3.u/2
define d/dh.3.u = add tmp/h.3.u/4 tmp/h.3.u/3

# h.3.a = add h.3.a.1 b
declare intvar tmp/h.3.a/1 [192]
declare intvar tmp/h.3.a/2 [192]
declare intvar tmp/h.3.a/3 [192]
declare intvar tmp/h.3.a/4 [192]
declare intvar d/dh.3.a [192]
define tmp/h.3.a/1 = unslice d/dh.3.r.3 h.3.a 0
define tmp/h.3.a/2 = unslice d/dh.3.z.3 h.3.a 64
define tmp/h.3.a/3 = unslice d/dh.3.7 h.3.a 128
define tmp/h.3.a/4 = add tmp/h.3.a/1 tmp/h.3.a/2
define d/dh.3.a = add tmp/h.3.a/4 tmp/h.3.a/3

# h.3.1 = index h.2 3
declare intvar d/dh.3.1 [16]
define d/dh.3.1 = matmul dh.15.a.1/dh.15.1 d/dh.3.a

# h.2.1 = add h.2.1.2 h.2.1.9
declare intvar tmp/h.2.1/1 [64]
declare intvar tmp/h.2.1/2 [64]
declare intvar d/dh.2.1 [64]
define tmp/h.2.1/1 = matmul dh.15.u/dh.14 d/dh.3.u
define tmp/h.2.1/2 = mul d/dh.3 h.3.z
define d/dh.2.1 = add tmp/h.2.1/1 tmp/h.2.1/2

# h.2.1.8 = tanh h.2.1.7
declare intvar d/dh.2.1.8 [64]
declare intvar dh.2.1.8/dh.2.1.7 [64]
define d/dh.2.1.8 = mul d/dh.2.1 h.2.1.3
define dh.2.1.8/dh.2.1.7 = tanh_deriv h.2.1.7

# h.2.1.7 = add h.2.1.4 h.2.1.6
declare intvar d/dh.2.1.7 [64]
define d/dh.2.1.7 = mul d/dh.2.1.8 dh.2.1.8/dh.2.1.7

# h.2.1.5 = slice h.2.1.u 128 192
declare intvar d/dh.2.1.5 [64]
define d/dh.2.1.5 = mul d/dh.2.1.7 h.2.1.r

# h.2.1.3 = sub 1 h.2.1.z
declare intvar d/dh.2.1.3 [64]
define d/dh.2.1.3 = mul d/dh.2.1 h.2.1.8

# h.2.1.z = logistic h.2.1.z.3
declare intvar tmp/h.2.1.z/1 [64]
declare intvar tmp/h.2.1.z/2 [64]
declare intvar d/dh.2.1.z [64]
declare intvar dh.2.1.z/dh.2.1.z.3 [64]
define tmp/h.2.1.z/1 = mul d/dh.2.1 h.1.1
define tmp/h.2.1.z/2 = neg d/dh.2.1.3
define d/dh.2.1.z = add tmp/h.2.1.z/1 tmp/h.2.1.z/2
define dh.2.1.z/dh.2.1.z.3 = logistic_deriv h.2.1.z.3

# h.2.1.z.3 = add h.2.1.z.1 h.2.1.z.2
declare intvar d/dh.2.1.z.3 [64]
define d/dh.2.1.z.3 = mul d/dh.2.1.z dh.2.1.z/dh.2.1.z.3

# h.2.1.r = logistic h.2.1.r.3
declare intvar d/dh.2.1.r [64]
declare intvar dh.2.1.r/dh.2.1.r.3 [64]
define d/dh.2.1.r = mul d/dh.2.1.7 h.2.1.5
define dh.2.1.r/dh.2.1.r.3 = logistic_deriv h.2.1.r.3

# h.2.1.r.3 = add h.2.1.r.1 h.2.1.r.2
declare intvar d/dh.2.1.r.3 [64]
define d/dh.2.1.r.3 = mul d/dh.2.1.r dh.2.1.r/dh.2.1.r.3

# h.2.1.u = matmul U h.1.1
declare intvar tmp/h.2.1.u/1 [192]
declare intvar tmp/h.2.1.u/2 [192]
declare intvar tmp/h.2.1.u/3 [192]
declare intvar tmp/h.2.1.u/4 [192]
declare intvar d/dh.2.1.u [192]
define tmp/h.2.1.u/1 = unslice d/dh.2.1.r.3 h.2.1.u 0
define tmp/h.2.1.u/2 = unslice d/dh.2.1.z.3 h.2.1.u 64
define tmp/h.2.1.u/3 = unslice d/dh.2.1.5 h.2.1.u 128
define tmp/h.2.1.u/4 = add tmp/h.2.1.u/1 tmp/h.2.1.u/2
define d/dh.2.1.u = add tmp/h.2.1.u/4 tmp/h.2.1.u/3

# h.2.1.a = add h.2.1.a.1 b
declare intvar tmp/h.2.1.a/1 [192]
declare intvar tmp/h.2.1.a/2 [192]
declare intvar tmp/h.2.1.a/3 [192]
declare intvar tmp/h.2.1.a/4 [192]
declare intvar d/dh.2.1.a [192]
define tmp/h.2.1.a/1 = unslice d/dh.2.1.r.3 h.2.1.a 0
define tmp/h.2.1.a/2 = unslice d/dh.2.1.z.3 h.2.1.a 64
define tmp/h.2.1.a/3 = unslice d/dh.2.1.7 h.2.1.a 128
define tmp/h.2.1.a/4 = add tmp/h.2.1.a/1 tmp/h.2.1.a/2
define d/dh.2.1.a = add tmp/h.2.1.a/4 tmp/h.2.1.a/3

# h.2.1.1 = index h.2 2
declare intvar d/dh.2.1.1 [16]
define d/dh.2.1.1 = matmul dh.15.a.1/dh.15.1 d/dh.2.1.a

# h.1.1 = add h.1.1.2 h.1.1.9
declare intvar tmp/h.1.1/1 [64]
declare intvar tmp/h.1.1/2 [64]
declare intvar d/dh.1.1 [64]
define tmp/h.1.1/1 = matmul dh.15.u/dh.14 d/dh.2.1.u
define tmp/h.1.1/2 = mul d/dh.2.1 h.2.1.z
define d/dh.1.1 = add tmp/h.1.1/1 tmp/h.1.1/2

# h.1.1.8 = tanh h.1.1.7
declare intvar d/dh.1.1.8 [64]
declare intvar dh.1.1.8/dh.1.1.7 [64]
define d/dh.1.1.8 = mul d/dh.1.1 h.1.1.3
define dh.1.1.8/dh.1.1.7 = tanh_deriv h.1.1.7

# h.1.1.7 = add h.1.1.4 h.1.1.6
declare intvar d/dh.1.1.7 [64]
define d/dh.1.1.7 = mul d/dh.1.1.8 dh.1.1.8/dh.1.1.7

# h.1.1.5 = slice h.1.1.u 128 192
declare intvar d/dh.1.1.5 [64]
define d/dh.1.1.5 = mul d/dh.1.1.7 h.1.1.r

# h.1.1.3 = sub 1 h.1.1.z
declare intvar d/dh.1.1.3 [64]
define d/dh.1.1.3 = mul d/dh.1.1 h.1.1.8

# h.1.1.z = logistic h.1.1.z.3
declare intvar tmp/h.1.1.z/1 [64]
declare intvar tmp/h.1.1.z/2 [64]
declare intvar d/dh.1.1.z [64]
declare intvar dh.1.1.z/dh.1.1.z.3 [64]
define tmp/h.1.1.z/1 = mul d/dh.1.1 h.0
define tmp/h.1.1.z/2 = neg d/dh.1.1.3
define d/dh.1.1.z = add tmp/h.1.1.z/1 tmp/h.1.1.z/2
define dh.1.1.z/dh.1.1.z.3 = logistic_deriv h.1.1.z.3

# h.1.1.z.3 = add h.1.1.z.1 h.1.1.z.2
declare intvar d/dh.1.1.z.3 [64]
define d/dh.1.1.z.3 = mul d/dh.1.1.z dh.1.1.z/dh.1.1.z.3

# h.1.1.r = logistic h.1.1.r.3
declare intvar d/dh.1.1.r [64]
declare intvar dh.1.1.r/dh.1.1.r.3 [64]
define d/dh.1.1.r = mul d/dh.1.1.7 h.1.1.5
define dh.1.1.r/dh.1.1.r.3 = logistic_deriv h.1.1.r.3

# h.1.1.r.3 = add h.1.1.r.1 h.1.1.r.2
declare intvar d/dh.1.1.r.3 [64]
define d/dh.1.1.r.3 = mul d/dh.1.1.r dh.1.1.r/dh.1.1.r.3

# h.1.1.u = matmul U h.0
declare intvar tmp/h.1.1.u/1 [192]
declare intvar tmp/h.1.1.u/2 [192]
declare intvar tmp/h.1.1.u/3 [192]
declare intvar tmp/h.1.1.u/4 [192]
declare intvar d/dh.1.1.u [192]
define tmp/h.1.1.u/1 = unslice d/dh.1.1.r.3 h.1.1.u 0
define tmp/h.1.1.u/2 = unslice d/dh.1.1.z.3 h.1.1.u 64
define tmp/h.1.1.u/3 = unslice d/dh.1.1.5 h.1.1.u 128
define tmp/h.1.1.u/4 = add tmp/h.1.1.u/1 tmp/h.1.1.u/2
define d/dh.1.1.u = add tmp/h.1.1.u/4 tmp/h.1.1.u/3

# h.1.1.a = add h.1.1.a.1 b
declare intvar tmp/h.1.1.a/1 [192]
declare intvar tmp/h.1.1.a/2 [192]
declare intvar tmp/h.1.1.a/3 [192]
declare intvar tmp/h.1.1.a/4 [192]
declare intvar d/dh.1.1.a [192]
define tmp/h.1.1.a/1 = unslice d/dh.1.1.r.3 h.1.1.a 0
define tmp/h.1.1.a/2 = unslice d/dh.1.1.z.3 h.1.1.a 64
define tmp/h.1.1.a/3 = unslice d/dh.1.1.7 h.1.1.a 128
define tmp/h.1.1.a/4 = add tmp/h.1.1.a/1 tmp/h.1.1.a/2
define d/dh.1.1.a = add tmp/h.1.1.a/4 tmp/h.1.1.a/3

# h.1.1.1 = index h.2 1
declare intvar d/dh.1.1.1 [16]
define d/dh.1.1.1 = matmul dh.15.a.1/dh.15.1 d/dh.1.1.a

# h.0 = add h.0.2 h.0.9
declare intvar tmp/h.0/1 [64]
declare intvar tmp/h.0/2 [64]
declare intvar d/dh.0 [64]
define tmp/h.0/1 = matmul dh.15.u/dh.14 d/dh.1.1.u
define tmp/h.0/2 = mul d/dh.1.1 h.1.1.z
define d/dh.0 = add tmp/h.0/1 tmp/h.0/2

# h.0.8 = tanh h.0.7
declare intvar d/dh.0.8 [64]
declare intvar dh.0.8/dh.0.7 [64]
define d/dh.0.8 = mul d/dh.0 h.0.3
define dh.0.8/dh.0.7 = tanh_deriv h.0.7

# h.0.7 = add h.0.4 h.0.6
declare intvar d/dh.0.7 [64]
define d/dh.0.7 = mul d/dh.0.8 dh.0.8/dh.0.7

# h.0.5 = slice h.0.u 128 192
declare intvar d/dh.0.5 [64]
define d/dh.0.5 = mul d/dh.0.7 h.0.r

# h.0.3 = sub 1 h.0.z
declare intvar d/dh.0.3 [64]
define d/dh.0.3 = mul d/dh.0 h.0.8

# h.0.z = logistic h.0.z.3
declare intvar tmp/h.0.z/1 [64]
declare intvar tmp/h.0.z/2 [64]
declare intvar d/dh.0.z [64]
declare intvar dh.0.z/dh.0.z.3 [64]
define tmp/h.0.z/1 = mul d/dh.0 h0
define tmp/h.0.z/2 = neg d/dh.0.3
define d/dh.0.z = add tmp/h.0.z/1 tmp/h.0.z/2
define dh.0.z/dh.0.z.3 = logistic_deriv h.0.z.3

# h.0.z.3 = add h.0.z.1 h.0.z.2
declare intvar d/dh.0.z.3 [64]
define d/dh.0.z.3 = mul d/dh.0.z dh.0.z/dh.0.z.3

# h.0.r = logistic h.0.r.3
declare intvar d/dh.0.r [64]
declare intvar dh.0.r/dh.0.r.3 [64]
define d/dh.0.r = mul d/dh.0.7 h.0.5
define dh.0.r/dh.0.r.3 = logistic_deriv h.0.r.3

# h.0.r.3 = add h.0.r.1 h.0.r.2
declare intvar d/dh.0.r.3 [64]
define d/dh.0.r.3 = mul d/dh.0.r dh.0.r/dh.0.r.3

# h.0.u = matmul U h0
declare intvar tmp/h.0.u/1 [192]
declare intvar tmp/h.0.u/2 [192]
declare intvar tmp/h.0.u/3 [192]
declare intvar tmp/h.0.u/4 [192]
declare intvar d/dh.0.u [192]
define tmp/h.0.u/1 = unslice d/dh.0.r.3 h.0.u 0
define tmp/h.0.u/2 = unslice d/dh.0.z.3 h.0.u 64
define tmp/h.0.u/3 = unslice d/dh.0.5 h.0.u 128
define tmp/h.0.u/4 = add tmp/h.0.u/1 tmp/h.0.u/2
define d/dh.0.u = add tmp/h.0.u/4 tmp/h.0.u/3

# h.0.a = add h.0.a.1 b
declare intvar tmp/h.0.a/1 [192]
declare intvar tmp/h.0.a/2 [192]
declare intvar tmp/h.0.a/3 [192]
declare intvar tmp/h.0.a/4 [192]
declare intvar d/dh.0.a [192]
define tmp/h.0.a/1 = unslice d/dh.0.r.3 h.0.a 0
define tmp/h.0.a/2 = unslice d/dh.0.z.3 h.0.a 64
define tmp/h.0.a/3 = unslice d/dh.0.7 h.0.a 128
define tmp/h.0.a/4 = add tmp/h.0.a/1 tmp/h.0.a/2
define d/dh.0.a = add tmp/h.0.a/4 tmp/h.0.a/3

# h.0.1 = index h.2 0
declare intvar d/dh.0.1 [16]
define d/dh.0.1 = matmul dh.15.a.1/dh.15.1 d/dh.0.a

# h.2 = take E h.1
declare intvar tmp/h.2/2 [1, 16]
declare intvar tmp/h.2/1 [16, 16]
declare intvar tmp/h.2/4 [1, 16]
declare intvar tmp/h.2/3 [16, 16]
declare intvar tmp/h.2/6 [1, 16]
declare intvar tmp/h.2/5 [16, 16]
declare intvar tmp/h.2/8 [1, 16]
declare intvar tmp/h.2/7 [16, 16]
declare intvar tmp/h.2/10 [1, 16]
declare intvar tmp/h.2/9 [16, 16]
declare intvar tmp/h.2/12 [1, 16]
declare intvar tmp/h.2/11 [16, 16]
declare intvar tmp/h.2/14 [1, 16]
declare intvar tmp/h.2/13 [16, 16]
declare intvar tmp/h.2/16 [1, 16]
declare intvar tmp/h.2/15 [16, 16]
declare intvar tmp/h.2/18 [1, 16]
declare intvar tmp/h.2/17 [16, 16]
declare intvar tmp/h.2/20 [1, 16]
declare intvar tmp/h.2/19 [16, 16]
declare intvar tmp/h.2/22 [1, 16]
declare intvar tmp/h.2/21 [16, 16]
declare intvar tmp/h.2/24 [1, 16]
declare intvar tmp/h.2/23 [16, 16]
declare intvar tmp/h.2/26 [1, 16]
declare intvar tmp/h.2/25 [16, 16]
declare intvar tmp/h.2/28 [1, 16]
declare intvar tmp/h.2/27 [16, 16]
declare intvar tmp/h.2/30 [1, 16]
declare intvar tmp/h.2/29 [16, 16]
declare intvar tmp/h.2/32 [1, 16]
declare intvar tmp/h.2/31 [16, 16]
declare intvar tmp/h.2/33 [16, 16]
declare intvar tmp/h.2/34 [16, 16]
declare intvar tmp/h.2/35 [16, 16]
declare intvar tmp/h.2/36 [16, 16]
declare intvar tmp/h.2/37 [16, 16]
declare intvar tmp/h.2/38 [16, 16]
declare intvar tmp/h.2/39 [16, 16]
declare intvar tmp/h.2/40 [16, 16]
declare intvar tmp/h.2/41 [16, 16]
declare intvar tmp/h.2/42 [16, 16]
declare intvar tmp/h.2/43 [16, 16]
declare intvar tmp/h.2/44 [16, 16]
declare intvar tmp/h.2/45 [16, 16]
declare intvar tmp/h.2/46 [16, 16]
declare intvar d/dh.2 [16, 16]
define tmp/h.2/2 = reshape d/dh.0.1 [1, 16]
define tmp/h.2/1 = unslice tmp/h.2/2 h.2 0
define tmp/h.2/4 = reshape d/dh.1.1.1 [1, 16]
define tmp/h.2/3 = unslice tmp/h.2/4 h.2 1
define tmp/h.2/6 = reshape d/dh.2.1.1 [1, 16]
define tmp/h.2/5 = unslice tmp/h.2/6 h.2 2
define tmp/h.2/8 = reshape d/dh.3.1 [1, 16]
define tmp/h.2/7 = unslice tmp/h.2/8 h.2 3
define tmp/h.2/10 = reshape d/dh.4.1 [1, 16]
define tmp/h.2/9 = unslice tmp/h.2/10 h.2 4
define tmp/h.2/12 = reshape d/dh.5.1 [1, 16]
define tmp/h.2/11 = unslice tmp/h.2/12 h.2 5
define tmp/h.2/14 = reshape d/dh.6.1 [1, 16]
define tmp/h.2/13 = unslice tmp/h.2/14 h.2 6
define tmp/h.2/16 = reshape d/dh.7.1 [1, 16]
define tmp/h.2/15 = unslice tmp/h.2/16 h.2 7
define tmp/h.2/18 = reshape d/dh.8.1 [1, 16]
define tmp/h.2/17 = unslice tmp/h.2/18 h.2 8
define tmp/h.2/20 = reshape d/dh.9.1 [1, 16]
define tmp/h.2/19 = unslice tmp/h.2/20 h.2 9
define tmp/h.2/22 = reshape d/dh.10.1 [1, 16]
define tmp/h.2/21 = unslice tmp/h.2/22 h.2 10
define tmp/h.2/24 = reshape d/dh.11.1 [1, 16]
define tmp/h.2/23 = unslice tmp/h.2/24 h.2 11
define tmp/h.2/26 = reshape d/dh.12.1 [1, 16]
define tmp/h.2/25 = unslice tmp/h.2/26 h.2 12
define tmp/h.2/28 = reshape d/dh.13.1 [1, 16]
define tmp/h.2/27 = unslice tmp/h.2/28 h.2 13
define tmp/h.2/30 = reshape d/dh.14.1 [1, 16]
define tmp/h.2/29 = unslice tmp/h.2/30 h.2 14
define tmp/h.2/32 = reshape d/dh.15.1 [1, 16]
define tmp/h.2/31 = unslice tmp/h.2/32 h.2 15
define tmp/h.2/33 = add tmp/h.2/1 tmp/h.2/3
define tmp/h.2/34 = add tmp/h.2/33 tmp/h.2/5
define tmp/h.2/35 = add tmp/h.2/34 tmp/h.2/7
define tmp/h.2/36 = add tmp/h.2/35 tmp/h.2/9
define tmp/h.2/37 = add tmp/h.2/36 tmp/h.2/11
define tmp/h.2/38 = add tmp/h.2/37 tmp/h.2/13
define tmp/h.2/39 = add tmp/h.2/38 tmp/h.2/15
define tmp/h.2/40 = add tmp/h.2/39 tmp/h.2/17
define tmp/h.2/41 = add tmp/h.2/40 tmp/h.2/19
define tmp/h.2/42 = add tmp/h.2/41 tmp/h.2/21
define tmp/h.2/43 = add tmp/h.2/42 tmp/h.2/23
define tmp/h.2/44 = add tmp/h.2/43 tmp/h.2/25
define tmp/h.2/45 = add tmp/h.2/44 tmp/h.2/27
define tmp/h.2/46 = add tmp/h.2/45 tmp/h.2/29
define d/dh.2 = add tmp/h.2/46 tmp/h.2/31

# weight c
declare output d/dc [32]
define d/dc = d/dlogp.2

# weight V
declare output d/dV [32, 64]
define d/dV = outer d/dlogp.2 h

# weight h0
declare intvar tmp/h0/1 [64]
declare intvar tmp/h0/2 [64]
declare output d/dh0 [64]
define tmp/h0/1 = matmul dh.15.u/dh.14 d/dh.0.u
define tmp/h0/2 = mul d/dh.0 h.0.z
define d/dh0 = add tmp/h0/1 tmp/h0/2

# weight b
declare intvar tmp/b/17 [192]
declare intvar tmp/b/18 [192]
declare intvar tmp/b/19 [192]
declare intvar tmp/b/20 [192]
declare intvar tmp/b/21 [192]
declare intvar tmp/b/22 [192]
declare intvar tmp/b/23 [192]
declare intvar tmp/b/24 [192]
declare intvar tmp/b/25 [192]
declare intvar tmp/b/26 [192]
declare intvar tmp/b/27 [192]
declare intvar tmp/b/28 [192]
declare intvar tmp/b/29 [192]
declare intvar tmp/b/30 [192]
declare output d/db [192]
define tmp/b/17 = add d/dh.0.a d/dh.1.1.a
define tmp/b/18 = add tmp/b/17 d/dh.2.1.a
define tmp/b/19 = add tmp/b/18 d/dh.3.a
define tmp/b/20 = add tmp/b/19 d/dh.4.a
define tmp/b/21 = add tmp/b/20 d/dh.5.a
define tmp/b/22 = add tmp/b/21 d/dh.6.a
define tmp/b/23 = add tmp/b/22 d/dh.7.a
define tmp/b/24 = add tmp/b/23 d/dh.8.a
define tmp/b/25 = add tmp/b/24 d/dh.9.a
define tmp/b/26 = add tmp/b/25 d/dh.10.a
define tmp/b/27 = add tmp/b/26 d/dh.11.a
define tmp/b/28 = add tmp/b/27 d/dh.12.a
define tmp/b/29 = add tmp/b/28 d/dh.13.a
define tmp/b/30 = add tmp/b/29 d/dh.14.a
define d/db = add tmp/b/30 d/dh.15.a

# weight U
declare intvar tmp/U/1 [192, 64]
declare intvar tmp/U/2 [192, 64]
declare intvar tmp/U/3 [192, 64]
declare intvar tmp/U/4 [192, 64]
declare intvar tmp/U/5 [192, 64]
declare intvar tmp/U/6 [192, 64]
declare intvar tmp/U/7 [192, 64]
declare intvar tmp/U/8 [192, 64]
declare intvar tmp/U/9 [192, 64]
declare intvar tmp/U/10 [192, 64]
declare intvar tmp/U/11 [192, 64]
declare intvar tmp/U/12 [192, 64]
declare intvar tmp/U/13 [192, 64]
declare intvar tmp/U/14 [192, 64]
declare intvar tmp/U/15 [192, 64]
declare intvar tmp/U/16 [192, 64]
declare intvar tmp/U/17 [192, 64]
declare intvar tmp/U/18 [192, 64]
declare intvar tmp/U/19 [192, 64]
declare intvar tmp/U/20 [192, 64]
declare intvar tmp/U/21 [192, 64]
declare intvar tmp/U/22 [192, 64]
declare intvar tmp/U/23 [192, 64]
declare intvar tmp/U/24 [192, 64]
declare intvar tmp/U/25 [192, 64]
declare intvar tmp/U/26 [192, 64]
declare intvar tmp/U/27 [192, 64]
declare intvar tmp/U/28 [192, 64]
declare intvar tmp/U/29 [192, 64]
declare intvar tmp/U/30 [192, 64]
declare output d/dU [192, 64]
define tmp/U/1 = outer d/dh.0.u h0
define tmp/U/2 = outer d/dh.1.1.u h.0
define tmp/U/3 = outer d/dh.2.1.u h.1.1
define tmp/U/4 = outer d/dh.3.u h.2.1
define tmp/U/5 = outer d/dh.4.u h.3
define tmp/U/6 = outer d/dh.5.u h.4
define tmp/U/7 = outer d/dh.6.u h.5
define tmp/U/8 = outer d/dh.7.u h.6
define tmp/U/9 = outer d/dh.8.u h.7
define tmp/U/10 = outer d/dh.9.u h.8
define tmp/U/11 = outer d/dh.10.u h.9
define tmp/U/12 = outer d/dh.11.u h.10
define tmp/U/13 = outer d/dh.12.u h.11
define tmp/U/14 = outer d/dh.13.u h.12
define tmp/U/15 = outer d/dh.14.u h.13
define tmp/U/16 = outer d/dh.15.u h.14
define tmp/U/17 = add tmp/U/1 tmp/U/2
define tmp/U/18 = add tmp/U/17 tmp/U/3
define tmp/U/19 = add tmp/U/18 tmp/U/4
define tmp/U/20 = add tmp/U/19 tmp/U/5
define tmp/U/21 = add tmp/U/20 tmp/U/6
define tmp/U/22 = add tmp/U/21 tmp/U/7
define tmp/U/23 = add tmp/U/22 tmp/U/8
define tmp/U/24 = add tmp/U/23 tmp/U/9
define tmp/U/25 = add tmp/U/24 tmp/U/10
define tmp/U/26 = add tmp/U/25 tmp/U/11
define tmp/U/27 = add tmp/U/26 tmp/U/12
define tmp/U/28 = add tmp/U/27 tmp/U/13
define tmp/U/29 = add tmp/U/28 tmp/U/14
define tmp/U/30 = add tmp/U/29 tmp/U/15
define d/dU = add tmp/U/30 tmp/U/16

# weight W
declare intvar tmp/W/1 [192, 16]
declare intvar tmp/W/2 [192, 16]
declare intvar tmp/W/3 [192, 16]
declare intvar tmp/W/4 [192, 16]
declare intvar tmp/W/5 [192, 16]
declare intvar tmp/W/6 [192, 16]
declare intvar tmp/W/7 [192, 16]
declare intvar tmp/W/8 [192, 16]
declare intvar tmp/W/9 [192, 16]
declare intvar tmp/W/10 [192, 16]
declare intvar tmp/W/11 [192, 16]
declare intvar tmp/W/12 [192, 16]
declare intvar tmp/W/13 [192, 16]
declare intvar tmp/W/14 [192, 16]
declare intvar tmp/W/15 [192, 16]
declare intvar tmp/W/16 [192, 16]
declare intvar tmp/W/17 [192, 16]
declare intvar tmp/W/18 [192, 16]
declare intvar tmp/W/19 [192, 16]
declare intvar tmp/W/20 [192, 16]
declare intvar tmp/W/21 [192, 16]
declare intvar tmp/W/22 [192, 16]
declare intvar tmp/W/23 [192, 16]
declare intvar tmp/W/24 [192, 16]
declare intvar tmp/W/25 [192, 16]
declare intvar tmp/W/26 [192, 16]
declare intvar tmp/W/27 [192, 16]
declare intvar tmp/W/28 [192, 16]
declare intvar tmp/W/29 [192, 16]
declare intvar tmp/W/30 [192, 16]
declare output d/dW [192, 16]
define tmp/W/1 = outer d/dh.0.a h.0.1
define tmp/W/2 = outer d/dh.1.1.a h.1.1.1
define tmp/W/3 = outer d/dh.2.1.a h.2.1.1
define tmp/W/4 = outer d/dh.3.a h.3.1
define tmp/W/5 = outer d/dh.4.a h.4.1
define tmp/W/6 = outer d/dh.5.a h.5.1
define tmp/W/7 = outer d/dh.6.a h.6.1
define tmp/W/8 = outer d/dh.7.a h.7.1
define tmp/W/9 = outer d/dh.8.a h.8.1
define tmp/W/10 = outer d/dh.9.a h.9.1
define tmp/W/11 = outer d/dh.10.a h.10.1
define tmp/W/12 = outer d/dh.11.a h.11.1
define tmp/W/13 = outer d/dh.12.a h.12.1
define tmp/W/14 = outer d/dh.13.a h.13.1
define tmp/W/15 = outer d/dh.14.a h.14.1
define tmp/W/16 = outer d/dh.15.a h.15.1
define tmp/W/17 = add tmp/W/1 tmp/W/2
define tmp/W/18 = add tmp/W/17 tmp/W/3
define tmp/W/19 = add tmp/W/18 tmp/W/4
define tmp/W/20 = add tmp/W/19 tmp/W/5
define tmp/W/21 = add tmp/W/20 tmp/W/6
define tmp/W/22 = add tmp/W/21 tmp/W/7
define tmp/W/23 = add tmp/W/22 tmp/W/8
define tmp/W/24 = add tmp/W/23 tmp/W/9
define tmp/W/25 = add tmp/W/24 tmp/W/10
define tmp/W/26 = add tmp/W/25 tmp/W/11
define tmp/W/27 = add tmp/W/26 tmp/W/12
define tmp/W/28 = add tmp/W/27 tmp/W/13
define tmp/W/29 = add tmp/W/28 tmp/W/14
define tmp/W/30 = add tmp/W/29 tmp/W/15
define d/dW = add tmp/W/30 tmp/W/16

# weight E
declare output d/dE [32, 16]
define d/dE = take_grad d/dh.2 h.1 E
