declare input chars [17]
declare weight E [32, 16]
declare weight W [192, 16]
declare weight U [192, 64]
declare weight b [192]
declare weight h0 [64]
declare weight V [64, 32]
declare weight c [32]
declare intvar hs [16, 64]
declare intvar targets [16, 32]
declare intvar logp [16, 32]
declare output bits
declare output last_bits
declare loss xent
declare intvar hs.1 [16]
declare intvar hs.2 [16, 16]
declare intvar hs.0 [64]
declare intvar hs.0.1 [16]
declare intvar hs.0.a [192]
declare intvar hs.0.u [192]
declare intvar hs.0.r [64]
declare intvar hs.0.z [64]
declare intvar hs.0.a.1 [192]
declare intvar hs.0.r.1 [64]
declare intvar hs.0.r.2 [64]
declare intvar hs.0.r.3 [64]
declare intvar hs.0.z.1 [64]
declare intvar hs.0.z.2 [64]
declare intvar hs.0.z.3 [64]
declare intvar hs.0.2 [64]
declare intvar hs.0.3 [64]
declare intvar hs.0.4 [64]
declare intvar hs.0.5 [64]
declare intvar hs.0.6 [64]
declare intvar hs.0.7 [64]
declare intvar hs.0.8 [64]
declare intvar hs.0.9 [64]
declare intvar hs.1.1 [64]
declare intvar hs.1.1.1 [16]
declare intvar hs.1.1.a [192]
declare intvar hs.1.1.u [192]
declare intvar hs.1.1.r [64]
declare intvar hs.1.1.z [64]
declare intvar hs.1.1.a.1 [192]
declare intvar hs.1.1.r.1 [64]
declare intvar hs.1.1.r.2 [64]
declare intvar hs.1.1.r.3 [64]
declare intvar hs.1.1.z.1 [64]
declare intvar hs.1.1.z.2 [64]
declare intvar hs.1.1.z.3 [64]
declare intvar hs.1.1.2 [64]
declare intvar hs.1.1.3 [64]
declare intvar hs.1.1.4 [64]
declare intvar hs.1.1.5 [64]
declare intvar hs.1.1.6 [64]
declare intvar hs.1.1.7 [64]
declare intvar hs.1.1.8 [64]
declare intvar hs.1.1.9 [64]
declare intvar hs.2.1 [64]
declare intvar hs.2.1.1 [16]
declare intvar hs.2.1.a [192]
declare intvar hs.2.1.u [192]
declare intvar hs.2.1.r [64]
declare intvar hs.2.1.z [64]
declare intvar hs.2.1.a.1 [192]
declare intvar hs.2.1.r.1 [64]
declare intvar hs.2.1.r.2 [64]
declare intvar hs.2.1.r.3 [64]
declare intvar hs.2.1.z.1 [64]
declare intvar hs.2.1.z.2 [64]
declare intvar hs.2.1.z.3 [64]
declare intvar hs.2.1.2 [64]
declare intvar hs.2.1.3 [64]
declare intvar hs.2.1.4 [64]
declare intvar hs.2.1.5 [64]
declare intvar hs.2.1.6 [64]
declare intvar hs.2.1.7 [64]
declare intvar hs.2.1.8 [64]
declare intvar hs.2.1.9 [64]
declare intvar hs.3 [64]
declare intvar hs.3.1 [16]
declare intvar hs.3.a [192]
declare intvar hs.3.u [192]
declare intvar hs.3.r [64]
declare intvar hs.3.z [64]
declare intvar hs.3.a.1 [192]
declare intvar hs.3.r.1 [64]
declare intvar hs.3.r.2 [64]
declare intvar hs.3.r.3 [64]
declare intvar hs.3.z.1 [64]
declare intvar hs.3.z.2 [64]
declare intvar hs.3.z.3 [64]
declare intvar hs.3.2 [64]
declare intvar hs.3.3 [64]
declare intvar hs.3.4 [64]
declare intvar hs.3.5 [64]
declare intvar hs.3.6 [64]
declare intvar hs.3.7 [64]
declare intvar hs.3.8 [64]
declare intvar hs.3.9 [64]
declare intvar hs.4 [64]
declare intvar hs.4.1 [16]
declare intvar hs.4.a [192]
declare intvar hs.4.u [192]
declare intvar hs.4.r [64]
declare intvar hs.4.z [64]
declare intvar hs.4.a.1 [192]
declare intvar hs.4.r.1 [64]
declare intvar hs.4.r.2 [64]
declare intvar hs.4.r.3 [64]
declare intvar hs.4.z.1 [64]
declare intvar hs.4.z.2 [64]
declare intvar hs.4.z.3 [64]
declare intvar hs.4.2 [64]
declare intvar hs.4.3 [64]
declare intvar hs.4.4 [64]
declare intvar hs.4.5 [64]
declare intvar hs.4.6 [64]
declare intvar hs.4.7 [64]
declare intvar hs.4.8 [64]
declare intvar hs.4.9 [64]
declare intvar hs.5 [64]
declare intvar hs.5.1 [16]
declare intvar hs.5.a [192]
declare intvar hs.5.u [192]
declare intvar hs.5.r [64]
declare intvar hs.5.z [64]
declare intvar hs.5.a.1 [192]
declare intvar hs.5.r.1 [64]
declare intvar hs.5.r.2 [64]
declare intvar hs.5.r.3 [64]
declare intvar hs.5.z.1 [64]
declare intvar hs.5.z.2 [64]
declare intvar hs.5.z.3 [64]
declare intvar hs.5.2 [64]
declare intvar hs.5.3 [64]
declare intvar hs.5.4 [64]
declare intvar hs.5.5 [64]
declare intvar hs.5.6 [64]
declare intvar hs.5.7 [64]
declare intvar hs.5.8 [64]
declare intvar hs.5.9 [64]
declare intvar hs.6 [64]
declare intvar hs.6.1 [16]
declare intvar hs.6.a [192]
declare intvar hs.6.u [192]
declare intvar hs.6.r [64]
declare intvar hs.6.z [64]
declare intvar hs.6.a.1 [192]
declare intvar hs.6.r.1 [64]
declare intvar hs.6.r.2 [64]
declare intvar hs.6.r.3 [64]
declare intvar hs.6.z.1 [64]
declare intvar hs.6.z.2 [64]
declare intvar hs.6.z.3 [64]
declare intvar hs.6.2 [64]
declare intvar hs.6.3 [64]
declare intvar hs.6.4 [64]
declare intvar hs.6.5 [64]
declare intvar hs.6.6 [64]
declare intvar hs.6.7 [64]
declare intvar hs.6.8 [64]
declare intvar hs.6.9 [64]
declare intvar hs.7 [64]
declare intvar hs.7.1 [16]
declare intvar hs.7.a [192]
declare intvar hs.7.u [192]
declare intvar hs.7.r [64]
declare intvar hs.7.z [64]
declare intvar hs.7.a.1 [192]
declare intvar hs.7.r.1 [64]
declare intvar hs.7.r.2 [64]
declare intvar hs.7.r.3 [64]
declare intvar hs.7.z.1 [64]
declare intvar hs.7.z.2 [64]
declare intvar hs.7.z.3 [64]
declare intvar hs.7.2 [64]
declare intvar hs.7.3 [64]
declare intvar hs.7.4 [64]
declare intvar hs.7.5 [64]
declare intvar hs.7.6 [64]
declare intvar hs.7.7 [64]
declare intvar hs.7.8 [64]
declare intvar hs.7.9 [64]
declare intvar hs.8 [64]
declare intvar hs.8.1 [16]
declare intvar hs.8.a [192]
declare intvar hs.8.u [192]
declare intvar hs.8.r [64]
declare intvar hs.8.z [64]
declare intvar hs.8.a.1 [192]
declare intvar hs.8.r.1 [64]
declare intvar hs.8.r.2 [64]
declare intvar hs.8.r.3 [64]
declare intvar hs.8.z.1 [64]
declare intvar hs.8.z.2 [64]
declare intvar hs.8.z.3 [64]
declare intvar hs.8.2 [64]
declare intvar hs.8.3 [64]
declare intvar hs.8.4 [64]
declare intvar hs.8.5 [64]
declare intvar hs.8.6 [64]
declare intvar hs.8.7 [64]
declare intvar hs.8.8 [64]
declare intvar hs.8.9 [64]
declare intvar hs.9 [64]
declare intvar hs.9.1 [16]
declare intvar hs.9.a [192]
declare intvar hs.9.u [192]
declare intvar hs.9.r [64]
declare intvar hs.9.z [64]
declare intvar hs.9.a.1 [192]
declare intvar hs.9.r.1 [64]
declare intvar hs.9.r.2 [64]
declare intvar hs.9.r.3 [64]
declare intvar hs.9.z.1 [64]
declare intvar hs.9.z.2 [64]
declare intvar hs.9.z.3 [64]
declare intvar hs.9.2 [64]
declare intvar hs.9.3 [64]
declare intvar hs.9.4 [64]
declare intvar hs.9.5 [64]
declare intvar hs.9.6 [64]
declare intvar hs.9.7 [64]
declare intvar hs.9.8 [64]
declare intvar hs.9.9 [64]
declare intvar hs.10 [64]
declare intvar hs.10.1 [16]
declare intvar hs.10.a [192]
declare intvar hs.10.u [192]
declare intvar hs.10.r [64]
declare intvar hs.10.z [64]
declare intvar hs.10.a.1 [192]
declare intvar hs.10.r.1 [64]
declare intvar hs.10.r.2 [64]
declare intvar hs.10.r.3 [64]
declare intvar hs.10.z.1 [64]
declare intvar hs.10.z.2 [64]
declare intvar hs.10.z.3 [64]
declare intvar hs.10.2 [64]
declare intvar hs.10.3 [64]
declare intvar hs.10.4 [64]
declare intvar hs.10.5 [64]
declare intvar hs.10.6 [64]
declare intvar hs.10.7 [64]
declare intvar hs.10.8 [64]
declare intvar hs.10.9 [64]
declare intvar hs.11 [64]
declare intvar hs.11.1 [16]
declare intvar hs.11.a [192]
declare intvar hs.11.u [192]
declare intvar hs.11.r [64]
declare intvar hs.11.z [64]
declare intvar hs.11.a.1 [192]
declare intvar hs.11.r.1 [64]
declare intvar hs.11.r.2 [64]
declare intvar hs.11.r.3 [64]
declare intvar hs.11.z.1 [64]
declare intvar hs.11.z.2 [64]
declare intvar hs.11.z.3 [64]
declare intvar hs.11.2 [64]
declare intvar hs.11.3 [64]
declare intvar hs.11.4 [64]
declare intvar hs.11.5 [64]
declare intvar hs.11.6 [64]
declare intvar hs.11.7 [64]
declare intvar hs.11.8 [64]
declare intvar hs.11.9 [64]
declare intvar hs.12 [64]
declare intvar hs.12.1 [16]
declare intvar hs.12.a [192]
declare intvar hs.12.u [192]
declare intvar hs.12.r [64]
declare intvar hs.12.z [64]
declare intvar hs.12.a.1 [192]
declare intvar hs.12.r.1 [64]
declare intvar hs.12.r.2 [64]
declare intvar hs.12.r.3 [64]
declare intvar hs.12.z.1 [64]
declare intvar hs.12.z.2 [64]
declare intvar hs.12.z.3 [64]
declare intvar hs.12.2 [64]
declare intvar hs.12.3 [64]
declare intvar hs.12.4 [64]
declare intvar hs.12.5 [64]
declare intvar hs.12.6 [64]
declare intvar hs.12.7 [64]
declare intvar hs.12.8 [64]
declare intvar hs.12.9 [64]
declare intvar hs.13 [64]
declare intvar hs.13.1 [16]
declare intvar hs.13.a [192]
declare intvar hs.13.u [192]
declare intvar hs.13.r [64]
declare intvar hs.13.z [64]
declare intvar hs.13.a.1 [192]
declare intvar hs.13.r.1 [64]
declare intvar hs.13.r.2 [64]
declare intvar hs.13.r.3 [64]
declare intvar hs.13.z.1 [64]
declare intvar hs.13.z.2 [64]
declare intvar hs.13.z.3 [64]
declare intvar hs.13.2 [64]
declare intvar hs.13.3 [64]
declare intvar hs.13.4 [64]
declare intvar hs.13.5 [64]
declare intvar hs.13.6 [64]
declare intvar hs.13.7 [64]
declare intvar hs.13.8 [64]
declare intvar hs.13.9 [64]
declare intvar hs.14 [64]
declare intvar hs.14.1 [16]
declare intvar hs.14.a [192]
declare intvar hs.14.u [192]
declare intvar hs.14.r [64]
declare intvar hs.14.z [64]
declare intvar hs.14.a.1 [192]
declare intvar hs.14.r.1 [64]
declare intvar hs.14.r.2 [64]
declare intvar hs.14.r.3 [64]
declare intvar hs.14.z.1 [64]
declare intvar hs.14.z.2 [64]
declare intvar hs.14.z.3 [64]
declare intvar hs.14.2 [64]
declare intvar hs.14.3 [64]
declare intvar hs.14.4 [64]
declare intvar hs.14.5 [64]
declare intvar hs.14.6 [64]
declare intvar hs.14.7 [64]
declare intvar hs.14.8 [64]
declare intvar hs.14.9 [64]
declare intvar hs.15 [64]
declare intvar hs.15.1 [16]
declare intvar hs.15.a [192]
declare intvar hs.15.u [192]
declare intvar hs.15.r [64]
declare intvar hs.15.z [64]
declare intvar hs.15.a.1 [192]
declare intvar hs.15.r.1 [64]
declare intvar hs.15.r.2 [64]
declare intvar hs.15.r.3 [64]
declare intvar hs.15.z.1 [64]
declare intvar hs.15.z.2 [64]
declare intvar hs.15.z.3 [64]
declare intvar hs.15.2 [64]
declare intvar hs.15.3 [64]
declare intvar hs.15.4 [64]
declare intvar hs.15.5 [64]
declare intvar hs.15.6 [64]
declare intvar hs.15.7 [64]
declare intvar hs.15.8 [64]
declare intvar hs.15.9 [64]
declare intvar hs.16 [1, 64]
declare intvar hs.17 [1, 64]
declare intvar hs.18 [2, 64]
declare intvar hs.19 [1, 64]
declare intvar hs.20 [1, 64]
declare intvar hs.21 [2, 64]
declare intvar hs.22 [4, 64]
declare intvar hs.23 [1, 64]
declare intvar hs.24 [1, 64]
declare intvar hs.25 [2, 64]
declare intvar hs.26 [1, 64]
declare intvar hs.27 [1, 64]
declare intvar hs.28 [2, 64]
declare intvar hs.29 [4, 64]
declare intvar hs.30 [8, 64]
declare intvar hs.31 [1, 64]
declare intvar hs.32 [1, 64]
declare intvar hs.33 [2, 64]
declare intvar hs.34 [1, 64]
declare intvar hs.35 [1, 64]
declare intvar hs.36 [2, 64]
declare intvar hs.37 [4, 64]
declare intvar hs.38 [1, 64]
declare intvar hs.39 [1, 64]
declare intvar hs.40 [2, 64]
declare intvar hs.41 [1, 64]
declare intvar hs.42 [1, 64]
declare intvar hs.43 [2, 64]
declare intvar hs.44 [4, 64]
declare intvar hs.45 [8, 64]
declare intvar logp.1 [16, 32]
declare intvar logp.2 [16, 32]
declare intvar targets.1 [16]
declare intvar targets.0 [32]
declare intvar targets.0.1
declare intvar targets.1.1 [32]
declare intvar targets.1.1.1
declare intvar targets.2 [32]
declare intvar targets.2.1
declare intvar targets.3 [32]
declare intvar targets.3.1
declare intvar targets.4 [32]
declare intvar targets.4.1
declare intvar targets.5 [32]
declare intvar targets.5.1
declare intvar targets.6 [32]
declare intvar targets.6.1
declare intvar targets.7 [32]
declare intvar targets.7.1
declare intvar targets.8 [32]
declare intvar targets.8.1
declare intvar targets.9 [32]
declare intvar targets.9.1
declare intvar targets.10 [32]
declare intvar targets.10.1
declare intvar targets.11 [32]
declare intvar targets.11.1
declare intvar targets.12 [32]
declare intvar targets.12.1
declare intvar targets.13 [32]
declare intvar targets.13.1
declare intvar targets.14 [32]
declare intvar targets.14.1
declare intvar targets.15 [32]
declare intvar targets.15.1
declare intvar targets.16 [1, 32]
declare intvar targets.17 [1, 32]
declare intvar targets.18 [2, 32]
declare intvar targets.19 [1, 32]
declare intvar targets.20 [1, 32]
declare intvar targets.21 [2, 32]
declare intvar targets.22 [4, 32]
declare intvar targets.23 [1, 32]
declare intvar targets.24 [1, 32]
declare intvar targets.25 [2, 32]
declare intvar targets.26 [1, 32]
declare intvar targets.27 [1, 32]
declare intvar targets.28 [2, 32]
declare intvar targets.29 [4, 32]
declare intvar targets.30 [8, 32]
declare intvar targets.31 [1, 32]
declare intvar targets.32 [1, 32]
declare intvar targets.33 [2, 32]
declare intvar targets.34 [1, 32]
declare intvar targets.35 [1, 32]
declare intvar targets.36 [2, 32]
declare intvar targets.37 [4, 32]
declare intvar targets.38 [1, 32]
declare intvar targets.39 [1, 32]
declare intvar targets.40 [2, 32]
declare intvar targets.41 [1, 32]
declare intvar targets.42 [1, 32]
declare intvar targets.43 [2, 32]
declare intvar targets.44 [4, 32]
declare intvar targets.45 [8, 32]
declare intvar xent.1 [16, 32]
declare intvar xent.2 [16]
declare intvar xent.3
declare intvar last_bits.1 [32]
declare intvar last_bits.2 [32]
declare intvar last_bits.3
declare intvar last_bits.4

# forward: the shape program
define hs.1 = slice chars 0 16
define hs.2 = take E hs.1
define hs.0.1 = index hs.2 0
define hs.0.a.1 = matmul W hs.0.1
define hs.0.a = add hs.0.a.1 b
define hs.0.u = matmul U h0
define hs.0.r.1 = slice hs.0.a 0 64
define hs.0.r.2 = slice hs.0.u 0 64
define hs.0.r.3 = add hs.0.r.1 hs.0.r.2
define hs.0.r = logistic hs.0.r.3
define hs.0.z.1 = slice hs.0.a 64 128
define hs.0.z.2 = slice hs.0.u 64 128
define hs.0.z.3 = add hs.0.z.1 hs.0.z.2
define hs.0.z = logistic hs.0.z.3
define hs.0.2 = mul hs.0.z h0
define hs.0.3 = sub 1 hs.0.z
define hs.0.4 = slice hs.0.a 128 192
define hs.0.5 = slice hs.0.u 128 192
define hs.0.6 = mul hs.0.r hs.0.5
define hs.0.7 = add hs.0.4 hs.0.6
define hs.0.8 = tanh hs.0.7
define hs.0.9 = mul hs.0.3 hs.0.8
define hs.0 = add hs.0.2 hs.0.9
define hs.1.1.1 = index hs.2 1
define hs.1.1.a.1 = matmul W hs.1.1.1
define hs.1.1.a = add hs.1.1.a.1 b
define hs.1.1.u = matmul U hs.0
define hs.1.1.r.1 = slice hs.1.1.a 0 64
define hs.1.1.r.2 = slice hs.1.1.u 0 64
define hs.1.1.r.3 = add hs.1.1.r.1 hs.1.1.r.2
define hs.1.1.r = logistic hs.1.1.r.3
define hs.1.1.z.1 = slice hs.1.1.a 64 128
define hs.1.1.z.2 = slice hs.1.1.u 64 128
define hs.1.1.z.3 = add hs.1.1.z.1 hs.1.1.z.2
define hs.1.1.z = logistic hs.1.1.z.3
define hs.1.1.2 = mul hs.1.1.z hs.0
define hs.1.1.3 = sub 1 hs.1.1.z
define hs.1.1.4 = slice hs.1.1.a 128 192
define hs.1.1.5 = slice hs.1.1.u 128 192
define hs.1.1.6 = mul hs.1.1.r hs.1.1.5
define hs.1.1.7 = add hs.1.1.4 hs.1.1.6
define hs.1.1.8 = tanh hs.1.1.7
define hs.1.1.9 = mul hs.1.1.3 hs.1.1.8
define hs.1.1 = add hs.1.1.2 hs.1.1.9
define hs.2.1.1 = index hs.2 2
define hs.2.1.a.1 = matmul W hs.2.1.1
define hs.2.1.a = add hs.2.1.a.1 b
define hs.2.1.u = matmul U hs.1.1
define hs.2.1.r.1 = slice hs.2.1.a 0 64
define hs.2.1.r.2 = slice hs.2.1.u 0 64
define hs.2.1.r.3 = add hs.2.1.r.1 hs.2.1.r.2
define hs.2.1.r = logistic hs.2.1.r.3
define hs.2.1.z.1 = slice hs.2.1.a 64 128
define hs.2.1.z.2 = slice hs.2.1.u 64 128
define hs.2.1.z.3 = add hs.2.1.z.1 hs.2.1.z.2
define hs.2.1.z = logistic hs.2.1.z.3
define hs.2.1.2 = mul hs.2.1.z hs.1.1
define hs.2.1.3 = sub 1 hs.2.1.z
define hs.2.1.4 = slice hs.2.1.a 128 192
define hs.2.1.5 = slice hs.2.1.u 128 192
define hs.2.1.6 = mul hs.2.1.r hs.2.1.5
define hs.2.1.7 = add hs.2.1.4 hs.2.1.6
define hs.2.1.8 = tanh hs.2.1.7
define hs.2.1.9 = mul hs.2.1.3 hs.2.1.8
define hs.2.1 = add hs.2.1.2 hs.2.1.9
define hs.3.1 = index hs.2 3
define hs.3.a.1 = matmul W hs.3.1
define hs.3.a = add hs.3.a.1 b
define hs.3.u = matmul U hs.2.1
define hs.3.r.1 = slice hs.3.a 0 64
define hs.3.r.2 = slice hs.3.u 0 64
define hs.3.r.3 = add hs.3.r.1 hs.3.r.2
define hs.3.r = logistic hs.3.r.3
define hs.3.z.1 = slice hs.3.a 64 128
define hs.3.z.2 = slice hs.3.u 64 128
define hs.3.z.3 = add hs.3.z.1 hs.3.z.2
define hs.3.z = logistic hs.3.z.3
define hs.3.2 = mul hs.3.z hs.2.1
define hs.3.3 = sub 1 hs.3.z
define hs.3.4 = slice hs.3.a 128 192
define hs.3.5 = slice hs.3.u 128 192
define hs.3.6 = mul hs.3.r hs.3.5
define hs.3.7 = add hs.3.4 hs.3.6
define hs.3.8 = tanh hs.3.7
define hs.3.9 = mul hs.3.3 hs.3.8
define hs.3 = add hs.3.2 hs.3.9
define hs.4.1 = index hs.2 4
define hs.4.a.1 = matmul W hs.4.1
define hs.4.a = add hs.4.a.1 b
define hs.4.u = matmul U hs.3
define hs.4.r.1 = slice hs.4.a 0 64
define hs.4.r.2 = slice hs.4.u 0 64
define hs.4.r.3 = add hs.4.r.1 hs.4.r.2
define hs.4.r = logistic hs.4.r.3
define hs.4.z.1 = slice hs.4.a 64 128
define hs.4.z.2 = slice hs.4.u 64 128
define hs.4.z.3 = add hs.4.z.1 hs.4.z.2
define hs.4.z = logistic hs.4.z.3
define hs.4.2 = mul hs.4.z hs.3
define hs.4.3 = sub 1 hs.4.z
define hs.4.4 = slice hs.4.a 128 192
define hs.4.5 = slice hs.4.u 128 192
define hs.4.6 = mul hs.4.r hs.4.5
define hs.4.7 = add hs.4.4 hs.4.6
define hs.4.8 = tanh hs.4.7
define hs.4.9 = mul hs.4.3 hs.4.8
define hs.4 = add hs.4.2 hs.4.9
define hs.5.1 = index hs.2 5
define hs.5.a.1 = matmul W hs.5.1
define hs.5.a = add hs.5.a.1 b
define hs.5.u = matmul U hs.4
define hs.5.r.1 = slice hs.5.a 0 64
define hs.5.r.2 = slice hs.5.u 0 64
define hs.5.r.3 = add hs.5.r.1 hs.5.r.2
define hs.5.r = logistic hs.5.r.3
define hs.5.z.1 = slice hs.5.a 64 128
define hs.5.z.2 = slice hs.5.u 64 128
define hs.5.z.3 = add hs.5.z.1 hs.5.z.2
define hs.5.z = logistic hs.5.z.3
define hs.5.2 = mul hs.5.z hs.4
define hs.5.3 = sub 1 hs.5.z
define hs.5.4 = slice hs.5.a 128 192
define hs.5.5 = slice hs.5.u 128 192
define hs.5.6 = mul hs.5.r hs.5.5
define hs.5.7 = add hs.5.4 hs.5.6
define hs.5.8 = tanh hs.5.7
define hs.5.9 = mul hs.5.3 hs.5.8
define hs.5 = add hs.5.2 hs.5.9
define hs.6.1 = index hs.2 6
define hs.6.a.1 = matmul W hs.6.1
define hs.6.a = add hs.6.a.1 b
define hs.6.u = matmul U hs.5
define hs.6.r.1 = slice hs.6.a 0 64
define hs.6.r.2 = slice hs.6.u 0 64
define hs.6.r.3 = add hs.6.r.1 hs.6.r.2
define hs.6.r = logistic hs.6.r.3
define hs.6.z.1 = slice hs.6.a 64 128
define hs.6.z.2 = slice hs.6.u 64 128
define hs.6.z.3 = add hs.6.z.1 hs.6.z.2
define hs.6.z = logistic hs.6.z.3
define hs.6.2 = mul hs.6.z hs.5
define hs.6.3 = sub 1 hs.6.z
define hs.6.4 = slice hs.6.a 128 192
define hs.6.5 = slice hs.6.u 128 192
define hs.6.6 = mul hs.6.r hs.6.5
define hs.6.7 = add hs.6.4 hs.6.6
define hs.6.8 = tanh hs.6.7
define hs.6.9 = mul hs.6.3 hs.6.8
define hs.6 = add hs.6.2 hs.6.9
define hs.7.1 = index hs.2 7
define hs.7.a.1 = matmul W hs.7.1
define hs.7.a = add hs.7.a.1 b
define hs.7.u = matmul U hs.6
define hs.7.r.1 = slice hs.7.a 0 64
define hs.7.r.2 = slice hs.7.u 0 64
define hs.7.r.3 = add hs.7.r.1 hs.7.r.2
define hs.7.r = logistic hs.7.r.3
define hs.7.z.1 = slice hs.7.a 64 128
define hs.7.z.2 = slice hs.7.u 64 128
define hs.7.z.3 = add hs.7.z.1 hs.7.z.2
define hs.7.z = logistic hs.7.z.3
define hs.7.2 = mul hs.7.z hs.6
define hs.7.3 = sub 1 hs.7.z
define hs.7.4 = slice hs.7.a 128 192
define hs.7.5 = slice hs.7.u 128 192
define hs.7.6 = mul hs.7.r hs.7.5
define hs.7.7 = add hs.7.4 hs.7.6
define hs.7.8 = tanh hs.7.7
define hs.7.9 = mul hs.7.3 hs.7.8
define hs.7 = add hs.7.2 hs.7.9
define hs.8.1 = index hs.2 8
define hs.8.a.1 = matmul W hs.8.1
define hs.8.a = add hs.8.a.1 b
define hs.8.u = matmul U hs.7
define hs.8.r.1 = slice hs.8.a 0 64
define hs.8.r.2 = slice hs.8.u 0 64
define hs.8.r.3 = add hs.8.r.1 hs.8.r.2
define hs.8.r = logistic hs.8.r.3
define hs.8.z.1 = slice hs.8.a 64 128
define hs.8.z.2 = slice hs.8.u 64 128
define hs.8.z.3 = add hs.8.z.1 hs.8.z.2
define hs.8.z = logistic hs.8.z.3
define hs.8.2 = mul hs.8.z hs.7
define hs.8.3 = sub 1 hs.8.z
define hs.8.4 = slice hs.8.a 128 192
define hs.8.5 = slice hs.8.u 128 192
define hs.8.6 = mul hs.8.r hs.8.5
define hs.8.7 = add hs.8.4 hs.8.6
define hs.8.8 = tanh hs.8.7
define hs.8.9 = mul hs.8.3 hs.8.8
define hs.8 = add hs.8.2 hs.8.9
define hs.9.1 = index hs.2 9
define hs.9.a.1 = matmul W hs.9.1
define hs.9.a = add hs.9.a.1 b
define hs.9.u = matmul U hs.8
define hs.9.r.1 = slice hs.9.a 0 64
define hs.9.r.2 = slice hs.9.u 0 64
define hs.9.r.3 = add hs.9.r.1 hs.9.r.2
define hs.9.r = logistic hs.9.r.3
define hs.9.z.1 = slice hs.9.a 64 128
define hs.9.z.2 = slice hs.9.u 64 128
define hs.9.z.3 = add hs.9.z.1 hs.9.z.2
define hs.9.z = logistic hs.9.z.3
define hs.9.2 = mul hs.9.z hs.8
define hs.9.3 = sub 1 hs.9.z
define hs.9.4 = slice hs.9.a 128 192
define hs.9.5 = slice hs.9.u 128 192
define hs.9.6 = mul hs.9.r hs.9.5
define hs.9.7 = add hs.9.4 hs.9.6
define hs.9.8 = tanh hs.9.7
define hs.9.9 = mul hs.9.3 hs.9.8
define hs.9 = add hs.9.2 hs.9.9
define hs.10.1 = index hs.2 10
define hs.10.a.1 = matmul W hs.10.1
define hs.10.a = add hs.10.a.1 b
define hs.10.u = matmul U hs.9
define hs.10.r.1 = slice hs.10.a 0 64
define hs.10.r.2 = slice hs.10.u 0 64
define hs.10.r.3 = add hs.10.r.1 hs.10.r.2
define hs.10.r = logistic hs.10.r.3
define hs.10.z.1 = slice hs.10.a 64 128
define hs.10.z.2 = slice hs.10.u 64 128
define hs.10.z.3 = add hs.10.z.1 hs.10.z.2
define hs.10.z = logistic hs.10.z.3
define hs.10.2 = mul hs.10.z hs.9
define hs.10.3 = sub 1 hs.10.z
define hs.10.4 = slice hs.10.a 128 192
define hs.10.5 = slice hs.10.u 128 192
define hs.10.6 = mul hs.10.r hs.10.5
define hs.10.7 = add hs.10.4 hs.10.6
define hs.10.8 = tanh hs.10.7
define hs.10.9 = mul hs.10.3 hs.10.8
define hs.10 = add hs.10.2 hs.10.9
define hs.11.1 = index hs.2 11
define hs.11.a.1 = matmul W hs.11.1
define hs.11.a = add hs.11.a.1 b
define hs.11.u = matmul U hs.10
define hs.11.r.1 = slice hs.11.a 0 64
define hs.11.r.2 = slice hs.11.u 0 64
define hs.11.r.3 = add hs.11.r.1 hs.11.r.2
define hs.11.r = logistic hs.11.r.3
define hs.11.z.1 = slice hs.11.a 64 128
define hs.11.z.2 = slice hs.11.u 64 128
define hs.11.z.3 = add hs.11.z.1 hs.11.z.2
define hs.11.z = logistic hs.11.z.3
define hs.11.2 = mul hs.11.z hs.10
define hs.11.3 = sub 1 hs.11.z
define hs.11.4 = slice hs.11.a 128 192
define hs.11.5 = slice hs.11.u 128 192
define hs.11.6 = mul hs.11.r hs.11.5
define hs.11.7 = add hs.11.4 hs.11.6
define hs.11.8 = tanh hs.11.7
define hs.11.9 = mul hs.11.3 hs.11.8
define hs.11 = add hs.11.2 hs.11.9
define hs.12.1 = index hs.2 12
define hs.12.a.1 = matmul W hs.12.1
define hs.12.a = add hs.12.a.1 b
define hs.12.u = matmul U hs.11
define hs.12.r.1 = slice hs.12.a 0 64
define hs.12.r.2 = slice hs.12.u 0 64
define hs.12.r.3 = add hs.12.r.1 hs.12.r.2
define hs.12.r = logistic hs.12.r.3
define hs.12.z.1 = slice hs.12.a 64 128
define hs.12.z.2 = slice hs.12.u 64 128
define hs.12.z.3 = add hs.12.z.1 hs.12.z.2
define hs.12.z = logistic hs.12.z.3
define hs.12.2 = mul hs.12.z hs.11
define hs.12.3 = sub 1 hs.12.z
define hs.12.4 = slice hs.12.a 128 192
define hs.12.5 = slice hs.12.u 128 192
define hs.12.6 = mul hs.12.r hs.12.5
define hs.12.7 = add hs.12.4 hs.12.6
define hs.12.8 = tanh hs.12.7
define hs.12.9 = mul hs.12.3 hs.12.8
define hs.12 = add hs.12.2 hs.12.9
define hs.13.1 = index hs.2 13
define hs.13.a.1 = matmul W hs.13.1
define hs.13.a = add hs.13.a.1 b
define hs.13.u = matmul U hs.12
define hs.13.r.1 = slice hs.13.a 0 64
define hs.13.r.2 = slice hs.13.u 0 64
define hs.13.r.3 = add hs.13.r.1 hs.13.r.2
define hs.13.r = logistic hs.13.r.3
define hs.13.z.1 = slice hs.13.a 64 128
define hs.13.z.2 = slice hs.13.u 64 128
define hs.13.z.3 = add hs.13.z.1 hs.13.z.2
define hs.13.z = logistic hs.13.z.3
define hs.13.2 = mul hs.13.z hs.12
define hs.13.3 = sub 1 hs.13.z
define hs.13.4 = slice hs.13.a 128 192
define hs.13.5 = slice hs.13.u 128 192
define hs.13.6 = mul hs.13.r hs.13.5
define hs.13.7 = add hs.13.4 hs.13.6
define hs.13.8 = tanh hs.13.7
define hs.13.9 = mul hs.13.3 hs.13.8
define hs.13 = add hs.13.2 hs.13.9
define hs.14.1 = index hs.2 14
define hs.14.a.1 = matmul W hs.14.1
define hs.14.a = add hs.14.a.1 b
define hs.14.u = matmul U hs.13
define hs.14.r.1 = slice hs.14.a 0 64
define hs.14.r.2 = slice hs.14.u 0 64
define hs.14.r.3 = add hs.14.r.1 hs.14.r.2
define hs.14.r = logistic hs.14.r.3
define hs.14.z.1 = slice hs.14.a 64 128
define hs.14.z.2 = slice hs.14.u 64 128
define hs.14.z.3 = add hs.14.z.1 hs.14.z.2
define hs.14.z = logistic hs.14.z.3
define hs.14.2 = mul hs.14.z hs.13
define hs.14.3 = sub 1 hs.14.z
define hs.14.4 = slice hs.14.a 128 192
define hs.14.5 = slice hs.14.u 128 192
define hs.14.6 = mul hs.14.r hs.14.5
define hs.14.7 = add hs.14.4 hs.14.6
define hs.14.8 = tanh hs.14.7
define hs.14.9 = mul hs.14.3 hs.14.8
define hs.14 = add hs.14.2 hs.14.9
define hs.15.1 = index hs.2 15
define hs.15.a.1 = matmul W hs.15.1
define hs.15.a = add hs.15.a.1 b
define hs.15.u = matmul U hs.14
define hs.15.r.1 = slice hs.15.a 0 64
define hs.15.r.2 = slice hs.15.u 0 64
define hs.15.r.3 = add hs.15.r.1 hs.15.r.2
define hs.15.r = logistic hs.15.r.3
define hs.15.z.1 = slice hs.15.a 64 128
define hs.15.z.2 = slice hs.15.u 64 128
define hs.15.z.3 = add hs.15.z.1 hs.15.z.2
define hs.15.z = logistic hs.15.z.3
define hs.15.2 = mul hs.15.z hs.14
define hs.15.3 = sub 1 hs.15.z
define hs.15.4 = slice hs.15.a 128 192
define hs.15.5 = slice hs.15.u 128 192
define hs.15.6 = mul hs.15.r hs.15.5
define hs.15.7 = add hs.15.4 hs.15.6
define hs.15.8 = tanh hs.15.7
define hs.15.9 = mul hs.15.3 hs.15.8
define hs.15 = add hs.15.2 hs.15.9
define hs.16 = reshape hs.0 [1, 64]
define hs.17 = reshape hs.1.1 [1, 64]
define hs.18 = concat hs.16 hs.17
define hs.19 = reshape hs.2.1 [1, 64]
define hs.20 = reshape hs.3 [1, 64]
define hs.21 = concat hs.19 hs.20
define hs.22 = concat hs.18 hs.21
define hs.23 = reshape hs.4 [1, 64]
define hs.24 = reshape hs.5 [1, 64]
define hs.25 = concat hs.23 hs.24
define hs.26 = reshape hs.6 [1, 64]
define hs.27 = reshape hs.7 [1, 64]
define hs.28 = concat hs.26 hs.27
define hs.29 = concat hs.25 hs.28
define hs.30 = concat hs.22 hs.29
define hs.31 = reshape hs.8 [1, 64]
define hs.32 = reshape hs.9 [1, 64]
define hs.33 = concat hs.31 hs.32
define hs.34 = reshape hs.10 [1, 64]
define hs.35 = reshape hs.11 [1, 64]
define hs.36 = concat hs.34 hs.35
define hs.37 = concat hs.33 hs.36
define hs.38 = reshape hs.12 [1, 64]
define hs.39 = reshape hs.13 [1, 64]
define hs.40 = concat hs.38 hs.39
define hs.41 = reshape hs.14 [1, 64]
define hs.42 = reshape hs.15 [1, 64]
define hs.43 = concat hs.41 hs.42
define hs.44 = concat hs.40 hs.43
define hs.45 = concat hs.37 hs.44
define hs = concat hs.30 hs.45
define logp.1 = matmul hs V
define logp.2 = add logp.1 c
define logp = log_softmax logp.2
define targets.1 = slice chars 1 17
define targets.0.1 = index targets.1 0
define targets.0 = one_hot targets.0.1 32
define targets.1.1.1 = index targets.1 1
define targets.1.1 = one_hot targets.1.1.1 32
define targets.2.1 = index targets.1 2
define targets.2 = one_hot targets.2.1 32
define targets.3.1 = index targets.1 3
define targets.3 = one_hot targets.3.1 32
define targets.4.1 = index targets.1 4
define targets.4 = one_hot targets.4.1 32
define targets.5.1 = index targets.1 5
define targets.5 = one_hot targets.5.1 32
define targets.6.1 = index targets.1 6
define targets.6 = one_hot targets.6.1 32
define targets.7.1 = index targets.1 7
define targets.7 = one_hot targets.7.1 32
define targets.8.1 = index targets.1 8
define targets.8 = one_hot targets.8.1 32
define targets.9.1 = index targets.1 9
define targets.9 = one_hot targets.9.1 32
define targets.10.1 = index targets.1 10
define targets.10 = one_hot targets.10.1 32
define targets.11.1 = index targets.1 11
define targets.11 = one_hot targets.11.1 32
define targets.12.1 = index targets.1 12
define targets.12 = one_hot targets.12.1 32
define targets.13.1 = index targets.1 13
define targets.13 = one_hot targets.13.1 32
define targets.14.1 = index targets.1 14
define targets.14 = one_hot targets.14.1 32
define targets.15.1 = index targets.1 15
define targets.15 = one_hot targets.15.1 32
define targets.16 = reshape targets.0 [1, 32]
define targets.17 = reshape targets.1.1 [1, 32]
define targets.18 = concat targets.16 targets.17
define targets.19 = reshape targets.2 [1, 32]
define targets.20 = reshape targets.3 [1, 32]
define targets.21 = concat targets.19 targets.20
define targets.22 = concat targets.18 targets.21
define targets.23 = reshape targets.4 [1, 32]
define targets.24 = reshape targets.5 [1, 32]
define targets.25 = concat targets.23 targets.24
define targets.26 = reshape targets.6 [1, 32]
define targets.27 = reshape targets.7 [1, 32]
define targets.28 = concat targets.26 targets.27
define targets.29 = concat targets.25 targets.28
define targets.30 = concat targets.22 targets.29
define targets.31 = reshape targets.8 [1, 32]
define targets.32 = reshape targets.9 [1, 32]
define targets.33 = concat targets.31 targets.32
define targets.34 = reshape targets.10 [1, 32]
define targets.35 = reshape targets.11 [1, 32]
define targets.36 = concat targets.34 targets.35
define targets.37 = concat targets.33 targets.36
define targets.38 = reshape targets.12 [1, 32]
define targets.39 = reshape targets.13 [1, 32]
define targets.40 = concat targets.38 targets.39
define targets.41 = reshape targets.14 [1, 32]
define targets.42 = reshape targets.15 [1, 32]
define targets.43 = concat targets.41 targets.42
define targets.44 = concat targets.40 targets.43
define targets.45 = concat targets.37 targets.44
define targets = concat targets.30 targets.45
define xent.1 = mul logp targets
define xent.2 = sum xent.1 1
define xent.3 = mean xent.2
define xent = neg xent.3
define bits = div xent 0.6931471805599453
define last_bits.1 = index logp 15
define last_bits.2 = index targets 15
define last_bits.3 = dot last_bits.1 last_bits.2
define last_bits.4 = neg last_bits.3
define last_bits = div last_bits.4 0.6931471805599453

# backward: adjoints d/dv, local partials dv/dm, temporaries tmp/v/k
# last_bits = div last_bits.4 0.6931471805599453
declare intvar d/dlast_bits
declare intvar dlast_bits/dlast_bits.4
define d/dlast_bits = 0
define dlast_bits/dlast_bits.4 = div 1 0.6931471805599453

# last_bits.4 = neg last_bits.3
declare intvar d/dlast_bits.4
declare intvar dlast_bits.4/dlast_bits.3
define d/dlast_bits.4 = mul d/dlast_bits dlast_bits/dlast_bits.4
define dlast_bits.4/dlast_bits.3 = -1

# last_bits.3 = dot last_bits.1 last_bits.2
declare intvar d/dlast_bits.3
declare intvar dlast_bits.3/dlast_bits.1 [32]
declare intvar dlast_bits.3/dlast_bits.2 [32]
define d/dlast_bits.3 = mul d/dlast_bits.4 dlast_bits.4/dlast_bits.3
define dlast_bits.3/dlast_bits.1 = last_bits.2
define dlast_bits.3/dlast_bits.2 = last_bits.1

# last_bits.2 = index targets 15
declare intvar d/dlast_bits.2 [32]
define d/dlast_bits.2 = mul d/dlast_bits.3 dlast_bits.3/dlast_bits.2

# last_bits.1 = index logp 15
declare intvar d/dlast_bits.1 [32]
define d/dlast_bits.1 = mul d/dlast_bits.3 dlast_bits.3/dlast_bits.1

# bits = div xent 0.6931471805599453
declare intvar d/dbits
declare intvar dbits/dxent
define d/dbits = 0
define dbits/dxent = div 1 0.6931471805599453

# xent = neg xent.3
declare intvar tmp/xent/1
declare intvar d/dxent
declare intvar dxent/dxent.3
define tmp/xent/1 = mul d/dbits dbits/dxent
define d/dxent = add 1 tmp/xent/1
define dxent/dxent.3 = -1

# xent.3 = mean xent.2
declare intvar d/dxent.3
define d/dxent.3 = mul d/dxent dxent/dxent.3

# xent.2 = sum xent.1 1
declare intvar tmp/xent.2/1
declare intvar d/dxent.2 [16]
define tmp/xent.2/1 = div d/dxent.3 16
define d/dxent.2 = broadcast_like tmp/xent.2/1 xent.2

# xent.1 = mul logp targets
declare intvar d/dxent.1 [16, 32]
declare intvar dxent.1/dlogp [16, 32]
declare intvar dxent.1/dtargets [16, 32]
define d/dxent.1 = broadcast_like d/dxent.2 xent.1 1
define dxent.1/dlogp = targets
define dxent.1/dtargets = logp

# targets = concat targets.30 targets.45
declare intvar tmp/targets/1 [16, 32]
declare intvar tmp/targets/3 [1, 32]
declare intvar tmp/targets/2 [16, 32]
declare intvar d/dtargets [16, 32]
define tmp/targets/1 = mul d/dxent.1 dxent.1/dtargets
define tmp/targets/3 = reshape d/dlast_bits.2 [1, 32]
define tmp/targets/2 = unslice tmp/targets/3 targets 15
define d/dtargets = add tmp/targets/1 tmp/targets/2

# targets.45 = concat targets.37 targets.44
declare intvar d/dtargets.45 [8, 32]
define d/dtargets.45 = slice d/dtargets 8 16

# targets.44 = concat targets.40 targets.43
declare intvar d/dtargets.44 [4, 32]
define d/dtargets.44 = slice d/dtargets.45 4 8

# targets.43 = concat targets.41 targets.42
declare intvar d/dtargets.43 [2, 32]
define d/dtargets.43 = slice d/dtargets.44 2 4

# targets.42 = reshape targets.15 [1, 32]
declare intvar d/dtargets.42 [1, 32]
define d/dtargets.42 = slice d/dtargets.43 1 2

# targets.41 = reshape targets.14 [1, 32]
declare intvar d/dtargets.41 [1, 32]
define d/dtargets.41 = slice d/dtargets.43 0 1

# targets.40 = concat targets.38 targets.39
declare intvar d/dtargets.40 [2, 32]
define d/dtargets.40 = slice d/dtargets.44 0 2

# targets.39 = reshape targets.13 [1, 32]
declare intvar d/dtargets.39 [1, 32]
define d/dtargets.39 = slice d/dtargets.40 1 2

# targets.38 = reshape targets.12 [1, 32]
declare intvar d/dtargets.38 [1, 32]
define d/dtargets.38 = slice d/dtargets.40 0 1

# targets.37 = concat targets.33 targets.36
declare intvar d/dtargets.37 [4, 32]
define d/dtargets.37 = slice d/dtargets.45 0 4

# targets.36 = concat targets.34 targets.35
declare intvar d/dtargets.36 [2, 32]
define d/dtargets.36 = slice d/dtargets.37 2 4

# targets.35 = reshape targets.11 [1, 32]
declare intvar d/dtargets.35 [1, 32]
define d/dtargets.35 = slice d/dtargets.36 1 2

# targets.34 = reshape targets.10 [1, 32]
declare intvar d/dtargets.34 [1, 32]
define d/dtargets.34 = slice d/dtargets.36 0 1

# targets.33 = concat targets.31 targets.32
declare intvar d/dtargets.33 [2, 32]
define d/dtargets.33 = slice d/dtargets.37 0 2

# targets.32 = reshape targets.9 [1, 32]
declare intvar d/dtargets.32 [1, 32]
define d/dtargets.32 = slice d/dtargets.33 1 2

# targets.31 = reshape targets.8 [1, 32]
declare intvar d/dtargets.31 [1, 32]
define d/dtargets.31 = slice d/dtargets.33 0 1

# targets.30 = concat targets.22 targets.29
declare intvar d/dtargets.30 [8, 32]
define d/dtargets.30 = slice d/dtargets 0 8

# targets.29 = concat targets.25 targets.28
declare intvar d/dtargets.29 [4, 32]
define d/dtargets.29 = slice d/dtargets.30 4 8

# targets.28 = concat targets.26 targets.27
declare intvar d/dtargets.28 [2, 32]
define d/dtargets.28 = slice d/dtargets.29 2 4

# targets.27 = reshape targets.7 [1, 32]
declare intvar d/dtargets.27 [1, 32]
define d/dtargets.27 = slice d/dtargets.28 1 2

# targets.26 = reshape targets.6 [1, 32]
declare intvar d/dtargets.26 [1, 32]
define d/dtargets.26 = slice d/dtargets.28 0 1

# targets.25 = concat targets.23 targets.24
declare intvar d/dtargets.25 [2, 32]
define d/dtargets.25 = slice d/dtargets.29 0 2

# targets.24 = reshape targets.5 [1, 32]
declare intvar d/dtargets.24 [1, 32]
define d/dtargets.24 = slice d/dtargets.25 1 2

# targets.23 = reshape targets.4 [1, 32]
declare intvar d/dtargets.23 [1, 32]
define d/dtargets.23 = slice d/dtargets.25 0 1

# targets.22 = concat targets.18 targets.21
declare intvar d/dtargets.22 [4, 32]
define d/dtargets.22 = slice d/dtargets.30 0 4

# targets.21 = concat targets.19 targets.20
declare intvar d/dtargets.21 [2, 32]
define d/dtargets.21 = slice d/dtargets.22 2 4

# targets.20 = reshape targets.3 [1, 32]
declare intvar d/dtargets.20 [1, 32]
define d/dtargets.20 = slice d/dtargets.21 1 2

# targets.19 = reshape targets.2 [1, 32]
declare intvar d/dtargets.19 [1, 32]
define d/dtargets.19 = slice d/dtargets.21 0 1

# targets.18 = concat targets.16 targets.17
declare intvar d/dtargets.18 [2, 32]
define d/dtargets.18 = slice d/dtargets.22 0 2

# targets.17 = reshape targets.1.1 [1, 32]
declare intvar d/dtargets.17 [1, 32]
define d/dtargets.17 = slice d/dtargets.18 1 2

# targets.16 = reshape targets.0 [1, 32]
declare intvar d/dtargets.16 [1, 32]
define d/dtargets.16 = slice d/dtargets.18 0 1

# targets.15 = one_hot targets.15.1 32
declare intvar d/dtargets.15 [32]
define d/dtargets.15 = reshape d/dtargets.42 [32]

# targets.15.1 = index targets.1 15
declare intvar d/dtargets.15.1
define d/dtargets.15.1 = broadcast_like 0 targets.15.1

# targets.14 = one_hot targets.14.1 32
declare intvar d/dtargets.14 [32]
define d/dtargets.14 = reshape d/dtargets.41 [32]

# targets.14.1 = index targets.1 14
declare intvar d/dtargets.14.1
define d/dtargets.14.1 = broadcast_like 0 targets.14.1

# targets.13 = one_hot targets.13.1 32
declare intvar d/dtargets.13 [32]
define d/dtargets.13 = reshape d/dtargets.39 [32]

# targets.13.1 = index targets.1 13
declare intvar d/dtargets.13.1
define d/dtargets.13.1 = broadcast_like 0 targets.13.1

# targets.12 = one_hot targets.12.1 32
declare intvar d/dtargets.12 [32]
define d/dtargets.12 = reshape d/dtargets.38 [32]

# targets.12.1 = index targets.1 12
declare intvar d/dtargets.12.1
define d/dtargets.12.1 = broadcast_like 0 targets.12.1

# targets.11 = one_hot targets.11.1 32
declare intvar d/dtargets.11 [32]
define d/dtargets.11 = reshape d/dtargets.35 [32]

# targets.11.1 = index targets.1 11
declare intvar d/dtargets.11.1
define d/dtargets.11.1 = broadcast_like 0 targets.11.1

# targets.10 = one_hot targets.10.1 32
declare intvar d/dtargets.10 [32]
define d/dtargets.10 = reshape d/dtargets.34 [32]

# targets.10.1 = index targets.1 10
declare intvar d/dtargets.10.1
define d/dtargets.10.1 = broadcast_like 0 targets.10.1

# targets.9 = one_hot targets.9.1 32
declare intvar d/dtargets.9 [32]
define d/dtargets.9 = reshape d/dtargets.32 [32]

# targets.9.1 = index targets.1 9
declare intvar d/dtargets.9.1
define d/dtargets.9.1 = broadcast_like 0 targets.9.1

# targets.8 = one_hot targets.8.1 32
declare intvar d/dtargets.8 [32]
define d/dtargets.8 = reshape d/dtargets.31 [32]

# targets.8.1 = index targets.1 8
declare intvar d/dtargets.8.1
define d/dtargets.8.1 = broadcast_like 0 targets.8.1

# targets.7 = one_hot targets.7.1 32
declare intvar d/dtargets.7 [32]
define d/dtargets.7 = reshape d/dtargets.27 [32]

# targets.7.1 = index targets.1 7
declare intvar d/dtargets.7.1
define d/dtargets.7.1 = broadcast_like 0 targets.7.1

# targets.6 = one_hot targets.6.1 32
declare intvar d/dtargets.6 [32]
define d/dtargets.6 = reshape d/dtargets.26 [32]

# targets.6.1 = index targets.1 6
declare intvar d/dtargets.6.1
define d/dtargets.6.1 = broadcast_like 0 targets.6.1

# targets.5 = one_hot targets.5.1 32
declare intvar d/dtargets.5 [32]
define d/dtargets.5 = reshape d/dtargets.24 [32]

# targets.5.1 = index targets.1 5
declare intvar d/dtargets.5.1
define d/dtargets.5.1 = broadcast_like 0 targets.5.1

# targets.4 = one_hot targets.4.1 32
declare intvar d/dtargets.4 [32]
define d/dtargets.4 = reshape d/dtargets.23 [32]

# targets.4.1 = index targets.1 4
declare intvar d/dtargets.4.1
define d/dtargets.4.1 = broadcast_like 0 targets.4.1

# targets.3 = one_hot targets.3.1 32
declare intvar d/dtargets.3 [32]
define d/dtargets.3 = reshape d/dtargets.20 [32]

# targets.3.1 = index targets.1 3
declare intvar d/dtargets.3.1
define d/dtargets.3.1 = broadcast_like 0 targets.3.1

# targets.2 = one_hot targets.2.1 32
declare intvar d/dtargets.2 [32]
define d/dtargets.2 = reshape d/dtargets.19 [32]

# targets.2.1 = index targets.1 2
declare intvar d/dtargets.2.1
define d/dtargets.2.1 = broadcast_like 0 targets.2.1

# targets.1.1 = one_hot targets.1.1.1 32
declare intvar d/dtargets.1.1 [32]
define d/dtargets.1.1 = reshape d/dtargets.17 [32]

# targets.1.1.1 = index targets.1 1
declare intvar d/dtargets.1.1.1
define d/dtargets.1.1.1 = broadcast_like 0 targets.1.1.1

# targets.0 = one_hot targets.0.1 32
declare intvar d/dtargets.0 [32]
define d/dtargets.0 = reshape d/dtargets.16 [32]

# targets.0.1 = index targets.1 0
declare intvar d/dtargets.0.1
define d/dtargets.0.1 = broadcast_like 0 targets.0.1

# targets.1 = slice chars 1 17
declare intvar tmp/targets.1/2 [1]
declare intvar tmp/targets.1/1 [16]
declare intvar tmp/targets.1/4 [1]
declare intvar tmp/targets.1/3 [16]
declare intvar tmp/targets.1/6 [1]
declare intvar tmp/targets.1/5 [16]
declare intvar tmp/targets.1/8 [1]
declare intvar tmp/targets.1/7 [16]
declare intvar tmp/targets.1/10 [1]
declare intvar tmp/targets.1/9 [16]
declare intvar tmp/targets.1/12 [1]
declare intvar tmp/targets.1/11 [16]
declare intvar tmp/targets.1/14 [1]
declare intvar tmp/targets.1/13 [16]
declare intvar tmp/targets.1/16 [1]
declare intvar tmp/targets.1/15 [16]
declare intvar tmp/targets.1/18 [1]
declare intvar tmp/targets.1/17 [16]
declare intvar tmp/targets.1/20 [1]
declare intvar tmp/targets.1/19 [16]
declare intvar tmp/targets.1/22 [1]
declare intvar tmp/targets.1/21 [16]
declare intvar tmp/targets.1/24 [1]
declare intvar tmp/targets.1/23 [16]
declare intvar tmp/targets.1/26 [1]
declare intvar tmp/targets.1/25 [16]
declare intvar tmp/targets.1/28 [1]
declare intvar tmp/targets.1/27 [16]
declare intvar tmp/targets.1/30 [1]
declare intvar tmp/targets.1/29 [16]
declare intvar tmp/targets.1/32 [1]
declare intvar tmp/targets.1/31 [16]
declare intvar tmp/targets.1/33 [16]
declare intvar tmp/targets.1/34 [16]
declare intvar tmp/targets.1/35 [16]
declare intvar tmp/targets.1/36 [16]
declare intvar tmp/targets.1/37 [16]
declare intvar tmp/targets.1/38 [16]
declare intvar tmp/targets.1/39 [16]
declare intvar tmp/targets.1/40 [16]
declare intvar tmp/targets.1/41 [16]
declare intvar tmp/targets.1/42 [16]
declare intvar tmp/targets.1/43 [16]
declare intvar tmp/targets.1/44 [16]
declare intvar tmp/targets.1/45 [16]
declare intvar tmp/targets.1/46 [16]
declare intvar d/dtargets.1 [16]
define tmp/targets.1/2 = reshape d/dtargets.0.1 [1]
define tmp/targets.1/1 = unslice tmp/targets.1/2 targets.1 0
define tmp/targets.1/4 = reshape d/dtargets.1.1.1 [1]
define tmp/targets.1/3 = unslice tmp/targets.1/4 targets.1 1
define tmp/targets.1/6 = reshape d/dtargets.2.1 [1]
define tmp/targets.1/5 = unslice tmp/targets.1/6 targets.1 2
define tmp/targets.1/8 = reshape d/dtargets.3.1 [1]
define tmp/targets.1/7 = unslice tmp/targets.1/8 targets.1 3
define tmp/targets.1/10 = reshape d/dtargets.4.1 [1]
define tmp/targets.1/9 = unslice tmp/targets.1/10 targets.1 4
define tmp/targets.1/12 = reshape d/dtargets.5.1 [1]
define tmp/targets.1/11 = unslice tmp/targets.1/12 targets.1 5
define tmp/targets.1/14 = reshape d/dtargets.6.1 [1]
define tmp/targets.1/13 = unslice tmp/targets.1/14 targets.1 6
define tmp/targets.1/16 = reshape d/dtargets.7.1 [1]
define tmp/targets.1/15 = unslice tmp/targets.1/16 targets.1 7
define tmp/targets.1/18 = reshape d/dtargets.8.1 [1]
define tmp/targets.1/17 = unslice tmp/targets.1/18 targets.1 8
define tmp/targets.1/20 = reshape d/dtargets.9.1 [1]
define tmp/targets.1/19 = unslice tmp/targets.1/20 targets.1 9
define tmp/targets.1/22 = reshape d/dtargets.10.1 [1]
define tmp/targets.1/21 = unslice tmp/targets.1/22 targets.1 10
define tmp/targets.1/24 = reshape d/dtargets.11.1 [1]
define tmp/targets.1/23 = unslice tmp/targets.1/24 targets.1 11
define tmp/targets.1/26 = reshape d/dtargets.12.1 [1]
define tmp/targets.1/25 = unslice tmp/targets.1/26 targets.1 12
define tmp/targets.1/28 = reshape d/dtargets.13.1 [1]
define tmp/targets.1/27 = unslice tmp/targets.1/28 targets.1 13
define tmp/targets.1/30 = reshape d/dtargets.14.1 [1]
define tmp/targets.1/29 = unslice tmp/targets.1/30 targets.1 14
define tmp/targets.1/32 = reshape d/dtargets.15.1 [1]
define tmp/targets.1/31 = unslice tmp/targets.1/32 targets.1 15
define tmp/targets.1/33 = add tmp/targets.1/1 tmp/targets.1/3
define tmp/targets.1/34 = add tmp/targets.1/33 tmp/targets.1/5
define tmp/targets.1/35 = add tmp/targets.1/34 tmp/targets.1/7
define tmp/targets.1/36 = add tmp/targets.1/35 tmp/targets.1/9
define tmp/targets.1/37 = add tmp/targets.1/36 tmp/targets.1/11
define tmp/targets.1/38 = add tmp/targets.1/37 tmp/targets.1/13
define tmp/targets.1/39 = add tmp/targets.1/38 tmp/targets.1/15
define tmp/targets.1/40 = add tmp/targets.1/39 tmp/targets.1/17
define tmp/targets.1/41 = add tmp/targets.1/40 tmp/targets.1/19
define tmp/targets.1/42 = add tmp/targets.1/41 tmp/targets.1/21
define tmp/targets.1/43 = add tmp/targets.1/42 tmp/targets.1/23
define tmp/targets.1/44 = add tmp/targets.1/43 tmp/targets.1/25
define tmp/targets.1/45 = add tmp/targets.1/44 tmp/targets.1/27
define tmp/targets.1/46 = add tmp/targets.1/45 tmp/targets.1/29
define d/dtargets.1 = add tmp/targets.1/46 tmp/targets.1/31

# logp = log_softmax logp.2
declare intvar tmp/logp/1 [16, 32]
declare intvar tmp/logp/3 [1, 32]
declare intvar tmp/logp/2 [16, 32]
declare intvar d/dlogp [16, 32]
declare intvar dlogp/dlogp.2 [16, 32]
define tmp/logp/1 = mul d/dxent.1 dxent.1/dlogp
define tmp/logp/3 = reshape d/dlast_bits.1 [1, 32]
define tmp/logp/2 = unslice tmp/logp/3 logp 15
define d/dlogp = add tmp/logp/1 tmp/logp/2
define dlogp/dlogp.2 = softmax logp.2

# logp.2 = add logp.1 c
declare intvar tmp/logp.2/1 [16]
declare intvar tmp/logp.2/2 [16, 32]
declare intvar tmp/logp.2/3 [16, 32]
declare intvar d/dlogp.2 [16, 32]
declare intvar dlogp.2/dlogp.1
declare intvar dlogp.2/dc
define tmp/logp.2/1 = sum d/dlogp 1
define tmp/logp.2/2 = broadcast_like tmp/logp.2/1 dlogp/dlogp.2 1
define tmp/logp.2/3 = mul dlogp/dlogp.2 tmp/logp.2/2
define d/dlogp.2 = sub d/dlogp tmp/logp.2/3
define dlogp.2/dlogp.1 = 1
define dlogp.2/dc = 1

# logp.1 = matmul hs V
declare intvar d/dlogp.1 [16, 32]
declare intvar dlogp.1/dhs [32, 64]
declare intvar dlogp.1/dV [64, 16]
define d/dlogp.1 = mul d/dlogp.2 dlogp.2/dlogp.1
define dlogp.1/dhs = transpose V
define dlogp.1/dV = transpose hs

# hs = concat hs.30 hs.45
declare intvar d/dhs [16, 64]
define d/dhs = matmul d/dlogp.1 dlogp.1/dhs

# hs.45 = concat hs.37 hs.44
declare intvar d/dhs.45 [8, 64]
define d/dhs.45 = slice d/dhs 8 16

# hs.44 = concat hs.40 hs.43
declare intvar d/dhs.44 [4, 64]
define d/dhs.44 = slice d/dhs.45 4 8

# hs.43 = concat hs.41 hs.42
declare intvar d/dhs.43 [2, 64]
define d/dhs.43 = slice d/dhs.44 2 4

# hs.42 = reshape hs.15 [1, 64]
declare intvar d/dhs.42 [1, 64]
define d/dhs.42 = slice d/dhs.43 1 2

# hs.41 = reshape hs.14 [1, 64]
declare intvar d/dhs.41 [1, 64]
define d/dhs.41 = slice d/dhs.43 0 1

# hs.40 = concat hs.38 hs.39
declare intvar d/dhs.40 [2, 64]
define d/dhs.40 = slice d/dhs.44 0 2

# hs.39 = reshape hs.13 [1, 64]
declare intvar d/dhs.39 [1, 64]
define d/dhs.39 = slice d/dhs.40 1 2

# hs.38 = reshape hs.12 [1, 64]
declare intvar d/dhs.38 [1, 64]
define d/dhs.38 = slice d/dhs.40 0 1

# hs.37 = concat hs.33 hs.36
declare intvar d/dhs.37 [4, 64]
define d/dhs.37 = slice d/dhs.45 0 4

# hs.36 = concat hs.34 hs.35
declare intvar d/dhs.36 [2, 64]
define d/dhs.36 = slice d/dhs.37 2 4

# hs.35 = reshape hs.11 [1, 64]
declare intvar d/dhs.35 [1, 64]
define d/dhs.35 = slice d/dhs.36 1 2

# hs.34 = reshape hs.10 [1, 64]
declare intvar d/dhs.34 [1, 64]
define d/dhs.34 = slice d/dhs.36 0 1

# hs.33 = concat hs.31 hs.32
declare intvar d/dhs.33 [2, 64]
define d/dhs.33 = slice d/dhs.37 0 2

# hs.32 = reshape hs.9 [1, 64]
declare intvar d/dhs.32 [1, 64]
define d/dhs.32 = slice d/dhs.33 1 2

# hs.31 = reshape hs.8 [1, 64]
declare intvar d/dhs.31 [1, 64]
define d/dhs.31 = slice d/dhs.33 0 1

# hs.30 = concat hs.22 hs.29
declare intvar d/dhs.30 [8, 64]
define d/dhs.30 = slice d/dhs 0 8

# hs.29 = concat hs.25 hs.28
declare intvar d/dhs.29 [4, 64]
define d/dhs.29 = slice d/dhs.30 4 8

# hs.28 = concat hs.26 hs.27
declare intvar d/dhs.28 [2, 64]
define d/dhs.28 = slice d/dhs.29 2 4

# hs.27 = reshape hs.7 [1, 64]
declare intvar d/dhs.27 [1, 64]
define d/dhs.27 = slice d/dhs.28 1 2

# hs.26 = reshape hs.6 [1, 64]
declare intvar d/dhs.26 [1, 64]
define d/dhs.26 = slice d/dhs.28 0 1

# hs.25 = concat hs.23 hs.24
declare intvar d/dhs.25 [2, 64]
define d/dhs.25 = slice d/dhs.29 0 2

# hs.24 = reshape hs.5 [1, 64]
declare intvar d/dhs.24 [1, 64]
define d/dhs.24 = slice d/dhs.25 1 2

# hs.23 = reshape hs.4 [1, 64]
declare intvar d/dhs.23 [1, 64]
define d/dhs.23 = slice d/dhs.25 0 1

# hs.22 = concat hs.18 hs.21
declare intvar d/dhs.22 [4, 64]
define d/dhs.22 = slice d/dhs.30 0 4

# hs.21 = concat hs.19 hs.20
declare intvar d/dhs.21 [2, 64]
define d/dhs.21 = slice d/dhs.22 2 4

# hs.20 = reshape hs.3 [1, 64]
declare intvar d/dhs.20 [1, 64]
define d/dhs.20 = slice d/dhs.21 1 2

# hs.19 = reshape hs.2.1 [1, 64]
declare intvar d/dhs.19 [1, 64]
define d/dhs.19 = slice d/dhs.21 0 1

# hs.18 = concat hs.16 hs.17
declare intvar d/dhs.18 [2, 64]
define d/dhs.18 = slice d/dhs.22 0 2

# hs.17 = reshape hs.1.1 [1, 64]
declare intvar d/dhs.17 [1, 64]
define d/dhs.17 = slice d/dhs.18 1 2

# hs.16 = reshape hs.0 [1, 64]
declare intvar d/dhs.16 [1, 64]
define d/dhs.16 = slice d/dhs.18 0 1

# hs.15 = add hs.15.2 hs.15.9
declare intvar d/dhs.15 [64]
declare intvar dhs.15/dhs.15.2
declare intvar dhs.15/dhs.15.9
define d/dhs.15 = reshape d/dhs.42 [64]
define dhs.15/dhs.15.2 = 1
define dhs.15/dhs.15.9 = 1

# hs.15.9 = mul hs.15.3 hs.15.8
declare intvar d/dhs.15.9 [64]
declare intvar dhs.15.9/dhs.15.3 [64]
declare intvar dhs.15.9/dhs.15.8 [64]
define d/dhs.15.9 = mul d/dhs.15 dhs.15/dhs.15.9
define dhs.15.9/dhs.15.3 = hs.15.8
define dhs.15.9/dhs.15.8 = hs.15.3

# hs.15.8 = tanh hs.15.7
declare intvar d/dhs.15.8 [64]
declare intvar dhs.15.8/dhs.15.7 [64]
define d/dhs.15.8 = mul d/dhs.15.9 dhs.15.9/dhs.15.8
define dhs.15.8/dhs.15.7 = tanh_deriv hs.15.7

# hs.15.7 = add hs.15.4 hs.15.6
declare intvar d/dhs.15.7 [64]
declare intvar dhs.15.7/dhs.15.4
declare intvar dhs.15.7/dhs.15.6
define d/dhs.15.7 = mul d/dhs.15.8 dhs.15.8/dhs.15.7
define dhs.15.7/dhs.15.4 = 1
define dhs.15.7/dhs.15.6 = 1

# hs.15.6 = mul hs.15.r hs.15.5
declare intvar d/dhs.15.6 [64]
declare intvar dhs.15.6/dhs.15.r [64]
declare intvar dhs.15.6/dhs.15.5 [64]
define d/dhs.15.6 = mul d/dhs.15.7 dhs.15.7/dhs.15.6
define dhs.15.6/dhs.15.r = hs.15.5
define dhs.15.6/dhs.15.5 = hs.15.r

# hs.15.5 = slice hs.15.u 128 192
declare intvar d/dhs.15.5 [64]
define d/dhs.15.5 = mul d/dhs.15.6 dhs.15.6/dhs.15.5

# hs.15.4 = slice hs.15.a 128 192
declare intvar d/dhs.15.4 [64]
define d/dhs.15.4 = mul d/dhs.15.7 dhs.15.7/dhs.15.4

# hs.15.3 = sub 1 hs.15.z
declare intvar d/dhs.15.3 [64]
declare intvar dhs.15.3/dhs.15.z
define d/dhs.15.3 = mul d/dhs.15.9 dhs.15.9/dhs.15.3
define dhs.15.3/dhs.15.z = -1

# hs.15.2 = mul hs.15.z hs.14
declare intvar d/dhs.15.2 [64]
declare intvar dhs.15.2/dhs.15.z [64]
declare intvar dhs.15.2/dhs.14 [64]
define d/dhs.15.2 = mul d/dhs.15 dhs.15/dhs.15.2
define dhs.15.2/dhs.15.z = hs.14
define dhs.15.2/dhs.14 = hs.15.z

# hs.15.z = logistic hs.15.z.3
declare intvar tmp/hs.15.z/1 [64]
declare intvar tmp/hs.15.z/2 [64]
declare intvar d/dhs.15.z [64]
declare intvar dhs.15.z/dhs.15.z.3 [64]
define tmp/hs.15.z/1 = mul d/dhs.15.2 dhs.15.2/dhs.15.z
define tmp/hs.15.z/2 = mul d/dhs.15.3 dhs.15.3/dhs.15.z
define d/dhs.15.z = add tmp/hs.15.z/1 tmp/hs.15.z/2
define dhs.15.z/dhs.15.z.3 = logistic_deriv hs.15.z.3

# hs.15.z.3 = add hs.15.z.1 hs.15.z.2
declare intvar d/dhs.15.z.3 [64]
declare intvar dhs.15.z.3/dhs.15.z.1
declare intvar dhs.15.z.3/dhs.15.z.2
define d/dhs.15.z.3 = mul d/dhs.15.z dhs.15.z/dhs.15.z.3
define dhs.15.z.3/dhs.15.z.1 = 1
define dhs.15.z.3/dhs.15.z.2 = 1

# hs.15.z.2 = slice hs.15.u 64 128
declare intvar d/dhs.15.z.2 [64]
define d/dhs.15.z.2 = mul d/dhs.15.z.3 dhs.15.z.3/dhs.15.z.2

# hs.15.z.1 = slice hs.15.a 64 128
declare intvar d/dhs.15.z.1 [64]
define d/dhs.15.z.1 = mul d/dhs.15.z.3 dhs.15.z.3/dhs.15.z.1

# hs.15.r = logistic hs.15.r.3
declare intvar d/dhs.15.r [64]
declare intvar dhs.15.r/dhs.15.r.3 [64]
define d/dhs.15.r = mul d/dhs.15.6 dhs.15.6/dhs.15.r
define dhs.15.r/dhs.15.r.3 = logistic_deriv hs.15.r.3

# hs.15.r.3 = add hs.15.r.1 hs.15.r.2
declare intvar d/dhs.15.r.3 [64]
declare intvar dhs.15.r.3/dhs.15.r.1
declare intvar dhs.15.r.3/dhs.15.r.2
define d/dhs.15.r.3 = mul d/dhs.15.r dhs.15.r/dhs.15.r.3
define dhs.15.r.3/dhs.15.r.1 = 1
define dhs.15.r.3/dhs.15.r.2 = 1

# hs.15.r.2 = slice hs.15.u 0 64
declare intvar d/dhs.15.r.2 [64]
define d/dhs.15.r.2 = mul d/dhs.15.r.3 dhs.15.r.3/dhs.15.r.2

# hs.15.r.1 = slice hs.15.a 0 64
declare intvar d/dhs.15.r.1 [64]
define d/dhs.15.r.1 = mul d/dhs.15.r.3 dhs.15.r.3/dhs.15.r.1

# hs.15.u = matmul U hs.14
declare intvar tmp/hs.15.u/1 [192]
declare intvar tmp/hs.15.u/2 [192]
declare intvar tmp/hs.15.u/3 [192]
declare intvar tmp/hs.15.u/4 [192]
declare intvar d/dhs.15.u [192]
declare intvar dhs.15.u/dU [64]
declare intvar dhs.15.u/dhs.14 [64, 192]
define tmp/hs.15.u/1 = unslice d/dhs.15.r.2 hs.15.u 0
define tmp/hs.15.u/2 = unslice d/dhs.15.z.2 hs.15.u 64
define tmp/hs.15.u/3 = unslice d/dhs.15.5 hs.15.u 128
define tmp/hs.15.u/4 = add tmp/hs.15.u/1 tmp/hs.15.u/2
define d/dhs.15.u = add tmp/hs.15.u/4 tmp/hs.15.u/3
define dhs.15.u/dU = hs.14
define dhs.15.u/dhs.14 = transpose U

# hs.15.a = add hs.15.a.1 b
declare intvar tmp/hs.15.a/1 [192]
declare intvar tmp/hs.15.a/2 [192]
declare intvar tmp/hs.15.a/3 [192]
declare intvar tmp/hs.15.a/4 [192]
declare intvar d/dhs.15.a [192]
declare intvar dhs.15.a/dhs.15.a.1
declare intvar dhs.15.a/db
define tmp/hs.15.a/1 = unslice d/dhs.15.r.1 hs.15.a 0
define tmp/hs.15.a/2 = unslice d/dhs.15.z.1 hs.15.a 64
define tmp/hs.15.a/3 = unslice d/dhs.15.4 hs.15.a 128
define tmp/hs.15.a/4 = add tmp/hs.15.a/1 tmp/hs.15.a/2
define d/dhs.15.a = add tmp/hs.15.a/4 tmp/hs.15.a/3
define dhs.15.a/dhs.15.a.1 = 1
define dhs.15.a/db = 1

# hs.15.a.1 = matmul W hs.15.1
declare intvar d/dhs.15.a.1 [192]
declare intvar dhs.15.a.1/dW [16]
declare intvar dhs.15.a.1/dhs.15.1 [16, 192]
define d/dhs.15.a.1 = mul d/dhs.15.a dhs.15.a/dhs.15.a.1
define dhs.15.a.1/dW = hs.15.1
define dhs.15.a.1/dhs.15.1 = transpose W

# hs.15.1 = index hs.2 15
declare intvar d/dhs.15.1 [16]
define d/dhs.15.1 = matmul dhs.15.a.1/dhs.15.1 d/dhs.15.a.1

# hs.14 = add hs.14.2 hs.14.9
declare intvar tmp/hs.14/1 [64]
declare intvar tmp/hs.14/2 [64]
declare intvar tmp/hs.14/3 [64]
declare intvar tmp/hs.14/4 [64]
declare intvar d/dhs.14 [64]
declare intvar dhs.14/dhs.14.2
declare intvar dhs.14/dhs.14.9
define tmp/hs.14/1 = matmul dhs.15.u/dhs.14 d/dhs.15.u
define tmp/hs.14/2 = mul d/dhs.15.2 dhs.15.2/dhs.14
define tmp/hs.14/3 = reshape d/dhs.41 [64]
define tmp/hs.14/4 = add tmp/hs.14/1 tmp/hs.14/2
define d/dhs.14 = add tmp/hs.14/4 tmp/hs.14/3
define dhs.14/dhs.14.2 = 1
define dhs.14/dhs.14.9 = 1

# hs.14.9 = mul hs.14.3 hs.14.8
declare intvar d/dhs.14.9 [64]
declare intvar dhs.14.9/dhs.14.3 [64]
declare intvar dhs.14.9/dhs.14.8 [64]
define d/dhs.14.9 = mul d/dhs.14 dhs.14/dhs.14.9
define dhs.14.9/dhs.14.3 = hs.14.8
define dhs.14.9/dhs.14.8 = hs.14.3

# hs.14.8 = tanh hs.14.7
declare intvar d/dhs.14.8 [64]
declare intvar dhs.14.8/dhs.14.7 [64]
define d/dhs.14.8 = mul d/dhs.14.9 dhs.14.9/dhs.14.8
define dhs.14.8/dhs.14.7 = tanh_deriv hs.14.7

# hs.14.7 = add hs.14.4 hs.14.6
declare intvar d/dhs.14.7 [64]
declare intvar dhs.14.7/dhs.14.4
declare intvar dhs.14.7/dhs.14.6
define d/dhs.14.7 = mul d/dhs.14.8 dhs.14.8/dhs.14.7
define dhs.14.7/dhs.14.4 = 1
define dhs.14.7/dhs.14.6 = 1

# hs.14.6 = mul hs.14.r hs.14.5
declare intvar d/dhs.14.6 [64]
declare intvar dhs.14.6/dhs.14.r [64]
declare intvar dhs.14.6/dhs.14.5 [64]
define d/dhs.14.6 = mul d/dhs.14.7 dhs.14.7/dhs.14.6
define dhs.14.6/dhs.14.r = hs.14.5
define dhs.14.6/dhs.14.5 = hs.14.r

# hs.14.5 = slice hs.14.u 128 192
declare intvar d/dhs.14.5 [64]
define d/dhs.14.5 = mul d/dhs.14.6 dhs.14.6/dhs.14.5

# hs.14.4 = slice hs.14.a 128 192
declare intvar d/dhs.14.4 [64]
define d/dhs.14.4 = mul d/dhs.14.7 dhs.14.7/dhs.14.4

# hs.14.3 = sub 1 hs.14.z
declare intvar d/dhs.14.3 [64]
declare intvar dhs.14.3/dhs.14.z
define d/dhs.14.3 = mul d/dhs.14.9 dhs.14.9/dhs.14.3
define dhs.14.3/dhs.14.z = -1

# hs.14.2 = mul hs.14.z hs.13
declare intvar d/dhs.14.2 [64]
declare intvar dhs.14.2/dhs.14.z [64]
declare intvar dhs.14.2/dhs.13 [64]
define d/dhs.14.2 = mul d/dhs.14 dhs.14/dhs.14.2
define dhs.14.2/dhs.14.z = hs.13
define dhs.14.2/dhs.13 = hs.14.z

# hs.14.z = logistic hs.14.z.3
declare intvar tmp/hs.14.z/1 [64]
declare intvar tmp/hs.14.z/2 [64]
declare intvar d/dhs.14.z [64]
declare intvar dhs.14.z/dhs.14.z.3 [64]
define tmp/hs.14.z/1 = mul d/dhs.14.2 dhs.14.2/dhs.14.z
define tmp/hs.14.z/2 = mul d/dhs.14.3 dhs.14.3/dhs.14.z
define d/dhs.14.z = add tmp/hs.14.z/1 tmp/hs.14.z/2
define dhs.14.z/dhs.14.z.3 = logistic_deriv hs.14.z.3

# hs.14.z.3 = add hs.14.z.1 hs.14.z.2
declare intvar d/dhs.14.z.3 [64]
declare intvar dhs.14.z.3/dhs.14.z.1
declare intvar dhs.14.z.3/dhs.14.z.2
define d/dhs.14.z.3 = mul d/dhs.14.z dhs.14.z/dhs.14.z.3
define dhs.14.z.3/dhs.14.z.1 = 1
define dhs.14.z.3/dhs.14.z.2 = 1

# hs.14.z.2 = slice hs.14.u 64 128
declare intvar d/dhs.14.z.2 [64]
define d/dhs.14.z.2 = mul d/dhs.14.z.3 dhs.14.z.3/dhs.14.z.2

# hs.14.z.1 = slice hs.14.a 64 128
declare intvar d/dhs.14.z.1 [64]
define d/dhs.14.z.1 = mul d/dhs.14.z.3 dhs.14.z.3/dhs.14.z.1

# hs.14.r = logistic hs.14.r.3
declare intvar d/dhs.14.r [64]
declare intvar dhs.14.r/dhs.14.r.3 [64]
define d/dhs.14.r = mul d/dhs.14.6 dhs.14.6/dhs.14.r
define dhs.14.r/dhs.14.r.3 = logistic_deriv hs.14.r.3

# hs.14.r.3 = add hs.14.r.1 hs.14.r.2
declare intvar d/dhs.14.r.3 [64]
declare intvar dhs.14.r.3/dhs.14.r.1
declare intvar dhs.14.r.3/dhs.14.r.2
define d/dhs.14.r.3 = mul d/dhs.14.r dhs.14.r/dhs.14.r.3
define dhs.14.r.3/dhs.14.r.1 = 1
define dhs.14.r.3/dhs.14.r.2 = 1

# hs.14.r.2 = slice hs.14.u 0 64
declare intvar d/dhs.14.r.2 [64]
define d/dhs.14.r.2 = mul d/dhs.14.r.3 dhs.14.r.3/dhs.14.r.2

# hs.14.r.1 = slice hs.14.a 0 64
declare intvar d/dhs.14.r.1 [64]
define d/dhs.14.r.1 = mul d/dhs.14.r.3 dhs.14.r.3/dhs.14.r.1

# hs.14.u = matmul U hs.13
declare intvar tmp/hs.14.u/1 [192]
declare intvar tmp/hs.14.u/2 [192]
declare intvar tmp/hs.14.u/3 [192]
declare intvar tmp/hs.14.u/4 [192]
declare intvar d/dhs.14.u [192]
declare intvar dhs.14.u/dU [64]
declare intvar dhs.14.u/dhs.13 [64, 192]
define tmp/hs.14.u/1 = unslice d/dhs.14.r.2 hs.14.u 0
define tmp/hs.14.u/2 = unslice d/dhs.14.z.2 hs.14.u 64
define tmp/hs.14.u/3 = unslice d/dhs.14.5 hs.14.u 128
define tmp/hs.14.u/4 = add tmp/hs.14.u/1 tmp/hs.14.u/2
define d/dhs.14.u = add tmp/hs.14.u/4 tmp/hs.14.u/3
define dhs.14.u/dU = hs.13
define dhs.14.u/dhs.13 = transpose U

# hs.14.a = add hs.14.a.1 b
declare intvar tmp/hs.14.a/1 [192]
declare intvar tmp/hs.14.a/2 [192]
declare intvar tmp/hs.14.a/3 [192]
declare intvar tmp/hs.14.a/4 [192]
declare intvar d/dhs.14.a [192]
declare intvar dhs.14.a/dhs.14.a.1
declare intvar dhs.14.a/db
define tmp/hs.14.a/1 = unslice d/dhs.14.r.1 hs.14.a 0
define tmp/hs.14.a/2 = unslice d/dhs.14.z.1 hs.14.a 64
define tmp/hs.14.a/3 = unslice d/dhs.14.4 hs.14.a 128
define tmp/hs.14.a/4 = add tmp/hs.14.a/1 tmp/hs.14.a/2
define d/dhs.14.a = add tmp/hs.14.a/4 tmp/hs.14.a/3
define dhs.14.a/dhs.14.a.1 = 1
define dhs.14.a/db = 1

# hs.14.a.1 = matmul W hs.14.1
declare intvar d/dhs.14.a.1 [192]
declare intvar dhs.14.a.1/dW [16]
declare intvar dhs.14.a.1/dhs.14.1 [16, 192]
define d/dhs.14.a.1 = mul d/dhs.14.a dhs.14.a/dhs.14.a.1
define dhs.14.a.1/dW = hs.14.1
define dhs.14.a.1/dhs.14.1 = transpose W

# hs.14.1 = index hs.2 14
declare intvar d/dhs.14.1 [16]
define d/dhs.14.1 = matmul dhs.14.a.1/dhs.14.1 d/dhs.14.a.1

# hs.13 = add hs.13.2 hs.13.9
declare intvar tmp/hs.13/1 [64]
declare intvar tmp/hs.13/2 [64]
declare intvar tmp/hs.13/3 [64]
declare intvar tmp/hs.13/4 [64]
declare intvar d/dhs.13 [64]
declare intvar dhs.13/dhs.13.2
declare intvar dhs.13/dhs.13.9
define tmp/hs.13/1 = matmul dhs.14.u/dhs.13 d/dhs.14.u
define tmp/hs.13/2 = mul d/dhs.14.2 dhs.14.2/dhs.13
define tmp/hs.13/3 = reshape d/dhs.39 [64]
define tmp/hs.13/4 = add tmp/hs.13/1 tmp/hs.13/2
define d/dhs.13 = add tmp/hs.13/4 tmp/hs.13/3
define dhs.13/dhs.13.2 = 1
define dhs.13/dhs.13.9 = 1

# hs.13.9 = mul hs.13.3 hs.13.8
declare intvar d/dhs.13.9 [64]
declare intvar dhs.13.9/dhs.13.3 [64]
declare intvar dhs.13.9/dhs.13.8 [64]
define d/dhs.13.9 = mul d/dhs.13 dhs.13/dhs.13.9
define dhs.13.9/dhs.13.3 = hs.13.8
define dhs.13.9/dhs.13.8 = hs.13.3

# hs.13.8 = tanh hs.13.7
declare intvar d/dhs.13.8 [64]
declare intvar dhs.13.8/dhs.13.7 [64]
define d/dhs.13.8 = mul d/dhs.13.9 dhs.13.9/dhs.13.8
define dhs.13.8/dhs.13.7 = tanh_deriv hs.13.7

# hs.13.7 = add hs.13.4 hs.13.6
declare intvar d/dhs.13.7 [64]
declare intvar dhs.13.7/dhs.13.4
declare intvar dhs.13.7/dhs.13.6
define d/dhs.13.7 = mul d/dhs.13.8 dhs.13.8/dhs.13.7
define dhs.13.7/dhs.13.4 = 1
define dhs.13.7/dhs.13.6 = 1

# hs.13.6 = mul hs.13.r hs.13.5
declare intvar d/dhs.13.6 [64]
declare intvar dhs.13.6/dhs.13.r [64]
declare intvar dhs.13.6/dhs.13.5 [64]
define d/dhs.13.6 = mul d/dhs.13.7 dhs.13.7/dhs.13.6
define dhs.13.6/dhs.13.r = hs.13.5
define dhs.13.6/dhs.13.5 = hs.13.r

# hs.13.5 = slice hs.13.u 128 192
declare intvar d/dhs.13.5 [64]
define d/dhs.13.5 = mul d/dhs.13.6 dhs.13.6/dhs.13.5

# hs.13.4 = slice hs.13.a 128 192
declare intvar d/dhs.13.4 [64]
define d/dhs.13.4 = mul d/dhs.13.7 dhs.13.7/dhs.13.4

# hs.13.3 = sub 1 hs.13.z
declare intvar d/dhs.13.3 [64]
declare intvar dhs.13.3/dhs.13.z
define d/dhs.13.3 = mul d/dhs.13.9 dhs.13.9/dhs.13.3
define dhs.13.3/dhs.13.z = -1

# hs.13.2 = mul hs.13.z hs.12
declare intvar d/dhs.13.2 [64]
declare intvar dhs.13.2/dhs.13.z [64]
declare intvar dhs.13.2/dhs.12 [64]
define d/dhs.13.2 = mul d/dhs.13 dhs.13/dhs.13.2
define dhs.13.2/dhs.13.z = hs.12
define dhs.13.2/dhs.12 = hs.13.z

# hs.13.z = logistic hs.13.z.3
declare intvar tmp/hs.13.z/1 [64]
declare intvar tmp/hs.13.z/2 [64]
declare intvar d/dhs.13.z [64]
declare intvar dhs.13.z/dhs.13.z.3 [64]
define tmp/hs.13.z/1 = mul d/dhs.13.2 dhs.13.2/dhs.13.z
define tmp/hs.13.z/2 = mul d/dhs.13.3 dhs.13.3/dhs.13.z
define d/dhs.13.z = add tmp/hs.13.z/1 tmp/hs.13.z/2
define dhs.13.z/dhs.13.z.3 = logistic_deriv hs.13.z.3

# hs.13.z.3 = add hs.13.z.1 hs.13.z.2
declare intvar d/dhs.13.z.3 [64]
declare intvar dhs.13.z.3/dhs.13.z.1
declare intvar dhs.13.z.3/dhs.13.z.2
define d/dhs.13.z.3 = mul d/dhs.13.z dhs.13.z/dhs.13.z.3
define dhs.13.z.3/dhs.13.z.1 = 1
define dhs.13.z.3/dhs.13.z.2 = 1

# hs.13.z.2 = slice hs.13.u 64 128
declare intvar d/dhs.13.z.2 [64]
define d/dhs.13.z.2 = mul d/dhs.13.z.3 dhs.13.z.3/dhs.13.z.2

# hs.13.z.1 = slice hs.13.a 64 128
declare intvar d/dhs.13.z.1 [64]
define d/dhs.13.z.1 = mul d/dhs.13.z.3 dhs.13.z.3/dhs.13.z.1

# hs.13.r = logistic hs.13.r.3
declare intvar d/dhs.13.r [64]
declare intvar dhs.13.r/dhs.13.r.3 [64]
define d/dhs.13.r = mul d/dhs.13.6 dhs.13.6/dhs.13.r
define dhs.13.r/dhs.13.r.3 = logistic_deriv hs.13.r.3

# hs.13.r.3 = add hs.13.r.1 hs.13.r.2
declare intvar d/dhs.13.r.3 [64]
declare intvar dhs.13.r.3/dhs.13.r.1
declare intvar dhs.13.r.3/dhs.13.r.2
define d/dhs.13.r.3 = mul d/dhs.13.r dhs.13.r/dhs.13.r.3
define dhs.13.r.3/dhs.13.r.1 = 1
define dhs.13.r.3/dhs.13.r.2 = 1

# hs.13.r.2 = slice hs.13.u 0 64
declare intvar d/dhs.13.r.2 [64]
define d/dhs.13.r.2 = mul d/dhs.13.r.3 dhs.13.r.3/dhs.13.r.2

# hs.13.r.1 = slice hs.13.a 0 64
declare intvar d/dhs.13.r.1 [64]
define d/dhs.13.r.1 = mul d/dhs.13.r.3 dhs.13.r.3/dhs.13.r.1

# hs.13.u = matmul U hs.12
declare intvar tmp/hs.13.u/1 [192]
declare intvar tmp/hs.13.u/2 [192]
declare intvar tmp/hs.13.u/3 [192]
declare intvar tmp/hs.13.u/4 [192]
declare intvar d/dhs.13.u [192]
declare intvar dhs.13.u/dU [64]
declare intvar dhs.13.u/dhs.12 [64, 192]
define tmp/hs.13.u/1 = unslice d/dhs.13.r.2 hs.13.u 0
define tmp/hs.13.u/2 = unslice d/dhs.13.z.2 hs.13.u 64
define tmp/hs.13.u/3 = unslice d/dhs.13.5 hs.13.u 128
define tmp/hs.13.u/4 = add tmp/hs.13.u/1 tmp/hs.13.u/2
define d/dhs.13.u = add tmp/hs.13.u/4 tmp/hs.13.u/3
define dhs.13.u/dU = hs.12
define dhs.13.u/dhs.12 = transpose U

# hs.13.a = add hs.13.a.1 b
declare intvar tmp/hs.13.a/1 [192]
declare intvar tmp/hs.13.a/2 [192]
declare intvar tmp/hs.13.a/3 [192]
declare intvar tmp/hs.13.a/4 [192]
declare intvar d/dhs.13.a [192]
declare intvar dhs.13.a/dhs.13.a.1
declare intvar dhs.13.a/db
define tmp/hs.13.a/1 = unslice d/dhs.13.r.1 hs.13.a 0
define tmp/hs.13.a/2 = unslice d/dhs.13.z.1 hs.13.a 64
define tmp/hs.13.a/3 = unslice d/dhs.13.4 hs.13.a 128
define tmp/hs.13.a/4 = add tmp/hs.13.a/1 tmp/hs.13.a/2
define d/dhs.13.a = add tmp/hs.13.a/4 tmp/hs.13.a/3
define dhs.13.a/dhs.13.a.1 = 1
define dhs.13.a/db = 1

# hs.13.a.1 = matmul W hs.13.1
declare intvar d/dhs.13.a.1 [192]
declare intvar dhs.13.a.1/dW [16]
declare intvar dhs.13.a.1/dhs.13.1 [16, 192]
define d/dhs.13.a.1 = mul d/dhs.13.a dhs.13.a/dhs.13.a.1
define dhs.13.a.1/dW = hs.13.1
define dhs.13.a.1/dhs.13.1 = transpose W

# hs.13.1 = index hs.2 13
declare intvar d/dhs.13.1 [16]
define d/dhs.13.1 = matmul dhs.13.a.1/dhs.13.1 d/dhs.13.a.1

# hs.12 = add hs.12.2 hs.12.9
declare intvar tmp/hs.12/1 [64]
declare intvar tmp/hs.12/2 [64]
declare intvar tmp/hs.12/3 [64]
declare intvar tmp/hs.12/4 [64]
declare intvar d/dhs.12 [64]
declare intvar dhs.12/dhs.12.2
declare intvar dhs.12/dhs.12.9
define tmp/hs.12/1 = matmul dhs.13.u/dhs.12 d/dhs.13.u
define tmp/hs.12/2 = mul d/dhs.13.2 dhs.13.2/dhs.12
define tmp/hs.12/3 = reshape d/dhs.38 [64]
define tmp/hs.12/4 = add tmp/hs.12/1 tmp/hs.12/2
define d/dhs.12 = add tmp/hs.12/4 tmp/hs.12/3
define dhs.12/dhs.12.2 = 1
define dhs.12/dhs.12.9 = 1

# hs.12.9 = mul hs.12.3 hs.12.8
declare intvar d/dhs.12.9 [64]
declare intvar dhs.12.9/dhs.12.3 [64]
declare intvar dhs.12.9/dhs.12.8 [64]
define d/dhs.12.9 = mul d/dhs.12 dhs.12/dhs.12.9
define dhs.12.9/dhs.12.3 = hs.12.8
define dhs.12.9/dhs.12.8 = hs.12.3

# hs.12.8 = tanh hs.12.7
declare intvar d/dhs.12.8 [64]
declare intvar dhs.12.8/dhs.12.7 [64]
define d/dhs.12.8 = mul d/dhs.12.9 dhs.12.9/dhs.12.8
define dhs.12.8/dhs.12.7 = tanh_deriv hs.12.7

# hs.12.7 = add hs.12.4 hs.12.6
declare intvar d/dhs.12.7 [64]
declare intvar dhs.12.7/dhs.12.4
declare intvar dhs.12.7/dhs.12.6
define d/dhs.12.7 = mul d/dhs.12.8 dhs.12.8/dhs.12.7
define dhs.12.7/dhs.12.4 = 1
define dhs.12.7/dhs.12.6 = 1

# hs.12.6 = mul hs.12.r hs.12.5
declare intvar d/dhs.12.6 [64]
declare intvar dhs.12.6/dhs.12.r [64]
declare intvar dhs.12.6/dhs.12.5 [64]
define d/dhs.12.6 = mul d/dhs.12.7 dhs.12.7/dhs.12.6
define dhs.12.6/dhs.12.r = hs.12.5
define dhs.12.6/dhs.12.5 = hs.12.r

# hs.12.5 = slice hs.12.u 128 192
declare intvar d/dhs.12.5 [64]
define d/dhs.12.5 = mul d/dhs.12.6 dhs.12.6/dhs.12.5

# hs.12.4 = slice hs.12.a 128 192
declare intvar d/dhs.12.4 [64]
define d/dhs.12.4 = mul d/dhs.12.7 dhs.12.7/dhs.12.4

# hs.12.3 = sub 1 hs.12.z
declare intvar d/dhs.12.3 [64]
declare intvar dhs.12.3/dhs.12.z
define d/dhs.12.3 = mul d/dhs.12.9 dhs.12.9/dhs.12.3
define dhs.12.3/dhs.12.z = -1

# hs.12.2 = mul hs.12.z hs.11
declare intvar d/dhs.12.2 [64]
declare intvar dhs.12.2/dhs.12.z [64]
declare intvar dhs.12.2/dhs.11 [64]
define d/dhs.12.2 = mul d/dhs.12 dhs.12/dhs.12.2
define dhs.12.2/dhs.12.z = hs.11
define dhs.12.2/dhs.11 = hs.12.z

# hs.12.z = logistic hs.12.z.3
declare intvar tmp/hs.12.z/1 [64]
declare intvar tmp/hs.12.z/2 [64]
declare intvar d/dhs.12.z [64]
declare intvar dhs.12.z/dhs.12.z.3 [64]
define tmp/hs.12.z/1 = mul d/dhs.12.2 dhs.12.2/dhs.12.z
define tmp/hs.12.z/2 = mul d/dhs.12.3 dhs.12.3/dhs.12.z
define d/dhs.12.z = add tmp/hs.12.z/1 tmp/hs.12.z/2
define dhs.12.z/dhs.12.z.3 = logistic_deriv hs.12.z.3

# hs.12.z.3 = add hs.12.z.1 hs.12.z.2
declare intvar d/dhs.12.z.3 [64]
declare intvar dhs.12.z.3/dhs.12.z.1
declare intvar dhs.12.z.3/dhs.12.z.2
define d/dhs.12.z.3 = mul d/dhs.12.z dhs.12.z/dhs.12.z.3
define dhs.12.z.3/dhs.12.z.1 = 1
define dhs.12.z.3/dhs.12.z.2 = 1

# hs.12.z.2 = slice hs.12.u 64 128
declare intvar d/dhs.12.z.2 [64]
define d/dhs.12.z.2 = mul d/dhs.12.z.3 dhs.12.z.3/dhs.12.z.2

# hs.12.z.1 = slice hs.12.a 64 128
declare intvar d/dhs.12.z.1 [64]
define d/dhs.12.z.1 = mul d/dhs.12.z.3 dhs.12.z.3/dhs.12.z.1

# hs.12.r = logistic hs.12.r.3
declare intvar d/dhs.12.r [64]
declare intvar dhs.12.r/dhs.12.r.3 [64]
define d/dhs.12.r = mul d/dhs.12.6 dhs.12.6/dhs.12.r
define dhs.12.r/dhs.12.r.3 = logistic_deriv hs.12.r.3

# hs.12.r.3 = add hs.12.r.1 hs.12.r.2
declare intvar d/dhs.12.r.3 [64]
declare intvar dhs.12.r.3/dhs.12.r.1
declare intvar dhs.12.r.3/dhs.12.r.2
define d/dhs.12.r.3 = mul d/dhs.12.r dhs.12.r/dhs.12.r.3
define dhs.12.r.3/dhs.12.r.1 = 1
define dhs.12.r.3/dhs.12.r.2 = 1

# hs.12.r.2 = slice hs.12.u 0 64
declare intvar d/dhs.12.r.2 [64]
define d/dhs.12.r.2 = mul d/dhs.12.r.3 dhs.12.r.3/dhs.12.r.2

# hs.12.r.1 = slice hs.12.a 0 64
declare intvar d/dhs.12.r.1 [64]
define d/dhs.12.r.1 = mul d/dhs.12.r.3 dhs.12.r.3/dhs.12.r.1

# hs.12.u = matmul U hs.11
declare intvar tmp/hs.12.u/1 [192]
declare intvar tmp/hs.12.u/2 [192]
declare intvar tmp/hs.12.u/3 [192]
declare intvar tmp/hs.12.u/4 [192]
declare intvar d/dhs.12.u [192]
declare intvar dhs.12.u/dU [64]
declare intvar dhs.12.u/dhs.11 [64, 192]
define tmp/hs.12.u/1 = unslice d/dhs.12.r.2 hs.12.u 0
define tmp/hs.12.u/2 = unslice d/dhs.12.z.2 hs.12.u 64
define tmp/hs.12.u/3 = unslice d/dhs.12.5 hs.12.u 128
define tmp/hs.12.u/4 = add tmp/hs.12.u/1 tmp/hs.12.u/2
define d/dhs.12.u = add tmp/hs.12.u/4 tmp/hs.12.u/3
define dhs.12.u/dU = hs.11
define dhs.12.u/dhs.11 = transpose U

# hs.12.a = add hs.12.a.1 b
declare intvar tmp/hs.12.a/1 [192]
declare intvar tmp/hs.12.a/2 [192]
declare intvar tmp/hs.12.a/3 [192]
declare intvar tmp/hs.12.a/4 [192]
declare intvar d/dhs.12.a [192]
declare intvar dhs.12.a/dhs.12.a.1
declare intvar dhs.12.a/db
define tmp/hs.12.a/1 = unslice d/dhs.12.r.1 hs.12.a 0
define tmp/hs.12.a/2 = unslice d/dhs.12.z.1 hs.12.a 64
define tmp/hs.12.a/3 = unslice d/dhs.12.4 hs.12.a 128
define tmp/hs.12.a/4 = add tmp/hs.12.a/1 tmp/hs.12.a/2
define d/dhs.12.a = add tmp/hs.12.a/4 tmp/hs.12.a/3
define dhs.12.a/dhs.12.a.1 = 1
define dhs.12.a/db = 1

# hs.12.a.1 = matmul W hs.12.1
declare intvar d/dhs.12.a.1 [192]
declare intvar dhs.12.a.1/dW [16]
declare intvar dhs.12.a.1/dhs.12.1 [16, 192]
define d/dhs.12.a.1 = mul d/dhs.12.a dhs.12.a/dhs.12.a.1
define dhs.12.a.1/dW = hs.12.1
define dhs.12.a.1/dhs.12.1 = transpose W

# hs.12.1 = index hs.2 12
declare intvar d/dhs.12.1 [16]
define d/dhs.12.1 = matmul dhs.12.a.1/dhs.12.1 d/dhs.12.a.1

# hs.11 = add hs.11.2 hs.11.9
declare intvar tmp/hs.11/1 [64]
declare intvar tmp/hs.11/2 [64]
declare intvar tmp/hs.11/3 [64]
declare intvar tmp/hs.11/4 [64]
declare intvar d/dhs.11 [64]
declare intvar dhs.11/dhs.11.2
declare intvar dhs.11/dhs.11.9
define tmp/hs.11/1 = matmul dhs.12.u/dhs.11 d/dhs.12.u
define tmp/hs.11/2 = mul d/dhs.12.2 dhs.12.2/dhs.11
define tmp/hs.11/3 = reshape d/dhs.35 [64]
define tmp/hs.11/4 = add tmp/hs.11/1 tmp/hs.11/2
define d/dhs.11 = add tmp/hs.11/4 tmp/hs.11/3
define dhs.11/dhs.11.2 = 1
define dhs.11/dhs.11.9 = 1

# hs.11.9 = mul hs.11.3 hs.11.8
declare intvar d/dhs.11.9 [64]
declare intvar dhs.11.9/dhs.11.3 [64]
declare intvar dhs.11.9/dhs.11.8 [64]
define d/dhs.11.9 = mul d/dhs.11 dhs.11/dhs.11.9
define dhs.11.9/dhs.11.3 = hs.11.8
define dhs.11.9/dhs.11.8 = hs.11.3

# hs.11.8 = tanh hs.11.7
declare intvar d/dhs.11.8 [64]
declare intvar dhs.11.8/dhs.11.7 [64]
define d/dhs.11.8 = mul d/dhs.11.9 dhs.11.9/dhs.11.8
define dhs.11.8/dhs.11.7 = tanh_deriv hs.11.7

# hs.11.7 = add hs.11.4 hs.11.6
declare intvar d/dhs.11.7 [64]
declare intvar dhs.11.7/dhs.11.4
declare intvar dhs.11.7/dhs.11.6
define d/dhs.11.7 = mul d/dhs.11.8 dhs.11.8/dhs.11.7
define dhs.11.7/dhs.11.4 = 1
define dhs.11.7/dhs.11.6 = 1

# hs.11.6 = mul hs.11.r hs.11.5
declare intvar d/dhs.11.6 [64]
declare intvar dhs.11.6/dhs.11.r [64]
declare intvar dhs.11.6/dhs.11.5 [64]
define d/dhs.11.6 = mul d/dhs.11.7 dhs.11.7/dhs.11.6
define dhs.11.6/dhs.11.r = hs.11.5
define dhs.11.6/dhs.11.5 = hs.11.r

# hs.11.5 = slice hs.11.u 128 192
declare intvar d/dhs.11.5 [64]
define d/dhs.11.5 = mul d/dhs.11.6 dhs.11.6/dhs.11.5

# hs.11.4 = slice hs.11.a 128 192
declare intvar d/dhs.11.4 [64]
define d/dhs.11.4 = mul d/dhs.11.7 dhs.11.7/dhs.11.4

# hs.11.3 = sub 1 hs.11.z
declare intvar d/dhs.11.3 [64]
declare intvar dhs.11.3/dhs.11.z
define d/dhs.11.3 = mul d/dhs.11.9 dhs.11.9/dhs.11.3
define dhs.11.3/dhs.11.z = -1

# hs.11.2 = mul hs.11.z hs.10
declare intvar d/dhs.11.2 [64]
declare intvar dhs.11.2/dhs.11.z [64]
declare intvar dhs.11.2/dhs.10 [64]
define d/dhs.11.2 = mul d/dhs.11 dhs.11/dhs.11.2
define dhs.11.2/dhs.11.z = hs.10
define dhs.11.2/dhs.10 = hs.11.z

# hs.11.z = logistic hs.11.z.3
declare intvar tmp/hs.11.z/1 [64]
declare intvar tmp/hs.11.z/2 [64]
declare intvar d/dhs.11.z [64]
declare intvar dhs.11.z/dhs.11.z.3 [64]
define tmp/hs.11.z/1 = mul d/dhs.11.2 dhs.11.2/dhs.11.z
define tmp/hs.11.z/2 = mul d/dhs.11.3 dhs.11.3/dhs.11.z
define d/dhs.11.z = add tmp/hs.11.z/1 tmp/hs.11.z/2
define dhs.11.z/dhs.11.z.3 = logistic_deriv hs.11.z.3

# hs.11.z.3 = add hs.11.z.1 hs.11.z.2
declare intvar d/dhs.11.z.3 [64]
declare intvar dhs.11.z.3/dhs.11.z.1
declare intvar dhs.11.z.3/dhs.11.z.2
define d/dhs.11.z.3 = mul d/dhs.11.z dhs.11.z/dhs.11.z.3
define dhs.11.z.3/dhs.11.z.1 = 1
define dhs.11.z.3/dhs.11.z.2 = 1

# hs.11.z.2 = slice hs.11.u 64 128
declare intvar d/dhs.11.z.2 [64]
define d/dhs.11.z.2 = mul d/dhs.11.z.3 dhs.11.z.3/dhs.11.z.2

# hs.11.z.1 = slice hs.11.a 64 128
declare intvar d/dhs.11.z.1 [64]
define d/dhs.11.z.1 = mul d/dhs.11.z.3 dhs.11.z.3/dhs.11.z.1

# hs.11.r = logistic hs.11.r.3
declare intvar d/dhs.11.r [64]
declare intvar dhs.11.r/dhs.11.r.3 [64]
define d/dhs.11.r = mul d/dhs.11.6 dhs.11.6/dhs.11.r
define dhs.11.r/dhs.11.r.3 = logistic_deriv hs.11.r.3

# hs.11.r.3 = add hs.11.r.1 hs.11.r.2
declare intvar d/dhs.11.r.3 [64]
declare intvar dhs.11.r.3/dhs.11.r.1
declare intvar dhs.11.r.3/dhs.11.r.2
define d/dhs.11.r.3 = mul d/dhs.11.r dhs.11.r/dhs.11.r.3
define dhs.11.r.3/dhs.11.r.1 = 1
define dhs.11.r.3/dhs.11.r.2 = 1

# hs.11.r.2 = slice hs.11.u 0 64
declare intvar d/dhs.11.r.2 [64]
define d/dhs.11.r.2 = mul d/dhs.11.r.3 dhs.11.r.3/dhs.11.r.2

# hs.11.r.1 = slice hs.11.a 0 64
declare intvar d/dhs.11.r.1 [64]
define d/dhs.11.r.1 = mul d/dhs.11.r.3 dhs.11.r.3/dhs.11.r.1

# hs.11.u = matmul U hs.10
declare intvar tmp/hs.11.u/1 [192]
declare intvar tmp/hs.11.u/2 [192]
declare intvar tmp/hs.11.u/3 [192]
declare intvar tmp/hs.11.u/4 [192]
declare intvar d/dhs.11.u [192]
declare intvar dhs.11.u/dU [64]
declare intvar dhs.11.u/dhs.10 [64, 192]
define tmp/hs.11.u/1 = unslice d/dhs.11.r.2 hs.11.u 0
define tmp/hs.11.u/2 = unslice d/dhs.11.z.2 hs.11.u 64
define tmp/hs.11.u/3 = unslice d/dhs.11.5 hs.11.u 128
define tmp/hs.11.u/4 = add tmp/hs.11.u/1 tmp/hs.11.u/2
define d/dhs.11.u = add tmp/hs.11.u/4 tmp/hs.11.u/3
define dhs.11.u/dU = hs.10
define dhs.11.u/dhs.10 = transpose U

# hs.11.a = add hs.11.a.1 b
declare intvar tmp/hs.11.a/1 [192]
declare intvar tmp/hs.11.a/2 [192]
declare intvar tmp/hs.11.a/3 [192]
declare intvar tmp/hs.11.a/4 [192]
declare intvar d/dhs.11.a [192]
declare intvar dhs.11.a/dhs.11.a.1
declare intvar dhs.11.a/db
define tmp/hs.11.a/1 = unslice d/dhs.11.r.1 hs.11.a 0
define tmp/hs.11.a/2 = unslice d/dhs.11.z.1 hs.11.a 64
define tmp/hs.11.a/3 = unslice d/dhs.11.4 hs.11.a 128
define tmp/hs.11.a/4 = add tmp/hs.11.a/1 tmp/hs.11.a/2
define d/dhs.11.a = add tmp/hs.11.a/4 tmp/hs.11.a/3
define dhs.11.a/dhs.11.a.1 = 1
define dhs.11.a/db = 1

# hs.11.a.1 = matmul W hs.11.1
declare intvar d/dhs.11.a.1 [192]
declare intvar dhs.11.a.1/dW [16]
declare intvar dhs.11.a.1/dhs.11.1 [16, 192]
define d/dhs.11.a.1 = mul d/dhs.11.a dhs.11.a/dhs.11.a.1
define dhs.11.a.1/dW = hs.11.1
define dhs.11.a.1/dhs.11.1 = transpose W

# hs.11.1 = index hs.2 11
declare intvar d/dhs.11.1 [16]
define d/dhs.11.1 = matmul dhs.11.a.1/dhs.11.1 d/dhs.11.a.1

# hs.10 = add hs.10.2 hs.10.9
declare intvar tmp/hs.10/1 [64]
declare intvar tmp/hs.10/2 [64]
declare intvar tmp/hs.10/3 [64]
declare intvar tmp/hs.10/4 [64]
declare intvar d/dhs.10 [64]
declare intvar dhs.10/dhs.10.2
declare intvar dhs.10/dhs.10.9
define tmp/hs.10/1 = matmul dhs.11.u/dhs.10 d/dhs.11.u
define tmp/hs.10/2 = mul d/dhs.11.2 dhs.11.2/dhs.10
define tmp/hs.10/3 = reshape d/dhs.34 [64]
define tmp/hs.10/4 = add tmp/hs.10/1 tmp/hs.10/2
define d/dhs.10 = add tmp/hs.10/4 tmp/hs.10/3
define dhs.10/dhs.10.2 = 1
define dhs.10/dhs.10.9 = 1

# hs.10.9 = mul hs.10.3 hs.10.8
declare intvar d/dhs.10.9 [64]
declare intvar dhs.10.9/dhs.10.3 [64]
declare intvar dhs.10.9/dhs.10.8 [64]
define d/dhs.10.9 = mul d/dhs.10 dhs.10/dhs.10.9
define dhs.10.9/dhs.10.3 = hs.10.8
define dhs.10.9/dhs.10.8 = hs.10.3

# hs.10.8 = tanh hs.10.7
declare intvar d/dhs.10.8 [64]
declare intvar dhs.10.8/dhs.10.7 [64]
define d/dhs.10.8 = mul d/dhs.10.9 dhs.10.9/dhs.10.8
define dhs.10.8/dhs.10.7 = tanh_deriv hs.10.7

# hs.10.7 = add hs.10.4 hs.10.6
declare intvar d/dhs.10.7 [64]
declare intvar dhs.10.7/dhs.10.4
declare intvar dhs.10.7/dhs.10.6
define d/dhs.10.7 = mul d/dhs.10.8 dhs.10.8/dhs.10.7
define dhs.10.7/dhs.10.4 = 1
define dhs.10.7/dhs.10.6 = 1

# hs.10.6 = mul hs.10.r hs.10.5
declare intvar d/dhs.10.6 [64]
declare intvar dhs.10.6/dhs.10.r [64]
declare intvar dhs.10.6/dhs.10.5 [64]
define d/dhs.10.6 = mul d/dhs.10.7 dhs.10.7/dhs.10.6
define dhs.10.6/dhs.10.r = hs.10.5
define dhs.10.6/dhs.10.5 = hs.10.r

# hs.10.5 = slice hs.10.u 128 192
declare intvar d/dhs.10.5 [64]
define d/dhs.10.5 = mul d/dhs.10.6 dhs.10.6/dhs.10.5

# hs.10.4 = slice hs.10.a 128 192
declare intvar d/dhs.10.4 [64]
define d/dhs.10.4 = mul d/dhs.10.7 dhs.10.7/dhs.10.4

# hs.10.3 = sub 1 hs.10.z
declare intvar d/dhs.10.3 [64]
declare intvar dhs.10.3/dhs.10.z
define d/dhs.10.3 = mul d/dhs.10.9 dhs.10.9/dhs.10.3
define dhs.10.3/dhs.10.z = -1

# hs.10.2 = mul hs.10.z hs.9
declare intvar d/dhs.10.2 [64]
declare intvar dhs.10.2/dhs.10.z [64]
declare intvar dhs.10.2/dhs.9 [64]
define d/dhs.10.2 = mul d/dhs.10 dhs.10/dhs.10.2
define dhs.10.2/dhs.10.z = hs.9
define dhs.10.2/dhs.9 = hs.10.z

# hs.10.z = logistic hs.10.z.3
declare intvar tmp/hs.10.z/1 [64]
declare intvar tmp/hs.10.z/2 [64]
declare intvar d/dhs.10.z [64]
declare intvar dhs.10.z/dhs.10.z.3 [64]
define tmp/hs.10.z/1 = mul d/dhs.10.2 dhs.10.2/dhs.10.z
define tmp/hs.10.z/2 = mul d/dhs.10.3 dhs.10.3/dhs.10.z
define d/dhs.10.z = add tmp/hs.10.z/1 tmp/hs.10.z/2
define dhs.10.z/dhs.10.z.3 = logistic_deriv hs.10.z.3

# hs.10.z.3 = add hs.10.z.1 hs.10.z.2
declare intvar d/dhs.10.z.3 [64]
declare intvar dhs.10.z.3/dhs.10.z.1
declare intvar dhs.10.z.3/dhs.10.z.2
define d/dhs.10.z.3 = mul d/dhs.10.z dhs.10.z/dhs.10.z.3
define dhs.10.z.3/dhs.10.z.1 = 1
define dhs.10.z.3/dhs.10.z.2 = 1

# hs.10.z.2 = slice hs.10.u 64 128
declare intvar d/dhs.10.z.2 [64]
define d/dhs.10.z.2 = mul d/dhs.10.z.3 dhs.10.z.3/dhs.10.z.2

# hs.10.z.1 = slice hs.10.a 64 128
declare intvar d/dhs.10.z.1 [64]
define d/dhs.10.z.1 = mul d/dhs.10.z.3 dhs.10.z.3/dhs.10.z.1

# hs.10.r = logistic hs.10.r.3
declare intvar d/dhs.10.r [64]
declare intvar dhs.10.r/dhs.10.r.3 [64]
define d/dhs.10.r = mul d/dhs.10.6 dhs.10.6/dhs.10.r
define dhs.10.r/dhs.10.r.3 = logistic_deriv hs.10.r.3

# hs.10.r.3 = add hs.10.r.1 hs.10.r.2
declare intvar d/dhs.10.r.3 [64]
declare intvar dhs.10.r.3/dhs.10.r.1
declare intvar dhs.10.r.3/dhs.10.r.2
define d/dhs.10.r.3 = mul d/dhs.10.r dhs.10.r/dhs.10.r.3
define dhs.10.r.3/dhs.10.r.1 = 1
define dhs.10.r.3/dhs.10.r.2 = 1

# hs.10.r.2 = slice hs.10.u 0 64
declare intvar d/dhs.10.r.2 [64]
define d/dhs.10.r.2 = mul d/dhs.10.r.3 dhs.10.r.3/dhs.10.r.2

# hs.10.r.1 = slice hs.10.a 0 64
declare intvar d/dhs.10.r.1 [64]
define d/dhs.10.r.1 = mul d/dhs.10.r.3 dhs.10.r.3/dhs.10.r.1

# hs.10.u = matmul U hs.9
declare intvar tmp/hs.10.u/1 [192]
declare intvar tmp/hs.10.u/2 [192]
declare intvar tmp/hs.10.u/3 [192]
declare intvar tmp/hs.10.u/4 [192]
declare intvar d/dhs.10.u [192]
declare intvar dhs.10.u/dU [64]
declare intvar dhs.10.u/dhs.9 [64, 192]
define tmp/hs.10.u/1 = unslice d/dhs.10.r.2 hs.10.u 0
define tmp/hs.10.u/2 = unslice d/dhs.10.z.2 hs.10.u 64
define tmp/hs.10.u/3 = unslice d/dhs.10.5 hs.10.u 128
define tmp/hs.10.u/4 = add tmp/hs.10.u/1 tmp/hs.10.u/2
define d/dhs.10.u = add tmp/hs.10.u/4 tmp/hs.10.u/3
define dhs.10.u/dU = hs.9
define dhs.10.u/dhs.9 = transpose U

# hs.10.a = add hs.10.a.1 b
declare intvar tmp/hs.10.a/1 [192]
declare intvar tmp/hs.10.a/2 [192]
declare intvar tmp/hs.10.a/3 [192]
declare intvar tmp/hs.10.a/4 [192]
declare intvar d/dhs.10.a [192]
declare intvar dhs.10.a/dhs.10.a.1
declare intvar dhs.10.a/db
define tmp/hs.10.a/1 = unslice d/dhs.10.r.1 hs.10.a 0
define tmp/hs.10.a/2 = unslice d/dhs.10.z.1 hs.10.a 64
define tmp/hs.10.a/3 = unslice d/dhs.10.4 hs.10.a 128
define tmp/hs.10.a/4 = add tmp/hs.10.a/1 tmp/hs.10.a/2
define d/dhs.10.a = add tmp/hs.10.a/4 tmp/hs.10.a/3
define dhs.10.a/dhs.10.a.1 = 1
define dhs.10.a/db = 1

# hs.10.a.1 = matmul W hs.10.1
declare intvar d/dhs.10.a.1 [192]
declare intvar dhs.10.a.1/dW [16]
declare intvar dhs.10.a.1/dhs.10.1 [16, 192]
define d/dhs.10.a.1 = mul d/dhs.10.a dhs.10.a/dhs.10.a.1
define dhs.10.a.1/dW = hs.10.1
define dhs.10.a.1/dhs.10.1 = transpose W

# hs.10.1 = index hs.2 10
declare intvar d/dhs.10.1 [16]
define d/dhs.10.1 = matmul dhs.10.a.1/dhs.10.1 d/dhs.10.a.1

# hs.9 = add hs.9.2 hs.9.9
declare intvar tmp/hs.9/1 [64]
declare intvar tmp/hs.9/2 [64]
declare intvar tmp/hs.9/3 [64]
declare intvar tmp/hs.9/4 [64]
declare intvar d/dhs.9 [64]
declare intvar dhs.9/dhs.9.2
declare intvar dhs.9/dhs.9.9
define tmp/hs.9/1 = matmul dhs.10.u/dhs.9 d/dhs.10.u
define tmp/hs.9/2 = mul d/dhs.10.2 dhs.10.2/dhs.9
define tmp/hs.9/3 = reshape d/dhs.32 [64]
define tmp/hs.9/4 = add tmp/hs.9/1 tmp/hs.9/2
define d/dhs.9 = add tmp/hs.9/4 tmp/hs.9/3
define dhs.9/dhs.9.2 = 1
define dhs.9/dhs.9.9 = 1

# hs.9.9 = mul hs.9.3 hs.9.8
declare intvar d/dhs.9.9 [64]
declare intvar dhs.9.9/dhs.9.3 [64]
declare intvar dhs.9.9/dhs.9.8 [64]
define d/dhs.9.9 = mul d/dhs.9 dhs.9/dhs.9.9
define dhs.9.9/dhs.9.3 = hs.9.8
define dhs.9.9/dhs.9.8 = hs.9.3

# hs.9.8 = tanh hs.9.7
declare intvar d/dhs.9.8 [64]
declare intvar dhs.9.8/dhs.9.7 [64]
define d/dhs.9.8 = mul d/dhs.9.9 dhs.9.9/dhs.9.8
define dhs.9.8/dhs.9.7 = tanh_deriv hs.9.7

# hs.9.7 = add hs.9.4 hs.9.6
declare intvar d/dhs.9.7 [64]
declare intvar dhs.9.7/dhs.9.4
declare intvar dhs.9.7/dhs.9.6
define d/dhs.9.7 = mul d/dhs.9.8 dhs.9.8/dhs.9.7
define dhs.9.7/dhs.9.4 = 1
define dhs.9.7/dhs.9.6 = 1

# hs.9.6 = mul hs.9.r hs.9.5
declare intvar d/dhs.9.6 [64]
declare intvar dhs.9.6/dhs.9.r [64]
declare intvar dhs.9.6/dhs.9.5 [64]
define d/dhs.9.6 = mul d/dhs.9.7 dhs.9.7/dhs.9.6
define dhs.9.6/dhs.9.r = hs.9.5
define dhs.9.6/dhs.9.5 = hs.9.r

# hs.9.5 = slice hs.9.u 128 192
declare intvar d/dhs.9.5 [64]
define d/dhs.9.5 = mul d/dhs.9.6 dhs.9.6/dhs.9.5

# hs.9.4 = slice hs.9.a 128 192
declare intvar d/dhs.9.4 [64]
define d/dhs.9.4 = mul d/dhs.9.7 dhs.9.7/dhs.9.4

# hs.9.3 = sub 1 hs.9.z
declare intvar d/dhs.9.3 [64]
declare intvar dhs.9.3/dhs.9.z
define d/dhs.9.3 = mul d/dhs.9.9 dhs.9.9/dhs.9.3
define dhs.9.3/dhs.9.z = -1

# hs.9.2 = mul hs.9.z hs.8
declare intvar d/dhs.9.2 [64]
declare intvar dhs.9.2/dhs.9.z [64]
declare intvar dhs.9.2/dhs.8 [64]
define d/dhs.9.2 = mul d/dhs.9 dhs.9/dhs.9.2
define dhs.9.2/dhs.9.z = hs.8
define dhs.9.2/dhs.8 = hs.9.z

# hs.9.z = logistic hs.9.z.3
declare intvar tmp/hs.9.z/1 [64]
declare intvar tmp/hs.9.z/2 [64]
declare intvar d/dhs.9.z [64]
declare intvar dhs.9.z/dhs.9.z.3 [64]
define tmp/hs.9.z/1 = mul d/dhs.9.2 dhs.9.2/dhs.9.z
define tmp/hs.9.z/2 = mul d/dhs.9.3 dhs.9.3/dhs.9.z
define d/dhs.9.z = add tmp/hs.9.z/1 tmp/hs.9.z/2
define dhs.9.z/dhs.9.z.3 = logistic_deriv hs.9.z.3

# hs.9.z.3 = add hs.9.z.1 hs.9.z.2
declare intvar d/dhs.9.z.3 [64]
declare intvar dhs.9.z.3/dhs.9.z.1
declare intvar dhs.9.z.3/dhs.9.z.2
define d/dhs.9.z.3 = mul d/dhs.9.z dhs.9.z/dhs.9.z.3
define dhs.9.z.3/dhs.9.z.1 = 1
define dhs.9.z.3/dhs.9.z.2 = 1

# hs.9.z.2 = slice hs.9.u 64 128
declare intvar d/dhs.9.z.2 [64]
define d/dhs.9.z.2 = mul d/dhs.9.z.3 dhs.9.z.3/dhs.9.z.2

# hs.9.z.1 = slice hs.9.a 64 128
declare intvar d/dhs.9.z.1 [64]
define d/dhs.9.z.1 = mul d/dhs.9.z.3 dhs.9.z.3/dhs.9.z.1

# hs.9.r = logistic hs.9.r.3
declare intvar d/dhs.9.r [64]
declare intvar dhs.9.r/dhs.9.r.3 [64]
define d/dhs.9.r = mul d/dhs.9.6 dhs.9.6/dhs.9.r
define dhs.9.r/dhs.9.r.3 = logistic_deriv hs.9.r.3

# hs.9.r.3 = add hs.9.r.1 hs.9.r.2
declare intvar d/dhs.9.r.3 [64]
declare intvar dhs.9.r.3/dhs.9.r.1
declare intvar dhs.9.r.3/dhs.9.r.2
define d/dhs.9.r.3 = mul d/dhs.9.r dhs.9.r/dhs.9.r.3
define dhs.9.r.3/dhs.9.r.1 = 1
define dhs.9.r.3/dhs.9.r.2 = 1

# hs.9.r.2 = slice hs.9.u 0 64
declare intvar d/dhs.9.r.2 [64]
define d/dhs.9.r.2 = mul d/dhs.9.r.3 dhs.9.r.3/dhs.9.r.2

# hs.9.r.1 = slice hs.9.a 0 64
declare intvar d/dhs.9.r.1 [64]
define d/dhs.9.r.1 = mul d/dhs.9.r.3 dhs.9.r.3/dhs.9.r.1

# hs.9.u = matmul U hs.8
declare intvar tmp/hs.9.u/1 [192]
declare intvar tmp/hs.9.u/2 [192]
declare intvar tmp/hs.9.u/3 [192]
declare intvar tmp/hs.9.u/4 [192]
declare intvar d/dhs.9.u [192]
declare intvar dhs.9.u/dU [64]
declare intvar dhs.9.u/dhs.8 [64, 192]
define tmp/hs.9.u/1 = unslice d/dhs.9.r.2 hs.9.u 0
define tmp/hs.9.u/2 = unslice d/dhs.9.z.2 hs.9.u 64
define tmp/hs.9.u/3 = unslice d/dhs.9.5 hs.9.u 128
define tmp/hs.9.u/4 = add tmp/hs.9.u/1 tmp/hs.9.u/2
define d/dhs.9.u = add tmp/hs.9.u/4 tmp/hs.9.u/3
define dhs.9.u/dU = hs.8
define dhs.9.u/dhs.8 = transpose U

# hs.9.a = add hs.9.a.1 b
declare intvar tmp/hs.9.a/1 [192]
declare intvar tmp/hs.9.a/2 [192]
declare intvar tmp/hs.9.a/3 [192]
declare intvar tmp/hs.9.a/4 [192]
declare intvar d/dhs.9.a [192]
declare intvar dhs.9.a/dhs.9.a.1
declare intvar dhs.9.a/db
define tmp/hs.9.a/1 = unslice d/dhs.9.r.1 hs.9.a 0
define tmp/hs.9.a/2 = unslice d/dhs.9.z.1 hs.9.a 64
define tmp/hs.9.a/3 = unslice d/dhs.9.4 hs.9.a 128
define tmp/hs.9.a/4 = add tmp/hs.9.a/1 tmp/hs.9.a/2
define d/dhs.9.a = add tmp/hs.9.a/4 tmp/hs.9.a/3
define dhs.9.a/dhs.9.a.1 = 1
define dhs.9.a/db = 1

# hs.9.a.1 = matmul W hs.9.1
declare intvar d/dhs.9.a.1 [192]
declare intvar dhs.9.a.1/dW [16]
declare intvar dhs.9.a.1/dhs.9.1 [16, 192]
define d/dhs.9.a.1 = mul d/dhs.9.a dhs.9.a/dhs.9.a.1
define dhs.9.a.1/dW = hs.9.1
define dhs.9.a.1/dhs.9.1 = transpose W

# hs.9.1 = index hs.2 9
declare intvar d/dhs.9.1 [16]
define d/dhs.9.1 = matmul dhs.9.a.1/dhs.9.1 d/dhs.9.a.1

# hs.8 = add hs.8.2 hs.8.9
declare intvar tmp/hs.8/1 [64]
declare intvar tmp/hs.8/2 [64]
declare intvar tmp/hs.8/3 [64]
declare intvar tmp/hs.8/4 [64]
declare intvar d/dhs.8 [64]
declare intvar dhs.8/dhs.8.2
declare intvar dhs.8/dhs.8.9
define tmp/hs.8/1 = matmul dhs.9.u/dhs.8 d/dhs.9.u
define tmp/hs.8/2 = mul d/dhs.9.2 dhs.9.2/dhs.8
define tmp/hs.8/3 = reshape d/dhs.31 [64]
define tmp/hs.8/4 = add tmp/hs.8/1 tmp/hs.8/2
define d/dhs.8 = add tmp/hs.8/4 tmp/hs.8/3
define dhs.8/dhs.8.2 = 1
define dhs.8/dhs.8.9 = 1

# hs.8.9 = mul hs.8.3 hs.8.8
declare intvar d/dhs.8.9 [64]
declare intvar dhs.8.9/dhs.8.3 [64]
declare intvar dhs.8.9/dhs.8.8 [64]
define d/dhs.8.9 = mul d/dhs.8 dhs.8/dhs.8.9
define dhs.8.9/dhs.8.3 = hs.8.8
define dhs.8.9/dhs.8.8 = hs.8.3

# hs.8.8 = tanh hs.8.7
declare intvar d/dhs.8.8 [64]
declare intvar dhs.8.8/dhs.8.7 [64]
define d/dhs.8.8 = mul d/dhs.8.9 dhs.8.9/dhs.8.8
define dhs.8.8/dhs.8.7 = tanh_deriv hs.8.7

# hs.8.7 = add hs.8.4 hs.8.6
declare intvar d/dhs.8.7 [64]
declare intvar dhs.8.7/dhs.8.4
declare intvar dhs.8.7/dhs.8.6
define d/dhs.8.7 = mul d/dhs.8.8 dhs.8.8/dhs.8.7
define dhs.8.7/dhs.8.4 = 1
define dhs.8.7/dhs.8.6 = 1

# hs.8.6 = mul hs.8.r hs.8.5
declare intvar d/dhs.8.6 [64]
declare intvar dhs.8.6/dhs.8.r [64]
declare intvar dhs.8.6/dhs.8.5 [64]
define d/dhs.8.6 = mul d/dhs.8.7 dhs.8.7/dhs.8.6
define dhs.8.6/dhs.8.r = hs.8.5
define dhs.8.6/dhs.8.5 = hs.8.r

# hs.8.5 = slice hs.8.u 128 192
declare intvar d/dhs.8.5 [64]
define d/dhs.8.5 = mul d/dhs.8.6 dhs.8.6/dhs.8.5

# hs.8.4 = slice hs.8.a 128 192
declare intvar d/dhs.8.4 [64]
define d/dhs.8.4 = mul d/dhs.8.7 dhs.8.7/dhs.8.4

# hs.8.3 = sub 1 hs.8.z
declare intvar d/dhs.8.3 [64]
declare intvar dhs.8.3/dhs.8.z
define d/dhs.8.3 = mul d/dhs.8.9 dhs.8.9/dhs.8.3
define dhs.8.3/dhs.8.z = -1

# hs.8.2 = mul hs.8.z hs.7
declare intvar d/dhs.8.2 [64]
declare intvar dhs.8.2/dhs.8.z [64]
declare intvar dhs.8.2/dhs.7 [64]
define d/dhs.8.2 = mul d/dhs.8 dhs.8/dhs.8.2
define dhs.8.2/dhs.8.z = hs.7
define dhs.8.2/dhs.7 = hs.8.z

# hs.8.z = logistic hs.8.z.3
declare intvar tmp/hs.8.z/1 [64]
declare intvar tmp/hs.8.z/2 [64]
declare intvar d/dhs.8.z [64]
declare intvar dhs.8.z/dhs.8.z.3 [64]
define tmp/hs.8.z/1 = mul d/dhs.8.2 dhs.8.2/dhs.8.z
define tmp/hs.8.z/2 = mul d/dhs.8.3 dhs.8.3/dhs.8.z
define d/dhs.8.z = add tmp/hs.8.z/1 tmp/hs.8.z/2
define dhs.8.z/dhs.8.z.3 = logistic_deriv hs.8.z.3

# hs.8.z.3 = add hs.8.z.1 hs.8.z.2
declare intvar d/dhs.8.z.3 [64]
declare intvar dhs.8.z.3/dhs.8.z.1
declare intvar dhs.8.z.3/dhs.8.z.2
define d/dhs.8.z.3 = mul d/dhs.8.z dhs.8.z/dhs.8.z.3
define dhs.8.z.3/dhs.8.z.1 = 1
define dhs.8.z.3/dhs.8.z.2 = 1

# hs.8.z.2 = slice hs.8.u 64 128
declare intvar d/dhs.8.z.2 [64]
define d/dhs.8.z.2 = mul d/dhs.8.z.3 dhs.8.z.3/dhs.8.z.2

# hs.8.z.1 = slice hs.8.a 64 128
declare intvar d/dhs.8.z.1 [64]
define d/dhs.8.z.1 = mul d/dhs.8.z.3 dhs.8.z.3/dhs.8.z.1

# hs.8.r = logistic hs.8.r.3
declare intvar d/dhs.8.r [64]
declare intvar dhs.8.r/dhs.8.r.3 [64]
define d/dhs.8.r = mul d/dhs.8.6 dhs.8.6/dhs.8.r
define dhs.8.r/dhs.8.r.3 = logistic_deriv hs.8.r.3

# hs.8.r.3 = add hs.8.r.1 hs.8.r.2
declare intvar d/dhs.8.r.3 [64]
declare intvar dhs.8.r.3/dhs.8.r.1
declare intvar dhs.8.r.3/dhs.8.r.2
define d/dhs.8.r.3 = mul d/dhs.8.r dhs.8.r/dhs.8.r.3
define dhs.8.r.3/dhs.8.r.1 = 1
define dhs.8.r.3/dhs.8.r.2 = 1

# hs.8.r.2 = slice hs.8.u 0 64
declare intvar d/dhs.8.r.2 [64]
define d/dhs.8.r.2 = mul d/dhs.8.r.3 dhs.8.r.3/dhs.8.r.2

# hs.8.r.1 = slice hs.8.a 0 64
declare intvar d/dhs.8.r.1 [64]
define d/dhs.8.r.1 = mul d/dhs.8.r.3 dhs.8.r.3/dhs.8.r.1

# hs.8.u = matmul U hs.7
declare intvar tmp/hs.8.u/1 [192]
declare intvar tmp/hs.8.u/2 [192]
declare intvar tmp/hs.8.u/3 [192]
declare intvar tmp/hs.8.u/4 [192]
declare intvar d/dhs.8.u [192]
declare intvar dhs.8.u/dU [64]
declare intvar dhs.8.u/dhs.7 [64, 192]
define tmp/hs.8.u/1 = unslice d/dhs.8.r.2 hs.8.u 0
define tmp/hs.8.u/2 = unslice d/dhs.8.z.2 hs.8.u 64
define tmp/hs.8.u/3 = unslice d/dhs.8.5 hs.8.u 128
define tmp/hs.8.u/4 = add tmp/hs.8.u/1 tmp/hs.8.u/2
define d/dhs.8.u = add tmp/hs.8.u/4 tmp/hs.8.u/3
define dhs.8.u/dU = hs.7
define dhs.8.u/dhs.7 = transpose U

# hs.8.a = add hs.8.a.1 b
declare intvar tmp/hs.8.a/1 [192]
declare intvar tmp/hs.8.a/2 [192]
declare intvar tmp/hs.8.a/3 [192]
declare intvar tmp/hs.8.a/4 [192]
declare intvar d/dhs.8.a [192]
declare intvar dhs.8.a/dhs.8.a.1
declare intvar dhs.8.a/db
define tmp/hs.8.a/1 = unslice d/dhs.8.r.1 hs.8.a 0
define tmp/hs.8.a/2 = unslice d/dhs.8.z.1 hs.8.a 64
define tmp/hs.8.a/3 = unslice d/dhs.8.4 hs.8.a 128
define tmp/hs.8.a/4 = add tmp/hs.8.a/1 tmp/hs.8.a/2
define d/dhs.8.a = add tmp/hs.8.a/4 tmp/hs.8.a/3
define dhs.8.a/dhs.8.a.1 = 1
define dhs.8.a/db = 1

# hs.8.a.1 = matmul W hs.8.1
declare intvar d/dhs.8.a.1 [192]
declare intvar dhs.8.a.1/dW [16]
declare intvar dhs.8.a.1/dhs.8.1 [16, 192]
define d/dhs.8.a.1 = mul d/dhs.8.a dhs.8.a/dhs.8.a.1
define dhs.8.a.1/dW = hs.8.1
define dhs.8.a.1/dhs.8.1 = transpose W

# hs.8.1 = index hs.2 8
declare intvar d/dhs.8.1 [16]
define d/dhs.8.1 = matmul dhs.8.a.1/dhs.8.1 d/dhs.8.a.1

# hs.7 = add hs.7.2 hs.7.9
declare intvar tmp/hs.7/1 [64]
declare intvar tmp/hs.7/2 [64]
declare intvar tmp/hs.7/3 [64]
declare intvar tmp/hs.7/4 [64]
declare intvar d/dhs.7 [64]
declare intvar dhs.7/dhs.7.2
declare intvar dhs.7/dhs.7.9
define tmp/hs.7/1 = matmul dhs.8.u/dhs.7 d/dhs.8.u
define tmp/hs.7/2 = mul d/dhs.8.2 dhs.8.2/dhs.7
define tmp/hs.7/3 = reshape d/dhs.27 [64]
define tmp/hs.7/4 = add tmp/hs.7/1 tmp/hs.7/2
define d/dhs.7 = add tmp/hs.7/4 tmp/hs.7/3
define dhs.7/dhs.7.2 = 1
define dhs.7/dhs.7.9 = 1

# hs.7.9 = mul hs.7.3 hs.7.8
declare intvar d/dhs.7.9 [64]
declare intvar dhs.7.9/dhs.7.3 [64]
declare intvar dhs.7.9/dhs.7.8 [64]
define d/dhs.7.9 = mul d/dhs.7 dhs.7/dhs.7.9
define dhs.7.9/dhs.7.3 = hs.7.8
define dhs.7.9/dhs.7.8 = hs.7.3

# hs.7.8 = tanh hs.7.7
declare intvar d/dhs.7.8 [64]
declare intvar dhs.7.8/dhs.7.7 [64]
define d/dhs.7.8 = mul d/dhs.7.9 dhs.7.9/dhs.7.8
define dhs.7.8/dhs.7.7 = tanh_deriv hs.7.7

# hs.7.7 = add hs.7.4 hs.7.6
declare intvar d/dhs.7.7 [64]
declare intvar dhs.7.7/dhs.7.4
declare intvar dhs.7.7/dhs.7.6
define d/dhs.7.7 = mul d/dhs.7.8 dhs.7.8/dhs.7.7
define dhs.7.7/dhs.7.4 = 1
define dhs.7.7/dhs.7.6 = 1

# hs.7.6 = mul hs.7.r hs.7.5
declare intvar d/dhs.7.6 [64]
declare intvar dhs.7.6/dhs.7.r [64]
declare intvar dhs.7.6/dhs.7.5 [64]
define d/dhs.7.6 = mul d/dhs.7.7 dhs.7.7/dhs.7.6
define dhs.7.6/dhs.7.r = hs.7.5
define dhs.7.6/dhs.7.5 = hs.7.r

# hs.7.5 = slice hs.7.u 128 192
declare intvar d/dhs.7.5 [64]
define d/dhs.7.5 = mul d/dhs.7.6 dhs.7.6/dhs.7.5

# hs.7.4 = slice hs.7.a 128 192
declare intvar d/dhs.7.4 [64]
define d/dhs.7.4 = mul d/dhs.7.7 dhs.7.7/dhs.7.4

# hs.7.3 = sub 1 hs.7.z
declare intvar d/dhs.7.3 [64]
declare intvar dhs.7.3/dhs.7.z
define d/dhs.7.3 = mul d/dhs.7.9 dhs.7.9/dhs.7.3
define dhs.7.3/dhs.7.z = -1

# hs.7.2 = mul hs.7.z hs.6
declare intvar d/dhs.7.2 [64]
declare intvar dhs.7.2/dhs.7.z [64]
declare intvar dhs.7.2/dhs.6 [64]
define d/dhs.7.2 = mul d/dhs.7 dhs.7/dhs.7.2
define dhs.7.2/dhs.7.z = hs.6
define dhs.7.2/dhs.6 = hs.7.z

# hs.7.z = logistic hs.7.z.3
declare intvar tmp/hs.7.z/1 [64]
declare intvar tmp/hs.7.z/2 [64]
declare intvar d/dhs.7.z [64]
declare intvar dhs.7.z/dhs.7.z.3 [64]
define tmp/hs.7.z/1 = mul d/dhs.7.2 dhs.7.2/dhs.7.z
define tmp/hs.7.z/2 = mul d/dhs.7.3 dhs.7.3/dhs.7.z
define d/dhs.7.z = add tmp/hs.7.z/1 tmp/hs.7.z/2
define dhs.7.z/dhs.7.z.3 = logistic_deriv hs.7.z.3

# hs.7.z.3 = add hs.7.z.1 hs.7.z.2
declare intvar d/dhs.7.z.3 [64]
declare intvar dhs.7.z.3/dhs.7.z.1
declare intvar dhs.7.z.3/dhs.7.z.2
define d/dhs.7.z.3 = mul d/dhs.7.z dhs.7.z/dhs.7.z.3
define dhs.7.z.3/dhs.7.z.1 = 1
define dhs.7.z.3/dhs.7.z.2 = 1

# hs.7.z.2 = slice hs.7.u 64 128
declare intvar d/dhs.7.z.2 [64]
define d/dhs.7.z.2 = mul d/dhs.7.z.3 dhs.7.z.3/dhs.7.z.2

# hs.7.z.1 = slice hs.7.a 64 128
declare intvar d/dhs.7.z.1 [64]
define d/dhs.7.z.1 = mul d/dhs.7.z.3 dhs.7.z.3/dhs.7.z.1

# hs.7.r = logistic hs.7.r.3
declare intvar d/dhs.7.r [64]
declare intvar dhs.7.r/dhs.7.r.3 [64]
define d/dhs.7.r = mul d/dhs.7.6 dhs.7.6/dhs.7.r
define dhs.7.r/dhs.7.r.3 = logistic_deriv hs.7.r.3

# hs.7.r.3 = add hs.7.r.1 hs.7.r.2
declare intvar d/dhs.7.r.3 [64]
declare intvar dhs.7.r.3/dhs.7.r.1
declare intvar dhs.7.r.3/dhs.7.r.2
define d/dhs.7.r.3 = mul d/dhs.7.r dhs.7.r/dhs.7.r.3
define dhs.7.r.3/dhs.7.r.1 = 1
define dhs.7.r.3/dhs.7.r.2 = 1

# hs.7.r.2 = slice hs.7.u 0 64
declare intvar d/dhs.7.r.2 [64]
define d/dhs.7.r.2 = mul d/dhs.7.r.3 dhs.7.r.3/dhs.7.r.2

# hs.7.r.1 = slice hs.7.a 0 64
declare intvar d/dhs.7.r.1 [64]
define d/dhs.7.r.1 = mul d/dhs.7.r.3 dhs.7.r.3/dhs.7.r.1

# hs.7.u = matmul U hs.6
declare intvar tmp/hs.7.u/1 [192]
declare intvar tmp/hs.7.u/2 [192]
declare intvar tmp/hs.7.u/3 [192]
declare intvar tmp/hs.7.u/4 [192]
declare intvar d/dhs.7.u [192]
declare intvar dhs.7.u/dU [64]
declare intvar dhs.7.u/dhs.6 [64, 192]
define tmp/hs.7.u/1 = unslice d/dhs.7.r.2 hs.7.u 0
define tmp/hs.7.u/2 = unslice d/dhs.7.z.2 hs.7.u 64
define tmp/hs.7.u/3 = unslice d/dhs.7.5 hs.7.u 128
define tmp/hs.7.u/4 = add tmp/hs.7.u/1 tmp/hs.7.u/2
define d/dhs.7.u = add tmp/hs.7.u/4 tmp/hs.7.u/3
define dhs.7.u/dU = hs.6
define dhs.7.u/dhs.6 = transpose U

# hs.7.a = add hs.7.a.1 b
declare intvar tmp/hs.7.a/1 [192]
declare intvar tmp/hs.7.a/2 [192]
declare intvar tmp/hs.7.a/3 [192]
declare intvar tmp/hs.7.a/4 [192]
declare intvar d/dhs.7.a [192]
declare intvar dhs.7.a/dhs.7.a.1
declare intvar dhs.7.a/db
define tmp/hs.7.a/1 = unslice d/dhs.7.r.1 hs.7.a 0
define tmp/hs.7.a/2 = unslice d/dhs.7.z.1 hs.7.a 64
define tmp/hs.7.a/3 = unslice d/dhs.7.4 hs.7.a 128
define tmp/hs.7.a/4 = add tmp/hs.7.a/1 tmp/hs.7.a/2
define d/dhs.7.a = add tmp/hs.7.a/4 tmp/hs.7.a/3
define dhs.7.a/dhs.7.a.1 = 1
define dhs.7.a/db = 1

# hs.7.a.1 = matmul W hs.7.1
declare intvar d/dhs.7.a.1 [192]
declare intvar dhs.7.a.1/dW [16]
declare intvar dhs.7.a.1/dhs.7.1 [16, 192]
define d/dhs.7.a.1 = mul d/dhs.7.a dhs.7.a/dhs.7.a.1
define dhs.7.a.1/dW = hs.7.1
define dhs.7.a.1/dhs.7.1 = transpose W

# hs.7.1 = index hs.2 7
declare intvar d/dhs.7.1 [16]
define d/dhs.7.1 = matmul dhs.7.a.1/dhs.7.1 d/dhs.7.a.1

# hs.6 = add hs.6.2 hs.6.9
declare intvar tmp/hs.6/1 [64]
declare intvar tmp/hs.6/2 [64]
declare intvar tmp/hs.6/3 [64]
declare intvar tmp/hs.6/4 [64]
declare intvar d/dhs.6 [64]
declare intvar dhs.6/dhs.6.2
declare intvar dhs.6/dhs.6.9
define tmp/hs.6/1 = matmul dhs.7.u/dhs.6 d/dhs.7.u
define tmp/hs.6/2 = mul d/dhs.7.2 dhs.7.2/dhs.6
define tmp/hs.6/3 = reshape d/dhs.26 [64]
define tmp/hs.6/4 = add tmp/hs.6/1 tmp/hs.6/2
define d/dhs.6 = add tmp/hs.6/4 tmp/hs.6/3
define dhs.6/dhs.6.2 = 1
define dhs.6/dhs.6.9 = 1

# hs.6.9 = mul hs.6.3 hs.6.8
declare intvar d/dhs.6.9 [64]
declare intvar dhs.6.9/dhs.6.3 [64]
declare intvar dhs.6.9/dhs.6.8 [64]
define d/dhs.6.9 = mul d/dhs.6 dhs.6/dhs.6.9
define dhs.6.9/dhs.6.3 = hs.6.8
define dhs.6.9/dhs.6.8 = hs.6.3

# hs.6.8 = tanh hs.6.7
declare intvar d/dhs.6.8 [64]
declare intvar dhs.6.8/dhs.6.7 [64]
define d/dhs.6.8 = mul d/dhs.6.9 dhs.6.9/dhs.6.8
define dhs.6.8/dhs.6.7 = tanh_deriv hs.6.7

# hs.6.7 = add hs.6.4 hs.6.6
declare intvar d/dhs.6.7 [64]
declare intvar dhs.6.7/dhs.6.4
declare intvar dhs.6.7/dhs.6.6
define d/dhs.6.7 = mul d/dhs.6.8 dhs.6.8/dhs.6.7
define dhs.6.7/dhs.6.4 = 1
define dhs.6.7/dhs.6.6 = 1

# hs.6.6 = mul hs.6.r hs.6.5
declare intvar d/dhs.6.6 [64]
declare intvar dhs.6.6/dhs.6.r [64]
declare intvar dhs.6.6/dhs.6.5 [64]
define d/dhs.6.6 = mul d/dhs.6.7 dhs.6.7/dhs.6.6
define dhs.6.6/dhs.6.r = hs.6.5
define dhs.6.6/dhs.6.5 = hs.6.r

# hs.6.5 = slice hs.6.u 128 192
declare intvar d/dhs.6.5 [64]
define d/dhs.6.5 = mul d/dhs.6.6 dhs.6.6/dhs.6.5

# hs.6.4 = slice hs.6.a 128 192
declare intvar d/dhs.6.4 [64]
define d/dhs.6.4 = mul d/dhs.6.7 dhs.6.7/dhs.6.4

# hs.6.3 = sub 1 hs.6.z
declare intvar d/dhs.6.3 [64]
declare intvar dhs.6.3/dhs.6.z
define d/dhs.6.3 = mul d/dhs.6.9 dhs.6.9/dhs.6.3
define dhs.6.3/dhs.6.z = -1

# hs.6.2 = mul hs.6.z hs.5
declare intvar d/dhs.6.2 [64]
declare intvar dhs.6.2/dhs.6.z [64]
declare intvar dhs.6.2/dhs.5 [64]
define d/dhs.6.2 = mul d/dhs.6 dhs.6/dhs.6.2
define dhs.6.2/dhs.6.z = hs.5
define dhs.6.2/dhs.5 = hs.6.z

# hs.6.z = logistic hs.6.z.3
declare intvar tmp/hs.6.z/1 [64]
declare intvar tmp/hs.6.z/2 [64]
declare intvar d/dhs.6.z [64]
declare intvar dhs.6.z/dhs.6.z.3 [64]
define tmp/hs.6.z/1 = mul d/dhs.6.2 dhs.6.2/dhs.6.z
define tmp/hs.6.z/2 = mul d/dhs.6.3 dhs.6.3/dhs.6.z
define d/dhs.6.z = add tmp/hs.6.z/1 tmp/hs.6.z/2
define dhs.6.z/dhs.6.z.3 = logistic_deriv hs.6.z.3

# hs.6.z.3 = add hs.6.z.1 hs.6.z.2
declare intvar d/dhs.6.z.3 [64]
declare intvar dhs.6.z.3/dhs.6.z.1
declare intvar dhs.6.z.3/dhs.6.z.2
define d/dhs.6.z.3 = mul d/dhs.6.z dhs.6.z/dhs.6.z.3
define dhs.6.z.3/dhs.6.z.1 = 1
define dhs.6.z.3/dhs.6.z.2 = 1

# hs.6.z.2 = slice hs.6.u 64 128
declare intvar d/dhs.6.z.2 [64]
define d/dhs.6.z.2 = mul d/dhs.6.z.3 dhs.6.z.3/dhs.6.z.2

# hs.6.z.1 = slice hs.6.a 64 128
declare intvar d/dhs.6.z.1 [64]
define d/dhs.6.z.1 = mul d/dhs.6.z.3 dhs.6.z.3/dhs.6.z.1

# hs.6.r = logistic hs.6.r.3
declare intvar d/dhs.6.r [64]
declare intvar dhs.6.r/dhs.6.r.3 [64]
define d/dhs.6.r = mul d/dhs.6.6 dhs.6.6/dhs.6.r
define dhs.6.r/dhs.6.r.3 = logistic_deriv hs.6.r.3

# hs.6.r.3 = add hs.6.r.1 hs.6.r.2
declare intvar d/dhs.6.r.3 [64]
declare intvar dhs.6.r.3/dhs.6.r.1
declare intvar dhs.6.r.3/dhs.6.r.2
define d/dhs.6.r.3 = mul d/dhs.6.r dhs.6.r/dhs.6.r.3
define dhs.6.r.3/dhs.6.r.1 = 1
define dhs.6.r.3/dhs.6.r.2 = 1

# hs.6.r.2 = slice hs.6.u 0 64
declare intvar d/dhs.6.r.2 [64]
define d/dhs.6.r.2 = mul d/dhs.6.r.3 dhs.6.r.3/dhs.6.r.2

# hs.6.r.1 = slice hs.6.a 0 64
declare intvar d/dhs.6.r.1 [64]
define d/dhs.6.r.1 = mul d/dhs.6.r.3 dhs.6.r.3/dhs.6.r.1

# hs.6.u = matmul U hs.5
declare intvar tmp/hs.6.u/1 [192]
declare intvar tmp/hs.6.u/2 [192]
declare intvar tmp/hs.6.u/3 [192]
declare intvar tmp/hs.6.u/4 [192]
declare intvar d/dhs.6.u [192]
declare intvar dhs.6.u/dU [64]
declare intvar dhs.6.u/dhs.5 [64, 192]
define tmp/hs.6.u/1 = unslice d/dhs.6.r.2 hs.6.u 0
define tmp/hs.6.u/2 = unslice d/dhs.6.z.2 hs.6.u 64
define tmp/hs.6.u/3 = unslice d/dhs.6.5 hs.6.u 128
define tmp/hs.6.u/4 = add tmp/hs.6.u/1 tmp/hs.6.u/2
define d/dhs.6.u = add tmp/hs.6.u/4 tmp/hs.6.u/3
define dhs.6.u/dU = hs.5
define dhs.6.u/dhs.5 = transpose U

# hs.6.a = add hs.6.a.1 b
declare intvar tmp/hs.6.a/1 [192]
declare intvar tmp/hs.6.a/2 [192]
declare intvar tmp/hs.6.a/3 [192]
declare intvar tmp/hs.6.a/4 [192]
declare intvar d/dhs.6.a [192]
declare intvar dhs.6.a/dhs.6.a.1
declare intvar dhs.6.a/db
define tmp/hs.6.a/1 = unslice d/dhs.6.r.1 hs.6.a 0
define tmp/hs.6.a/2 = unslice d/dhs.6.z.1 hs.6.a 64
define tmp/hs.6.a/3 = unslice d/dhs.6.4 hs.6.a 128
define tmp/hs.6.a/4 = add tmp/hs.6.a/1 tmp/hs.6.a/2
define d/dhs.6.a = add tmp/hs.6.a/4 tmp/hs.6.a/3
define dhs.6.a/dhs.6.a.1 = 1
define dhs.6.a/db = 1

# hs.6.a.1 = matmul W hs.6.1
declare intvar d/dhs.6.a.1 [192]
declare intvar dhs.6.a.1/dW [16]
declare intvar dhs.6.a.1/dhs.6.1 [16, 192]
define d/dhs.6.a.1 = mul d/dhs.6.a dhs.6.a/dhs.6.a.1
define dhs.6.a.1/dW = hs.6.1
define dhs.6.a.1/dhs.6.1 = transpose W

# hs.6.1 = index hs.2 6
declare intvar d/dhs.6.1 [16]
define d/dhs.6.1 = matmul dhs.6.a.1/dhs.6.1 d/dhs.6.a.1

# hs.5 = add hs.5.2 hs.5.9
declare intvar tmp/hs.5/1 [64]
declare intvar tmp/hs.5/2 [64]
declare intvar tmp/hs.5/3 [64]
declare intvar tmp/hs.5/4 [64]
declare intvar d/dhs.5 [64]
declare intvar dhs.5/dhs.5.2
declare intvar dhs.5/dhs.5.9
define tmp/hs.5/1 = matmul dhs.6.u/dhs.5 d/dhs.6.u
define tmp/hs.5/2 = mul d/dhs.6.2 dhs.6.2/dhs.5
define tmp/hs.5/3 = reshape d/dhs.24 [64]
define tmp/hs.5/4 = add tmp/hs.5/1 tmp/hs.5/2
define d/dhs.5 = add tmp/hs.5/4 tmp/hs.5/3
define dhs.5/dhs.5.2 = 1
define dhs.5/dhs.5.9 = 1

# hs.5.9 = mul hs.5.3 hs.5.8
declare intvar d/dhs.5.9 [64]
declare intvar dhs.5.9/dhs.5.3 [64]
declare intvar dhs.5.9/dhs.5.8 [64]
define d/dhs.5.9 = mul d/dhs.5 dhs.5/dhs.5.9
define dhs.5.9/dhs.5.3 = hs.5.8
define dhs.5.9/dhs.5.8 = hs.5.3

# hs.5.8 = tanh hs.5.7
declare intvar d/dhs.5.8 [64]
declare intvar dhs.5.8/dhs.5.7 [64]
define d/dhs.5.8 = mul d/dhs.5.9 dhs.5.9/dhs.5.8
define dhs.5.8/dhs.5.7 = tanh_deriv hs.5.7

# hs.5.7 = add hs.5.4 hs.5.6
declare intvar d/dhs.5.7 [64]
declare intvar dhs.5.7/dhs.5.4
declare intvar dhs.5.7/dhs.5.6
define d/dhs.5.7 = mul d/dhs.5.8 dhs.5.8/dhs.5.7
define dhs.5.7/dhs.5.4 = 1
define dhs.5.7/dhs.5.6 = 1

# hs.5.6 = mul hs.5.r hs.5.5
declare intvar d/dhs.5.6 [64]
declare intvar dhs.5.6/dhs.5.r [64]
declare intvar dhs.5.6/dhs.5.5 [64]
define d/dhs.5.6 = mul d/dhs.5.7 dhs.5.7/dhs.5.6
define dhs.5.6/dhs.5.r = hs.5.5
define dhs.5.6/dhs.5.5 = hs.5.r

# hs.5.5 = slice hs.5.u 128 192
declare intvar d/dhs.5.5 [64]
define d/dhs.5.5 = mul d/dhs.5.6 dhs.5.6/dhs.5.5

# hs.5.4 = slice hs.5.a 128 192
declare intvar d/dhs.5.4 [64]
define d/dhs.5.4 = mul d/dhs.5.7 dhs.5.7/dhs.5.4

# hs.5.3 = sub 1 hs.5.z
declare intvar d/dhs.5.3 [64]
declare intvar dhs.5.3/dhs.5.z
define d/dhs.5.3 = mul d/dhs.5.9 dhs.5.9/dhs.5.3
define dhs.5.3/dhs.5.z = -1

# hs.5.2 = mul hs.5.z hs.4
declare intvar d/dhs.5.2 [64]
declare intvar dhs.5.2/dhs.5.z [64]
declare intvar dhs.5.2/dhs.4 [64]
define d/dhs.5.2 = mul d/dhs.5 dhs.5/dhs.5.2
define dhs.5.2/dhs.5.z = hs.4
define dhs.5.2/dhs.4 = hs.5.z

# hs.5.z = logistic hs.5.z.3
declare intvar tmp/hs.5.z/1 [64]
declare intvar tmp/hs.5.z/2 [64]
declare intvar d/dhs.5.z [64]
declare intvar dhs.5.z/dhs.5.z.3 [64]
define tmp/hs.5.z/1 = mul d/dhs.5.2 dhs.5.2/dhs.5.z
define tmp/hs.5.z/2 = mul d/dhs.5.3 dhs.5.3/dhs.5.z
define d/dhs.5.z = add tmp/hs.5.z/1 tmp/hs.5.z/2
define dhs.5.z/dhs.5.z.3 = logistic_deriv hs.5.z.3

# hs.5.z.3 = add hs.5.z.1 hs.5.z.2
declare intvar d/dhs.5.z.3 [64]
declare intvar dhs.5.z.3/dhs.5.z.1
declare intvar dhs.5.z.3/dhs.5.z.2
define d/dhs.5.z.3 = mul d/dhs.5.z dhs.5.z/dhs.5.z.3
define dhs.5.z.3/dhs.5.z.1 = 1
define dhs.5.z.3/dhs.5.z.2 = 1

# hs.5.z.2 = slice hs.5.u 64 128
declare intvar d/dhs.5.z.2 [64]
define d/dhs.5.z.2 = mul d/dhs.5.z.3 dhs.5.z.3/dhs.5.z.2

# hs.5.z.1 = slice hs.5.a 64 128
declare intvar d/dhs.5.z.1 [64]
define d/dhs.5.z.1 = mul d/dhs.5.z.3 dhs.5.z.3/dhs.5.z.1

# hs.5.r = logistic hs.5.r.3
declare intvar d/dhs.5.r [64]
declare intvar dhs.5.r/dhs.5.r.3 [64]
define d/dhs.5.r = mul d/dhs.5.6 dhs.5.6/dhs.5.r
define dhs.5.r/dhs.5.r.3 = logistic_deriv hs.5.r.3

# hs.5.r.3 = add hs.5.r.1 hs.5.r.2
declare intvar d/dhs.5.r.3 [64]
declare intvar dhs.5.r.3/dhs.5.r.1
declare intvar dhs.5.r.3/dhs.5.r.2
define d/dhs.5.r.3 = mul d/dhs.5.r dhs.5.r/dhs.5.r.3
define dhs.5.r.3/dhs.5.r.1 = 1
define dhs.5.r.3/dhs.5.r.2 = 1

# hs.5.r.2 = slice hs.5.u 0 64
declare intvar d/dhs.5.r.2 [64]
define d/dhs.5.r.2 = mul d/dhs.5.r.3 dhs.5.r.3/dhs.5.r.2

# hs.5.r.1 = slice hs.5.a 0 64
declare intvar d/dhs.5.r.1 [64]
define d/dhs.5.r.1 = mul d/dhs.5.r.3 dhs.5.r.3/dhs.5.r.1

# hs.5.u = matmul U hs.4
declare intvar tmp/hs.5.u/1 [192]
declare intvar tmp/hs.5.u/2 [192]
declare intvar tmp/hs.5.u/3 [192]
declare intvar tmp/hs.5.u/4 [192]
declare intvar d/dhs.5.u [192]
declare intvar dhs.5.u/dU [64]
declare intvar dhs.5.u/dhs.4 [64, 192]
define tmp/hs.5.u/1 = unslice d/dhs.5.r.2 hs.5.u 0
define tmp/hs.5.u/2 = unslice d/dhs.5.z.2 hs.5.u 64
define tmp/hs.5.u/3 = unslice d/dhs.5.5 hs.5.u 128
define tmp/hs.5.u/4 = add tmp/hs.5.u/1 tmp/hs.5.u/2
define d/dhs.5.u = add tmp/hs.5.u/4 tmp/hs.5.u/3
define dhs.5.u/dU = hs.4
define dhs.5.u/dhs.4 = transpose U

# hs.5.a = add hs.5.a.1 b
declare intvar tmp/hs.5.a/1 [192]
declare intvar tmp/hs.5.a/2 [192]
declare intvar tmp/hs.5.a/3 [192]
declare intvar tmp/hs.5.a/4 [192]
declare intvar d/dhs.5.a [192]
declare intvar dhs.5.a/dhs.5.a.1
declare intvar dhs.5.a/db
define tmp/hs.5.a/1 = unslice d/dhs.5.r.1 hs.5.a 0
define tmp/hs.5.a/2 = unslice d/dhs.5.z.1 hs.5.a 64
define tmp/hs.5.a/3 = unslice d/dhs.5.4 hs.5.a 128
define tmp/hs.5.a/4 = add tmp/hs.5.a/1 tmp/hs.5.a/2
define d/dhs.5.a = add tmp/hs.5.a/4 tmp/hs.5.a/3
define dhs.5.a/dhs.5.a.1 = 1
define dhs.5.a/db = 1

# hs.5.a.1 = matmul W hs.5.1
declare intvar d/dhs.5.a.1 [192]
declare intvar dhs.5.a.1/dW [16]
declare intvar dhs.5.a.1/dhs.5.1 [16, 192]
define d/dhs.5.a.1 = mul d/dhs.5.a dhs.5.a/dhs.5.a.1
define dhs.5.a.1/dW = hs.5.1
define dhs.5.a.1/dhs.5.1 = transpose W

# hs.5.1 = index hs.2 5
declare intvar d/dhs.5.1 [16]
define d/dhs.5.1 = matmul dhs.5.a.1/dhs.5.1 d/dhs.5.a.1

# hs.4 = add hs.4.2 hs.4.9
declare intvar tmp/hs.4/1 [64]
declare intvar tmp/hs.4/2 [64]
declare intvar tmp/hs.4/3 [64]
declare intvar tmp/hs.4/4 [64]
declare intvar d/dhs.4 [64]
declare intvar dhs.4/dhs.4.2
declare intvar dhs.4/dhs.4.9
define tmp/hs.4/1 = matmul dhs.5.u/dhs.4 d/dhs.5.u
define tmp/hs.4/2 = mul d/dhs.5.2 dhs.5.2/dhs.4
define tmp/hs.4/3 = reshape d/dhs.23 [64]
define tmp/hs.4/4 = add tmp/hs.4/1 tmp/hs.4/2
define d/dhs.4 = add tmp/hs.4/4 tmp/hs.4/3
define dhs.4/dhs.4.2 = 1
define dhs.4/dhs.4.9 = 1

# hs.4.9 = mul hs.4.3 hs.4.8
declare intvar d/dhs.4.9 [64]
declare intvar dhs.4.9/dhs.4.3 [64]
declare intvar dhs.4.9/dhs.4.8 [64]
define d/dhs.4.9 = mul d/dhs.4 dhs.4/dhs.4.9
define dhs.4.9/dhs.4.3 = hs.4.8
define dhs.4.9/dhs.4.8 = hs.4.3

# hs.4.8 = tanh hs.4.7
declare intvar d/dhs.4.8 [64]
declare intvar dhs.4.8/dhs.4.7 [64]
define d/dhs.4.8 = mul d/dhs.4.9 dhs.4.9/dhs.4.8
define dhs.4.8/dhs.4.7 = tanh_deriv hs.4.7

# hs.4.7 = add hs.4.4 hs.4.6
declare intvar d/dhs.4.7 [64]
declare intvar dhs.4.7/dhs.4.4
declare intvar dhs.4.7/dhs.4.6
define d/dhs.4.7 = mul d/dhs.4.8 dhs.4.8/dhs.4.7
define dhs.4.7/dhs.4.4 = 1
define dhs.4.7/dhs.4.6 = 1

# hs.4.6 = mul hs.4.r hs.4.5
declare intvar d/dhs.4.6 [64]
declare intvar dhs.4.6/dhs.4.r [64]
declare intvar dhs.4.6/dhs.4.5 [64]
define d/dhs.4.6 = mul d/dhs.4.7 dhs.4.7/dhs.4.6
define dhs.4.6/dhs.4.r = hs.4.5
define dhs.4.6/dhs.4.5 = hs.4.r

# hs.4.5 = slice hs.4.u 128 192
declare intvar d/dhs.4.5 [64]
define d/dhs.4.5 = mul d/dhs.4.6 dhs.4.6/dhs.4.5

# hs.4.4 = slice hs.4.a 128 192
declare intvar d/dhs.4.4 [64]
define d/dhs.4.4 = mul d/dhs.4.7 dhs.4.7/dhs.4.4

# hs.4.3 = sub 1 hs.4.z
declare intvar d/dhs.4.3 [64]
declare intvar dhs.4.3/dhs.4.z
define d/dhs.4.3 = mul d/dhs.4.9 dhs.4.9/dhs.4.3
define dhs.4.3/dhs.4.z = -1

# hs.4.2 = mul hs.4.z hs.3
declare intvar d/dhs.4.2 [64]
declare intvar dhs.4.2/dhs.4.z [64]
declare intvar dhs.4.2/dhs.3 [64]
define d/dhs.4.2 = mul d/dhs.4 dhs.4/dhs.4.2
define dhs.4.2/dhs.4.z = hs.3
define dhs.4.2/dhs.3 = hs.4.z

# hs.4.z = logistic hs.4.z.3
declare intvar tmp/hs.4.z/1 [64]
declare intvar tmp/hs.4.z/2 [64]
declare intvar d/dhs.4.z [64]
declare intvar dhs.4.z/dhs.4.z.3 [64]
define tmp/hs.4.z/1 = mul d/dhs.4.2 dhs.4.2/dhs.4.z
define tmp/hs.4.z/2 = mul d/dhs.4.3 dhs.4.3/dhs.4.z
define d/dhs.4.z = add tmp/hs.4.z/1 tmp/hs.4.z/2
define dhs.4.z/dhs.4.z.3 = logistic_deriv hs.4.z.3

# hs.4.z.3 = add hs.4.z.1 hs.4.z.2
declare intvar d/dhs.4.z.3 [64]
declare intvar dhs.4.z.3/dhs.4.z.1
declare intvar dhs.4.z.3/dhs.4.z.2
define d/dhs.4.z.3 = mul d/dhs.4.z dhs.4.z/dhs.4.z.3
define dhs.4.z.3/dhs.4.z.1 = 1
define dhs.4.z.3/dhs.4.z.2 = 1

# hs.4.z.2 = slice hs.4.u 64 128
declare intvar d/dhs.4.z.2 [64]
define d/dhs.4.z.2 = mul d/dhs.4.z.3 dhs.4.z.3/dhs.4.z.2

# hs.4.z.1 = slice hs.4.a 64 128
declare intvar d/dhs.4.z.1 [64]
define d/dhs.4.z.1 = mul d/dhs.4.z.3 dhs.4.z.3/dhs.4.z.1

# hs.4.r = logistic hs.4.r.3
declare intvar d/dhs.4.r [64]
declare intvar dhs.4.r/dhs.4.r.3 [64]
define d/dhs.4.r = mul d/dhs.4.6 dhs.4.6/dhs.4.r
define dhs.4.r/dhs.4.r.3 = logistic_deriv hs.4.r.3

# hs.4.r.3 = add hs.4.r.1 hs.4.r.2
declare intvar d/dhs.4.r.3 [64]
declare intvar dhs.4.r.3/dhs.4.r.1
declare intvar dhs.4.r.3/dhs.4.r.2
define d/dhs.4.r.3 = mul d/dhs.4.r dhs.4.r/dhs.4.r.3
define dhs.4.r.3/dhs.4.r.1 = 1
define dhs.4.r.3/dhs.4.r.2 = 1

# hs.4.r.2 = slice hs.4.u 0 64
declare intvar d/dhs.4.r.2 [64]
define d/dhs.4.r.2 = mul d/dhs.4.r.3 dhs.4.r.3/dhs.4.r.2

# hs.4.r.1 = slice hs.4.a 0 64
declare intvar d/dhs.4.r.1 [64]
define d/dhs.4.r.1 = mul d/dhs.4.r.3 dhs.4.r.3/dhs.4.r.1

# hs.4.u = matmul U hs.3
declare intvar tmp/hs.4.u/1 [192]
declare intvar tmp/hs.4.u/2 [192]
declare intvar tmp/hs.4.u/3 [192]
declare intvar tmp/hs.4.u/4 [192]
declare intvar d/dhs.4.u [192]
declare intvar dhs.4.u/dU [64]
declare intvar dhs.4.u/dhs.3 [64, 192]
define tmp/hs.4.u/1 = unslice d/dhs.4.r.2 hs.4.u 0
define tmp/hs.4.u/2 = unslice d/dhs.4.z.2 hs.4.u 64
define tmp/hs.4.u/3 = unslice d/dhs.4.5 hs.4.u 128
define tmp/hs.4.u/4 = add tmp/hs.4.u/1 tmp/hs.4.u/2
define d/dhs.4.u = add tmp/hs.4.u/4 tmp/hs.4.u/3
define dhs.4.u/dU = hs.3
define dhs.4.u/dhs.3 = transpose U

# hs.4.a = add hs.4.a.1 b
declare intvar tmp/hs.4.a/1 [192]
declare intvar tmp/hs.4.a/2 [192]
declare intvar tmp/hs.4.a/3 [192]
declare intvar tmp/hs.4.a/4 [192]
declare intvar d/dhs.4.a [192]
declare intvar dhs.4.a/dhs.4.a.1
declare intvar dhs.4.a/db
define tmp/hs.4.a/1 = unslice d/dhs.4.r.1 hs.4.a 0
define tmp/hs.4.a/2 = unslice d/dhs.4.z.1 hs.4.a 64
define tmp/hs.4.a/3 = unslice d/dhs.4.4 hs.4.a 128
define tmp/hs.4.a/4 = add tmp/hs.4.a/1 tmp/hs.4.a/2
define d/dhs.4.a = add tmp/hs.4.a/4 tmp/hs.4.a/3
define dhs.4.a/dhs.4.a.1 = 1
define dhs.4.a/db = 1

# hs.4.a.1 = matmul W hs.4.1
declare intvar d/dhs.4.a.1 [192]
declare intvar dhs.4.a.1/dW [16]
declare intvar dhs.4.a.1/dhs.4.1 [16, 192]
define d/dhs.4.a.1 = mul d/dhs.4.a dhs.4.a/dhs.4.a.1
define dhs.4.a.1/dW = hs.4.1
define dhs.4.a.1/dhs.4.1 = transpose W

# hs.4.1 = index hs.2 4
declare intvar d/dhs.4.1 [16]
define d/dhs.4.1 = matmul dhs.4.a.1/dhs.4.1 d/dhs.4.a.1

# hs.3 = add hs.3.2 hs.3.9
declare intvar tmp/hs.3/1 [64]
declare intvar tmp/hs.3/2 [64]
declare intvar tmp/hs.3/3 [64]
declare intvar tmp/hs.3/4 [64]
declare intvar d/dhs.3 [64]
declare intvar dhs.3/dhs.3.2
declare intvar dhs.3/dhs.3.9
define tmp/hs.3/1 = matmul dhs.4.u/dhs.3 d/dhs.4.u
define tmp/hs.3/2 = mul d/dhs.4.2 dhs.4.2/dhs.3
define tmp/hs.3/3 = reshape d/dhs.20 [64]
define tmp/hs.3/4 = add tmp/hs.3/1 tmp/hs.3/2
define d/dhs.3 = add tmp/hs.3/4 tmp/hs.3/3
define dhs.3/dhs.3.2 = 1
define dhs.3/dhs.3.9 = 1

# hs.3.9 = mul hs.3.3 hs.3.8
declare intvar d/dhs.3.9 [64]
declare intvar dhs.3.9/dhs.3.3 [64]
declare intvar dhs.3.9/dhs.3.8 [64]
define d/dhs.3.9 = mul d/dhs.3 dhs.3/dhs.3.9
define dhs.3.9/dhs.3.3 = hs.3.8
define dhs.3.9/dhs.3.8 = hs.3.3

# hs.3.8 = tanh hs.3.7
declare intvar d/dhs.3.8 [64]
declare intvar dhs.3.8/dhs.3.7 [64]
define d/dhs.3.8 = mul d/dhs.3.9 dhs.3.9/dhs.3.8
define dhs.3.8/dhs.3.7 = tanh_deriv hs.3.7

# hs.3.7 = add hs.3.4 hs.3.6
declare intvar d/dhs.3.7 [64]
declare intvar dhs.3.7/dhs.3.4
declare intvar dhs.3.7/dhs.3.6
define d/dhs.3.7 = mul d/dhs.3.8 dhs.3.8/dhs.3.7
define dhs.3.7/dhs.3.4 = 1
define dhs.3.7/dhs.3.6 = 1

# hs.3.6 = mul hs.3.r hs.3.5
declare intvar d/dhs.3.6 [64]
declare intvar dhs.3.6/dhs.3.r [64]
declare intvar dhs.3.6/dhs.3.5 [64]
define d/dhs.3.6 = mul d/dhs.3.7 dhs.3.7/dhs.3.6
define dhs.3.6/dhs.3.r = hs.3.5
define dhs.3.6/dhs.3.5 = hs.3.r

# hs.3.5 = slice hs.3.u 128 192
declare intvar d/dhs.3.5 [64]
define d/dhs.3.5 = mul d/dhs.3.6 dhs.3.6/dhs.3.5

# hs.3.4 = slice hs.3.a 128 192
declare intvar d/dhs.3.4 [64]
define d/dhs.3.4 = mul d/dhs.3.7 dhs.3.7/dhs.3.4

# hs.3.3 = sub 1 hs.3.z
declare intvar d/dhs.3.3 [64]
declare intvar dhs.3.3/dhs.3.z
define d/dhs.3.3 = mul d/dhs.3.9 dhs.3.9/dhs.3.3
define dhs.3.3/dhs.3.z = -1

# hs.3.2 = mul hs.3.z hs.2.1
declare intvar d/dhs.3.2 [64]
declare intvar dhs.3.2/dhs.3.z [64]
declare intvar dhs.3.2/dhs.2.1 [64]
define d/dhs.3.2 = mul d/dhs.3 dhs.3/dhs.3.2
define dhs.3.2/dhs.3.z = hs.2.1
define dhs.3.2/dhs.2.1 = hs.3.z

# hs.3.z = logistic hs.3.z.3
declare intvar tmp/hs.3.z/1 [64]
declare intvar tmp/hs.3.z/2 [64]
declare intvar d/dhs.3.z [64]
declare intvar dhs.3.z/dhs.3.z.3 [64]
define tmp/hs.3.z/1 = mul d/dhs.3.2 dhs.3.2/dhs.3.z
define tmp/hs.3.z/2 = mul d/dhs.3.3 dhs.3.3/dhs.3.z
define d/dhs.3.z = add tmp/hs.3.z/1 tmp/hs.3.z/2
define dhs.3.z/dhs.3.z.3 = logistic_deriv hs.3.z.3

# hs.3.z.3 = add hs.3.z.1 hs.3.z.2
declare intvar d/dhs.3.z.3 [64]
declare intvar dhs.3.z.3/dhs.3.z.1
declare intvar dhs.3.z.3/dhs.3.z.2
define d/dhs.3.z.3 = mul d/dhs.3.z dhs.3.z/dhs.3.z.3
define dhs.3.z.3/dhs.3.z.1 = 1
define dhs.3.z.3/dhs.3.z.2 = 1

# hs.3.z.2 = slice hs.3.u 64 128
declare intvar d/dhs.3.z.2 [64]
define d/dhs.3.z.2 = mul d/dhs.3.z.3 dhs.3.z.3/dhs.3.z.2

# hs.3.z.1 = slice hs.3.a 64 128
declare intvar d/dhs.3.z.1 [64]
define d/dhs.3.z.1 = mul d/dhs.3.z.3 dhs.3.z.3/dhs.3.z.1

# hs.3.r = logistic hs.3.r.3
declare intvar d/dhs.3.r [64]
declare intvar dhs.3.r/dhs.3.r.3 [64]
define d/dhs.3.r = mul d/dhs.3.6 dhs.3.6/dhs.3.r
define dhs.3.r/dhs.3.r.3 = logistic_deriv hs.3.r.3

# hs.3.r.3 = add hs.3.r.1 hs.3.r.2
declare intvar d/dhs.3.r.3 [64]
declare intvar dhs.3.r.3/dhs.3.r.1
declare intvar dhs.3.r.3/dhs.3.r.2
define d/dhs.3.r.3 = mul d/dhs.3.r dhs.3.r/dhs.3.r.3
define dhs.3.r.3/dhs.3.r.1 = 1
define dhs.3.r.3/dhs.3.r.2 = 1

# hs.3.r.2 = slice hs.3.u 0 64
declare intvar d/dhs.3.r.2 [64]
define d/dhs.3.r.2 = mul d/dhs.3.r.3 dhs.3.r.3/dhs.3.r.2

# hs.3.r.1 = slice hs.3.a 0 64
declare intvar d/dhs.3.r.1 [64]
define d/dhs.3.r.1 = mul d/dhs.3.r.3 dhs.3.r.3/dhs.3.r.1

# hs.3.u = matmul U hs.2.1
declare intvar tmp/hs.3.u/1 [192]
declare intvar tmp/hs.3.u/2 [192]
declare intvar tmp/hs.3.u/3 [192]
declare intvar tmp/hs.3.u/4 [192]
declare intvar d/dhs.3.u [192]
declare intvar dhs.3.u/dU [64]
declare intvar dhs.3.u/dhs.2.1 [64, 192]
define tmp/hs.3.u/1 = unslice d/dhs.3.r.2 hs.3.u 0
define tmp/hs.3.u/2 = unslice d/dhs.3.z.2 hs.3.u 64
define tmp/hs.3.u/3 = unslice d/dhs.3.5 hs.3.u 128
define tmp/hs.3.u/4 = add tmp/hs.3.u/1 tmp/hs.3.u/2
define d/dhs.3.u = add tmp/hs.3.u/4 tmp/hs.3.u/3
define dhs.3.u/dU = hs.2.1
define dhs.3.u/dhs.2.1 = transpose U

# hs.3.a = add hs.3.a.1 b
declare intvar tmp/hs.3.a/1 [192]
declare intvar tmp/hs.3.a/2 [192]
declare intvar tmp/hs.3.a/3 [192]
declare intvar tmp/hs.3.a/4 [192]
declare intvar d/dhs.3.a [192]
declare intvar dhs.3.a/dhs.3.a.1
declare intvar dhs.3.a/db
define tmp/hs.3.a/1 = unslice d/dhs.3.r.1 hs.3.a 0
define tmp/hs.3.a/2 = unslice d/dhs.3.z.1 hs.3.a 64
define tmp/hs.3.a/3 = unslice d/dhs.3.4 hs.3.a 128
define tmp/hs.3.a/4 = add tmp/hs.3.a/1 tmp/hs.3.a/2
define d/dhs.3.a = add tmp/hs.3.a/4 tmp/hs.3.a/3
define dhs.3.a/dhs.3.a.1 = 1
define dhs.3.a/db = 1

# hs.3.a.1 = matmul W hs.3.1
declare intvar d/dhs.3.a.1 [192]
declare intvar dhs.3.a.1/dW [16]
declare intvar dhs.3.a.1/dhs.3.1 [16, 192]
define d/dhs.3.a.1 = mul d/dhs.3.a dhs.3.a/dhs.3.a.1
define dhs.3.a.1/dW = hs.3.1
define dhs.3.a.1/dhs.3.1 = transpose W

# hs.3.1 = index hs.2 3
declare intvar d/dhs.3.1 [16]
define d/dhs.3.1 = matmul dhs.3.a.1/dhs.3.1 d/dhs.3.a.1

# hs.2.1 = add hs.2.1.2 hs.2.1.9
declare intvar tmp/hs.2.1/1 [64]
declare intvar tmp/hs.2.1/2 [64]
declare intvar tmp/hs.2.1/3 [64]
declare intvar tmp/hs.2.1/4 [64]
declare intvar d/dhs.2.1 [64]
declare intvar dhs.2.1/dhs.2.1.2
declare intvar dhs.2.1/dhs.2.1.9
define tmp/hs.2.1/1 = matmul dhs.3.u/dhs.2.1 d/dhs.3.u
define tmp/hs.2.1/2 = mul d/dhs.3.2 dhs.3.2/dhs.2.1
define tmp/hs.2.1/3 = reshape d/dhs.19 [64]
define tmp/hs.2.1/4 = add tmp/hs.2.1/1 tmp/hs.2.1/2
define d/dhs.2.1 = add tmp/hs.2.1/4 tmp/hs.2.1/3
define dhs.2.1/dhs.2.1.2 = 1
define dhs.2.1/dhs.2.1.9 = 1

# hs.2.1.9 = mul hs.2.1.3 hs.2.1.8
declare intvar d/dhs.2.1.9 [64]
declare intvar dhs.2.1.9/dhs.2.1.3 [64]
declare intvar dhs.2.1.9/dhs.2.1.8 [64]
define d/dhs.2.1.9 = mul d/dhs.2.1 dhs.2.1/dhs.2.1.9
define dhs.2.1.9/dhs.2.1.3 = hs.2.1.8
define dhs.2.1.9/dhs.2.1.8 = hs.2.1.3

# hs.2.1.8 = tanh hs.2.1.7
declare intvar d/dhs.2.1.8 [64]
declare intvar dhs.2.1.8/dhs.2.1.7 [64]
define d/dhs.2.1.8 = mul d/dhs.2.1.9 dhs.2.1.9/dhs.2.1.8
define dhs.2.1.8/dhs.2.1.7 = tanh_deriv hs.2.1.7

# hs.2.1.7 = add hs.2.1.4 hs.2.1.6
declare intvar d/dhs.2.1.7 [64]
declare intvar dhs.2.1.7/dhs.2.1.4
declare intvar dhs.2.1.7/dhs.2.1.6
define d/dhs.2.1.7 = mul d/dhs.2.1.8 dhs.2.1.8/dhs.2.1.7
define dhs.2.1.7/dhs.2.1.4 = 1
define dhs.2.1.7/dhs.2.1.6 = 1

# hs.2.1.6 = mul hs.2.1.r hs.2.1.5
declare intvar d/dhs.2.1.6 [64]
declare intvar dhs.2.1.6/dhs.2.1.r [64]
declare intvar dhs.2.1.6/dhs.2.1.5 [64]
define d/dhs.2.1.6 = mul d/dhs.2.1.7 dhs.2.1.7/dhs.2.1.6
define dhs.2.1.6/dhs.2.1.r = hs.2.1.5
define dhs.2.1.6/dhs.2.1.5 = hs.2.1.r

# hs.2.1.5 = slice hs.2.1.u 128 192
declare intvar d/dhs.2.1.5 [64]
define d/dhs.2.1.5 = mul d/dhs.2.1.6 dhs.2.1.6/dhs.2.1.5

# hs.2.1.4 = slice hs.2.1.a 128 192
declare intvar d/dhs.2.1.4 [64]
define d/dhs.2.1.4 = mul d/dhs.2.1.7 dhs.2.1.7/dhs.2.1.4

# hs.2.1.3 = sub 1 hs.2.1.z
declare intvar d/dhs.2.1.3 [64]
declare intvar dhs.2.1.3/dhs.2.1.z
define d/dhs.2.1.3 = mul d/dhs.2.1.9 dhs.2.1.9/dhs.2.1.3
define dhs.2.1.3/dhs.2.1.z = -1

# hs.2.1.2 = mul hs.2.1.z hs.1.1
declare intvar d/dhs.2.1.2 [64]
declare intvar dhs.2.1.2/dhs.2.1.z [64]
declare intvar dhs.2.1.2/dhs.1.1 [64]
define d/dhs.2.1.2 = mul d/dhs.2.1 dhs.2.1/dhs.2.1.2
define dhs.2.1.2/dhs.2.1.z = hs.1.1
define dhs.2.1.2/dhs.1.1 = hs.2.1.z

# hs.2.1.z = logistic hs.2.1.z.3
declare intvar tmp/hs.2.1.z/1 [64]
declare intvar tmp/hs.2.1.z/2 [64]
declare intvar d/dhs.2.1.z [64]
declare intvar dhs.2.1.z/dhs.2.1.z.3 [64]
define tmp/hs.2.1.z/1 = mul d/dhs.2.1.2 dhs.2.1.2/dhs.2.1.z
define tmp/hs.2.1.z/2 = mul d/dhs.2.1.3 dhs.2.1.3/dhs.2.1.z
define d/dhs.2.1.z = add tmp/hs.2.1.z/1 tmp/hs.2.1.z/2
define dhs.2.1.z/dhs.2.1.z.3 = logistic_deriv hs.2.1.z.3

# hs.2.1.z.3 = add hs.2.1.z.1 hs.2.1.z.2
declare intvar d/dhs.2.1.z.3 [64]
declare intvar dhs.2.1.z.3/dhs.2.1.z.1
declare intvar dhs.2.1.z.3/dhs.2.1.z.2
define d/dhs.2.1.z.3 = mul d/dhs.2.1.z dhs.2.1.z/dhs.2.1.z.3
define dhs.2.1.z.3/dhs.2.1.z.1 = 1
define dhs.2.1.z.3/dhs.2.1.z.2 = 1

# hs.2.1.z.2 = slice hs.2.1.u 64 128
declare intvar d/dhs.2.1.z.2 [64]
define d/dhs.2.1.z.2 = mul d/dhs.2.1.z.3 dhs.2.1.z.3/dhs.2.1.z.2

# hs.2.1.z.1 = slice hs.2.1.a 64 128
declare intvar d/dhs.2.1.z.1 [64]
define d/dhs.2.1.z.1 = mul d/dhs.2.1.z.3 dhs.2.1.z.3/dhs.2.1.z.1

# hs.2.1.r = logistic hs.2.1.r.3
declare intvar d/dhs.2.1.r [64]
declare intvar dhs.2.1.r/dhs.2.1.r.3 [64]
define d/dhs.2.1.r = mul d/dhs.2.1.6 dhs.2.1.6/dhs.2.1.r
define dhs.2.1.r/dhs.2.1.r.3 = logistic_deriv hs.2.1.r.3

# hs.2.1.r.3 = add hs.2.1.r.1 hs.2.1.r.2
declare intvar d/dhs.2.1.r.3 [64]
declare intvar dhs.2.1.r.3/dhs.2.1.r.1
declare intvar dhs.2.1.r.3/dhs.2.1.r.2
define d/dhs.2.1.r.3 = mul d/dhs.2.1.r dhs.2.1.r/dhs.2.1.r.3
define dhs.2.1.r.3/dhs.2.1.r.1 = 1
define dhs.2.1.r.3/dhs.2.1.r.2 = 1

# hs.2.1.r.2 = slice hs.2.1.u 0 64
declare intvar d/dhs.2.1.r.2 [64]
define d/dhs.2.1.r.2 = mul d/dhs.2.1.r.3 dhs.2.1.r.3/dhs.2.1.r.2

# hs.2.1.r.1 = slice hs.2.1.a 0 64
declare intvar d/dhs.2.1.r.1 [64]
define d/dhs.2.1.r.1 = mul d/dhs.2.1.r.3 dhs.2.1.r.3/dhs.2.1.r.1

# hs.2.1.u = matmul U hs.1.1
declare intvar tmp/hs.2.1.u/1 [192]
declare intvar tmp/hs.2.1.u/2 [192]
declare intvar tmp/hs.2.1.u/3 [192]
declare intvar tmp/hs.2.1.u/4 [192]
declare intvar d/dhs.2.1.u [192]
declare intvar dhs.2.1.u/dU [64]
declare intvar dhs.2.1.u/dhs.1.1 [64, 192]
define tmp/hs.2.1.u/1 = unslice d/dhs.2.1.r.2 hs.2.1.u 0
define tmp/hs.2.1.u/2 = unslice d/dhs.2.1.z.2 hs.2.1.u 64
define tmp/hs.2.1.u/3 = unslice d/dhs.2.1.5 hs.2.1.u 128
define tmp/hs.2.1.u/4 = add tmp/hs.2.1.u/1 tmp/hs.2.1.u/2
define d/dhs.2.1.u = add tmp/hs.2.1.u/4 tmp/hs.2.1.u/3
define dhs.2.1.u/dU = hs.1.1
define dhs.2.1.u/dhs.1.1 = transpose U

# hs.2.1.a = add hs.2.1.a.1 b
declare intvar tmp/hs.2.1.a/1 [192]
declare intvar tmp/hs.2.1.a/2 [192]
declare intvar tmp/hs.2.1.a/3 [192]
declare intvar tmp/hs.2.1.a/4 [192]
declare intvar d/dhs.2.1.a [192]
declare intvar dhs.2.1.a/dhs.2.1.a.1
declare intvar dhs.2.1.a/db
define tmp/hs.2.1.a/1 = unslice d/dhs.2.1.r.1 hs.2.1.a 0
define tmp/hs.2.1.a/2 = unslice d/dhs.2.1.z.1 hs.2.1.a 64
define tmp/hs.2.1.a/3 = unslice d/dhs.2.1.4 hs.2.1.a 128
define tmp/hs.2.1.a/4 = add tmp/hs.2.1.a/1 tmp/hs.2.1.a/2
define d/dhs.2.1.a = add tmp/hs.2.1.a/4 tmp/hs.2.1.a/3
define dhs.2.1.a/dhs.2.1.a.1 = 1
define dhs.2.1.a/db = 1

# hs.2.1.a.1 = matmul W hs.2.1.1
declare intvar d/dhs.2.1.a.1 [192]
declare intvar dhs.2.1.a.1/dW [16]
declare intvar dhs.2.1.a.1/dhs.2.1.1 [16, 192]
define d/dhs.2.1.a.1 = mul d/dhs.2.1.a dhs.2.1.a/dhs.2.1.a.1
define dhs.2.1.a.1/dW = hs.2.1.1
define dhs.2.1.a.1/dhs.2.1.1 = transpose W

# hs.2.1.1 = index hs.2 2
declare intvar d/dhs.2.1.1 [16]
define d/dhs.2.1.1 = matmul dhs.2.1.a.1/dhs.2.1.1 d/dhs.2.1.a.1

# hs.1.1 = add hs.1.1.2 hs.1.1.9
declare intvar tmp/hs.1.1/1 [64]
declare intvar tmp/hs.1.1/2 [64]
declare intvar tmp/hs.1.1/3 [64]
declare intvar tmp/hs.1.1/4 [64]
declare intvar d/dhs.1.1 [64]
declare intvar dhs.1.1/dhs.1.1.2
declare intvar dhs.1.1/dhs.1.1.9
define tmp/hs.1.1/1 = matmul dhs.2.1.u/dhs.1.1 d/dhs.2.1.u
define tmp/hs.1.1/2 = mul d/dhs.2.1.2 dhs.2.1.2/dhs.1.1
define tmp/hs.1.1/3 = reshape d/dhs.17 [64]
define tmp/hs.1.1/4 = add tmp/hs.1.1/1 tmp/hs.1.1/2
define d/dhs.1.1 = add tmp/hs.1.1/4 tmp/hs.1.1/3
define dhs.1.1/dhs.1.1.2 = 1
define dhs.1.1/dhs.1.1.9 = 1

# hs.1.1.9 = mul hs.1.1.3 hs.1.1.8
declare intvar d/dhs.1.1.9 [64]
declare intvar dhs.1.1.9/dhs.1.1.3 [64]
declare intvar dhs.1.1.9/dhs.1.1.8 [64]
define d/dhs.1.1.9 = mul d/dhs.1.1 dhs.1.1/dhs.1.1.9
define dhs.1.1.9/dhs.1.1.3 = hs.1.1.8
define dhs.1.1.9/dhs.1.1.8 = hs.1.1.3

# hs.1.1.8 = tanh hs.1.1.7
declare intvar d/dhs.1.1.8 [64]
declare intvar dhs.1.1.8/dhs.1.1.7 [64]
define d/dhs.1.1.8 = mul d/dhs.1.1.9 dhs.1.1.9/dhs.1.1.8
define dhs.1.1.8/dhs.1.1.7 = tanh_deriv hs.1.1.7

# hs.1.1.7 = add hs.1.1.4 hs.1.1.6
declare intvar d/dhs.1.1.7 [64]
declare intvar dhs.1.1.7/dhs.1.1.4
declare intvar dhs.1.1.7/dhs.1.1.6
define d/dhs.1.1.7 = mul d/dhs.1.1.8 dhs.1.1.8/dhs.1.1.7
define dhs.1.1.7/dhs.1.1.4 = 1
define dhs.1.1.7/dhs.1.1.6 = 1

# hs.1.1.6 = mul hs.1.1.r hs.1.1.5
declare intvar d/dhs.1.1.6 [64]
declare intvar dhs.1.1.6/dhs.1.1.r [64]
declare intvar dhs.1.1.6/dhs.1.1.5 [64]
define d/dhs.1.1.6 = mul d/dhs.1.1.7 dhs.1.1.7/dhs.1.1.6
define dhs.1.1.6/dhs.1.1.r = hs.1.1.5
define dhs.1.1.6/dhs.1.1.5 = hs.1.1.r

# hs.1.1.5 = slice hs.1.1.u 128 192
declare intvar d/dhs.1.1.5 [64]
define d/dhs.1.1.5 = mul d/dhs.1.1.6 dhs.1.1.6/dhs.1.1.5

# hs.1.1.4 = slice hs.1.1.a 128 192
declare intvar d/dhs.1.1.4 [64]
define d/dhs.1.1.4 = mul d/dhs.1.1.7 dhs.1.1.7/dhs.1.1.4

# hs.1.1.3 = sub 1 hs.1.1.z
declare intvar d/dhs.1.1.3 [64]
declare intvar dhs.1.1.3/dhs.1.1.z
define d/dhs.1.1.3 = mul d/dhs.1.1.9 dhs.1.1.9/dhs.1.1.3
define dhs.1.1.3/dhs.1.1.z = -1

# hs.1.1.2 = mul hs.1.1.z hs.0
declare intvar d/dhs.1.1.2 [64]
declare intvar dhs.1.1.2/dhs.1.1.z [64]
declare intvar dhs.1.1.2/dhs.0 [64]
define d/dhs.1.1.2 = mul d/dhs.1.1 dhs.1.1/dhs.1.1.2
define dhs.1.1.2/dhs.1.1.z = hs.0
define dhs.1.1.2/dhs.0 = hs.1.1.z

# hs.1.1.z = logistic hs.1.1.z.3
declare intvar tmp/hs.1.1.z/1 [64]
declare intvar tmp/hs.1.1.z/2 [64]
declare intvar d/dhs.1.1.z [64]
declare intvar dhs.1.1.z/dhs.1.1.z.3 [64]
define tmp/hs.1.1.z/1 = mul d/dhs.1.1.2 dhs.1.1.2/dhs.1.1.z
define tmp/hs.1.1.z/2 = mul d/dhs.1.1.3 dhs.1.1.3/dhs.1.1.z
define d/dhs.1.1.z = add tmp/hs.1.1.z/1 tmp/hs.1.1.z/2
define dhs.1.1.z/dhs.1.1.z.3 = logistic_deriv hs.1.1.z.3

# hs.1.1.z.3 = add hs.1.1.z.1 hs.1.1.z.2
declare intvar d/dhs.1.1.z.3 [64]
declare intvar dhs.1.1.z.3/dhs.1.1.z.1
declare intvar dhs.1.1.z.3/dhs.1.1.z.2
define d/dhs.1.1.z.3 = mul d/dhs.1.1.z dhs.1.1.z/dhs.1.1.z.3
define dhs.1.1.z.3/dhs.1.1.z.1 = 1
define dhs.1.1.z.3/dhs.1.1.z.2 = 1

# hs.1.1.z.2 = slice hs.1.1.u 64 128
declare intvar d/dhs.1.1.z.2 [64]
define d/dhs.1.1.z.2 = mul d/dhs.1.1.z.3 dhs.1.1.z.3/dhs.1.1.z.2

# hs.1.1.z.1 = slice hs.1.1.a 64 128
declare intvar d/dhs.1.1.z.1 [64]
define d/dhs.1.1.z.1 = mul d/dhs.1.1.z.3 dhs.1.1.z.3/dhs.1.1.z.1

# hs.1.1.r = logistic hs.1.1.r.3
declare intvar d/dhs.1.1.r [64]
declare intvar dhs.1.1.r/dhs.1.1.r.3 [64]
define d/dhs.1.1.r = mul d/dhs.1.1.6 dhs.1.1.6/dhs.1.1.r
define dhs.1.1.r/dhs.1.1.r.3 = logistic_deriv hs.1.1.r.3

# hs.1.1.r.3 = add hs.1.1.r.1 hs.1.1.r.2
declare intvar d/dhs.1.1.r.3 [64]
declare intvar dhs.1.1.r.3/dhs.1.1.r.1
declare intvar dhs.1.1.r.3/dhs.1.1.r.2
define d/dhs.1.1.r.3 = mul d/dhs.1.1.r dhs.1.1.r/dhs.1.1.r.3
define dhs.1.1.r.3/dhs.1.1.r.1 = 1
define dhs.1.1.r.3/dhs.1.1.r.2 = 1

# hs.1.1.r.2 = slice hs.1.1.u 0 64
declare intvar d/dhs.1.1.r.2 [64]
define d/dhs.1.1.r.2 = mul d/dhs.1.1.r.3 dhs.1.1.r.3/dhs.1.1.r.2

# hs.1.1.r.1 = slice hs.1.1.a 0 64
declare intvar d/dhs.1.1.r.1 [64]
define d/dhs.1.1.r.1 = mul d/dhs.1.1.r.3 dhs.1.1.r.3/dhs.1.1.r.1

# hs.1.1.u = matmul U hs.0
declare intvar tmp/hs.1.1.u/1 [192]
declare intvar tmp/hs.1.1.u/2 [192]
declare intvar tmp/hs.1.1.u/3 [192]
declare intvar tmp/hs.1.1.u/4 [192]
declare intvar d/dhs.1.1.u [192]
declare intvar dhs.1.1.u/dU [64]
declare intvar dhs.1.1.u/dhs.0 [64, 192]
define tmp/hs.1.1.u/1 = unslice d/dhs.1.1.r.2 hs.1.1.u 0
define tmp/hs.1.1.u/2 = unslice d/dhs.1.1.z.2 hs.1.1.u 64
define tmp/hs.1.1.u/3 = unslice d/dhs.1.1.5 hs.1.1.u 128
define tmp/hs.1.1.u/4 = add tmp/hs.1.1.u/1 tmp/hs.1.1.u/2
define d/dhs.1.1.u = add tmp/hs.1.1.u/4 tmp/hs.1.1.u/3
define dhs.1.1.u/dU = hs.0
define dhs.1.1.u/dhs.0 = transpose U

# hs.1.1.a = add hs.1.1.a.1 b
declare intvar tmp/hs.1.1.a/1 [192]
declare intvar tmp/hs.1.1.a/2 [192]
declare intvar tmp/hs.1.1.a/3 [192]
declare intvar tmp/hs.1.1.a/4 [192]
declare intvar d/dhs.1.1.a [192]
declare intvar dhs.1.1.a/dhs.1.1.a.1
declare intvar dhs.1.1.a/db
define tmp/hs.1.1.a/1 = unslice d/dhs.1.1.r.1 hs.1.1.a 0
define tmp/hs.1.1.a/2 = unslice d/dhs.1.1.z.1 hs.1.1.a 64
define tmp/hs.1.1.a/3 = unslice d/dhs.1.1.4 hs.1.1.a 128
define tmp/hs.1.1.a/4 = add tmp/hs.1.1.a/1 tmp/hs.1.1.a/2
define d/dhs.1.1.a = add tmp/hs.1.1.a/4 tmp/hs.1.1.a/3
define dhs.1.1.a/dhs.1.1.a.1 = 1
define dhs.1.1.a/db = 1

# hs.1.1.a.1 = matmul W hs.1.1.1
declare intvar d/dhs.1.1.a.1 [192]
declare intvar dhs.1.1.a.1/dW [16]
declare intvar dhs.1.1.a.1/dhs.1.1.1 [16, 192]
define d/dhs.1.1.a.1 = mul d/dhs.1.1.a dhs.1.1.a/dhs.1.1.a.1
define dhs.1.1.a.1/dW = hs.1.1.1
define dhs.1.1.a.1/dhs.1.1.1 = transpose W

# hs.1.1.1 = index hs.2 1
declare intvar d/dhs.1.1.1 [16]
define d/dhs.1.1.1 = matmul dhs.1.1.a.1/dhs.1.1.1 d/dhs.1.1.a.1

# hs.0 = add hs.0.2 hs.0.9
declare intvar tmp/hs.0/1 [64]
declare intvar tmp/hs.0/2 [64]
declare intvar tmp/hs.0/3 [64]
declare intvar tmp/hs.0/4 [64]
declare intvar d/dhs.0 [64]
declare intvar dhs.0/dhs.0.2
declare intvar dhs.0/dhs.0.9
define tmp/hs.0/1 = matmul dhs.1.1.u/dhs.0 d/dhs.1.1.u
define tmp/hs.0/2 = mul d/dhs.1.1.2 dhs.1.1.2/dhs.0
define tmp/hs.0/3 = reshape d/dhs.16 [64]
define tmp/hs.0/4 = add tmp/hs.0/1 tmp/hs.0/2
define d/dhs.0 = add tmp/hs.0/4 tmp/hs.0/3
define dhs.0/dhs.0.2 = 1
define dhs.0/dhs.0.9 = 1

# hs.0.9 = mul hs.0.3 hs.0.8
declare intvar d/dhs.0.9 [64]
declare intvar dhs.0.9/dhs.0.3 [64]
declare intvar dhs.0.9/dhs.0.8 [64]
define d/dhs.0.9 = mul d/dhs.0 dhs.0/dhs.0.9
define dhs.0.9/dhs.0.3 = hs.0.8
define dhs.0.9/dhs.0.8 = hs.0.3

# hs.0.8 = tanh hs.0.7
declare intvar d/dhs.0.8 [64]
declare intvar dhs.0.8/dhs.0.7 [64]
define d/dhs.0.8 = mul d/dhs.0.9 dhs.0.9/dhs.0.8
define dhs.0.8/dhs.0.7 = tanh_deriv hs.0.7

# hs.0.7 = add hs.0.4 hs.0.6
declare intvar d/dhs.0.7 [64]
declare intvar dhs.0.7/dhs.0.4
declare intvar dhs.0.7/dhs.0.6
define d/dhs.0.7 = mul d/dhs.0.8 dhs.0.8/dhs.0.7
define dhs.0.7/dhs.0.4 = 1
define dhs.0.7/dhs.0.6 = 1

# hs.0.6 = mul hs.0.r hs.0.5
declare intvar d/dhs.0.6 [64]
declare intvar dhs.0.6/dhs.0.r [64]
declare intvar dhs.0.6/dhs.0.5 [64]
define d/dhs.0.6 = mul d/dhs.0.7 dhs.0.7/dhs.0.6
define dhs.0.6/dhs.0.r = hs.0.5
define dhs.0.6/dhs.0.5 = hs.0.r

# hs.0.5 = slice hs.0.u 128 192
declare intvar d/dhs.0.5 [64]
define d/dhs.0.5 = mul d/dhs.0.6 dhs.0.6/dhs.0.5

# hs.0.4 = slice hs.0.a 128 192
declare intvar d/dhs.0.4 [64]
define d/dhs.0.4 = mul d/dhs.0.7 dhs.0.7/dhs.0.4

# hs.0.3 = sub 1 hs.0.z
declare intvar d/dhs.0.3 [64]
declare intvar dhs.0.3/dhs.0.z
define d/dhs.0.3 = mul d/dhs.0.9 dhs.0.9/dhs.0.3
define dhs.0.3/dhs.0.z = -1

# hs.0.2 = mul hs.0.z h0
declare intvar d/dhs.0.2 [64]
declare intvar dhs.0.2/dhs.0.z [64]
declare intvar dhs.0.2/dh0 [64]
define d/dhs.0.2 = mul d/dhs.0 dhs.0/dhs.0.2
define dhs.0.2/dhs.0.z = h0
define dhs.0.2/dh0 = hs.0.z

# hs.0.z = logistic hs.0.z.3
declare intvar tmp/hs.0.z/1 [64]
declare intvar tmp/hs.0.z/2 [64]
declare intvar d/dhs.0.z [64]
declare intvar dhs.0.z/dhs.0.z.3 [64]
define tmp/hs.0.z/1 = mul d/dhs.0.2 dhs.0.2/dhs.0.z
define tmp/hs.0.z/2 = mul d/dhs.0.3 dhs.0.3/dhs.0.z
define d/dhs.0.z = add tmp/hs.0.z/1 tmp/hs.0.z/2
define dhs.0.z/dhs.0.z.3 = logistic_deriv hs.0.z.3

# hs.0.z.3 = add hs.0.z.1 hs.0.z.2
declare intvar d/dhs.0.z.3 [64]
declare intvar dhs.0.z.3/dhs.0.z.1
declare intvar dhs.0.z.3/dhs.0.z.2
define d/dhs.0.z.3 = mul d/dhs.0.z dhs.0.z/dhs.0.z.3
define dhs.0.z.3/dhs.0.z.1 = 1
define dhs.0.z.3/dhs.0.z.2 = 1

# hs.0.z.2 = slice hs.0.u 64 128
declare intvar d/dhs.0.z.2 [64]
define d/dhs.0.z.2 = mul d/dhs.0.z.3 dhs.0.z.3/dhs.0.z.2

# hs.0.z.1 = slice hs.0.a 64 128
declare intvar d/dhs.0.z.1 [64]
define d/dhs.0.z.1 = mul d/dhs.0.z.3 dhs.0.z.3/dhs.0.z.1

# hs.0.r = logistic hs.0.r.3
declare intvar d/dhs.0.r [64]
declare intvar dhs.0.r/dhs.0.r.3 [64]
define d/dhs.0.r = mul d/dhs.0.6 dhs.0.6/dhs.0.r
define dhs.0.r/dhs.0.r.3 = logistic_deriv hs.0.r.3

# hs.0.r.3 = add hs.0.r.1 hs.0.r.2
declare intvar d/dhs.0.r.3 [64]
declare intvar dhs.0.r.3/dhs.0.r.1
declare intvar dhs.0.r.3/dhs.0.r.2
define d/dhs.0.r.3 = mul d/dhs.0.r dhs.0.r/dhs.0.r.3
define dhs.0.r.3/dhs.0.r.1 = 1
define dhs.0.r.3/dhs.0.r.2 = 1

# hs.0.r.2 = slice hs.0.u 0 64
declare intvar d/dhs.0.r.2 [64]
define d/dhs.0.r.2 = mul d/dhs.0.r.3 dhs.0.r.3/dhs.0.r.2

# hs.0.r.1 = slice hs.0.a 0 64
declare intvar d/dhs.0.r.1 [64]
define d/dhs.0.r.1 = mul d/dhs.0.r.3 dhs.0.r.3/dhs.0.r.1

# hs.0.u = matmul U h0
declare intvar tmp/hs.0.u/1 [192]
declare intvar tmp/hs.0.u/2 [192]
declare intvar tmp/hs.0.u/3 [192]
declare intvar tmp/hs.0.u/4 [192]
declare intvar d/dhs.0.u [192]
declare intvar dhs.0.u/dU [64]
declare intvar dhs.0.u/dh0 [64, 192]
define tmp/hs.0.u/1 = unslice d/dhs.0.r.2 hs.0.u 0
define tmp/hs.0.u/2 = unslice d/dhs.0.z.2 hs.0.u 64
define tmp/hs.0.u/3 = unslice d/dhs.0.5 hs.0.u 128
define tmp/hs.0.u/4 = add tmp/hs.0.u/1 tmp/hs.0.u/2
define d/dhs.0.u = add tmp/hs.0.u/4 tmp/hs.0.u/3
define dhs.0.u/dU = h0
define dhs.0.u/dh0 = transpose U

# hs.0.a = add hs.0.a.1 b
declare intvar tmp/hs.0.a/1 [192]
declare intvar tmp/hs.0.a/2 [192]
declare intvar tmp/hs.0.a/3 [192]
declare intvar tmp/hs.0.a/4 [192]
declare intvar d/dhs.0.a [192]
declare intvar dhs.0.a/dhs.0.a.1
declare intvar dhs.0.a/db
define tmp/hs.0.a/1 = unslice d/dhs.0.r.1 hs.0.a 0
define tmp/hs.0.a/2 = unslice d/dhs.0.z.1 hs.0.a 64
define tmp/hs.0.a/3 = unslice d/dhs.0.4 hs.0.a 128
define tmp/hs.0.a/4 = add tmp/hs.0.a/1 tmp/hs.0.a/2
define d/dhs.0.a = add tmp/hs.0.a/4 tmp/hs.0.a/3
define dhs.0.a/dhs.0.a.1 = 1
define dhs.0.a/db = 1

# hs.0.a.1 = matmul W hs.0.1
declare intvar d/dhs.0.a.1 [192]
declare intvar dhs.0.a.1/dW [16]
declare intvar dhs.0.a.1/dhs.0.1 [16, 192]
define d/dhs.0.a.1 = mul d/dhs.0.a dhs.0.a/dhs.0.a.1
define dhs.0.a.1/dW = hs.0.1
define dhs.0.a.1/dhs.0.1 = transpose W

# hs.0.1 = index hs.2 0
declare intvar d/dhs.0.1 [16]
define d/dhs.0.1 = matmul dhs.0.a.1/dhs.0.1 d/dhs.0.a.1

# hs.2 = take E hs.1
declare intvar tmp/hs.2/2 [1, 16]
declare intvar tmp/hs.2/1 [16, 16]
declare intvar tmp/hs.2/4 [1, 16]
declare intvar tmp/hs.2/3 [16, 16]
declare intvar tmp/hs.2/6 [1, 16]
declare intvar tmp/hs.2/5 [16, 16]
declare intvar tmp/hs.2/8 [1, 16]
declare intvar tmp/hs.2/7 [16, 16]
declare intvar tmp/hs.2/10 [1, 16]
declare intvar tmp/hs.2/9 [16, 16]
declare intvar tmp/hs.2/12 [1, 16]
declare intvar tmp/hs.2/11 [16, 16]
declare intvar tmp/hs.2/14 [1, 16]
declare intvar tmp/hs.2/13 [16, 16]
declare intvar tmp/hs.2/16 [1, 16]
declare intvar tmp/hs.2/15 [16, 16]
declare intvar tmp/hs.2/18 [1, 16]
declare intvar tmp/hs.2/17 [16, 16]
declare intvar tmp/hs.2/20 [1, 16]
declare intvar tmp/hs.2/19 [16, 16]
declare intvar tmp/hs.2/22 [1, 16]
declare intvar tmp/hs.2/21 [16, 16]
declare intvar tmp/hs.2/24 [1, 16]
declare intvar tmp/hs.2/23 [16, 16]
declare intvar tmp/hs.2/26 [1, 16]
declare intvar tmp/hs.2/25 [16, 16]
declare intvar tmp/hs.2/28 [1, 16]
declare intvar tmp/hs.2/27 [16, 16]
declare intvar tmp/hs.2/30 [1, 16]
declare intvar tmp/hs.2/29 [16, 16]
declare intvar tmp/hs.2/32 [1, 16]
declare intvar tmp/hs.2/31 [16, 16]
declare intvar tmp/hs.2/33 [16, 16]
declare intvar tmp/hs.2/34 [16, 16]
declare intvar tmp/hs.2/35 [16, 16]
declare intvar tmp/hs.2/36 [16, 16]
declare intvar tmp/hs.2/37 [16, 16]
declare intvar tmp/hs.2/38 [16, 16]
declare intvar tmp/hs.2/39 [16, 16]
declare intvar tmp/hs.2/40 [16, 16]
declare intvar tmp/hs.2/41 [16, 16]
declare intvar tmp/hs.2/42 [16, 16]
declare intvar tmp/hs.2/43 [16, 16]
declare intvar tmp/hs.2/44 [16, 16]
declare intvar tmp/hs.2/45 [16, 16]
declare intvar tmp/hs.2/46 [16, 16]
declare intvar d/dhs.2 [16, 16]
define tmp/hs.2/2 = reshape d/dhs.0.1 [1, 16]
define tmp/hs.2/1 = unslice tmp/hs.2/2 hs.2 0
define tmp/hs.2/4 = reshape d/dhs.1.1.1 [1, 16]
define tmp/hs.2/3 = unslice tmp/hs.2/4 hs.2 1
define tmp/hs.2/6 = reshape d/dhs.2.1.1 [1, 16]
define tmp/hs.2/5 = unslice tmp/hs.2/6 hs.2 2
define tmp/hs.2/8 = reshape d/dhs.3.1 [1, 16]
define tmp/hs.2/7 = unslice tmp/hs.2/8 hs.2 3
define tmp/hs.2/10 = reshape d/dhs.4.1 [1, 16]
define tmp/hs.2/9 = unslice tmp/hs.2/10 hs.2 4
define tmp/hs.2/12 = reshape d/dhs.5.1 [1, 16]
define tmp/hs.2/11 = unslice tmp/hs.2/12 hs.2 5
define tmp/hs.2/14 = reshape d/dhs.6.1 [1, 16]
define tmp/hs.2/13 = unslice tmp/hs.2/14 hs.2 6
define tmp/hs.2/16 = reshape d/dhs.7.1 [1, 16]
define tmp/hs.2/15 = unslice tmp/hs.2/16 hs.2 7
define tmp/hs.2/18 = reshape d/dhs.8.1 [1, 16]
define tmp/hs.2/17 = unslice tmp/hs.2/18 hs.2 8
define tmp/hs.2/20 = reshape d/dhs.9.1 [1, 16]
define tmp/hs.2/19 = unslice tmp/hs.2/20 hs.2 9
define tmp/hs.2/22 = reshape d/dhs.10.1 [1, 16]
define tmp/hs.2/21 = unslice tmp/hs.2/22 hs.2 10
define tmp/hs.2/24 = reshape d/dhs.11.1 [1, 16]
define tmp/hs.2/23 = unslice tmp/hs.2/24 hs.2 11
define tmp/hs.2/26 = reshape d/dhs.12.1 [1, 16]
define tmp/hs.2/25 = unslice tmp/hs.2/26 hs.2 12
define tmp/hs.2/28 = reshape d/dhs.13.1 [1, 16]
define tmp/hs.2/27 = unslice tmp/hs.2/28 hs.2 13
define tmp/hs.2/30 = reshape d/dhs.14.1 [1, 16]
define tmp/hs.2/29 = unslice tmp/hs.2/30 hs.2 14
define tmp/hs.2/32 = reshape d/dhs.15.1 [1, 16]
define tmp/hs.2/31 = unslice tmp/hs.2/32 hs.2 15
define tmp/hs.2/33 = add tmp/hs.2/1 tmp/hs.2/3
define tmp/hs.2/34 = add tmp/hs.2/33 tmp/hs.2/5
define tmp/hs.2/35 = add tmp/hs.2/34 tmp/hs.2/7
define tmp/hs.2/36 = add tmp/hs.2/35 tmp/hs.2/9
define tmp/hs.2/37 = add tmp/hs.2/36 tmp/hs.2/11
define tmp/hs.2/38 = add tmp/hs.2/37 tmp/hs.2/13
define tmp/hs.2/39 = add tmp/hs.2/38 tmp/hs.2/15
define tmp/hs.2/40 = add tmp/hs.2/39 tmp/hs.2/17
define tmp/hs.2/41 = add tmp/hs.2/40 tmp/hs.2/19
define tmp/hs.2/42 = add tmp/hs.2/41 tmp/hs.2/21
define tmp/hs.2/43 = add tmp/hs.2/42 tmp/hs.2/23
define tmp/hs.2/44 = add tmp/hs.2/43 tmp/hs.2/25
define tmp/hs.2/45 = add tmp/hs.2/44 tmp/hs.2/27
define tmp/hs.2/46 = add tmp/hs.2/45 tmp/hs.2/29
define d/dhs.2 = add tmp/hs.2/46 tmp/hs.2/31

# hs.1 = slice chars 0 16
declare intvar d/dhs.1 [16]
define d/dhs.1 = broadcast_like 0 hs.1

# weight c
declare intvar tmp/c/1 [16, 32]
declare output d/dc [32]
define tmp/c/1 = mul d/dlogp.2 dlogp.2/dc
define d/dc = sum_like tmp/c/1 c

# weight V
declare output d/dV [64, 32]
define d/dV = matmul dlogp.1/dV d/dlogp.1

# weight h0
declare intvar tmp/h0/1 [64]
declare intvar tmp/h0/2 [64]
declare output d/dh0 [64]
define tmp/h0/1 = matmul dhs.0.u/dh0 d/dhs.0.u
define tmp/h0/2 = mul d/dhs.0.2 dhs.0.2/dh0
define d/dh0 = add tmp/h0/1 tmp/h0/2

# weight b
declare intvar tmp/b/1 [192]
declare intvar tmp/b/2 [192]
declare intvar tmp/b/3 [192]
declare intvar tmp/b/4 [192]
declare intvar tmp/b/5 [192]
declare intvar tmp/b/6 [192]
declare intvar tmp/b/7 [192]
declare intvar tmp/b/8 [192]
declare intvar tmp/b/9 [192]
declare intvar tmp/b/10 [192]
declare intvar tmp/b/11 [192]
declare intvar tmp/b/12 [192]
declare intvar tmp/b/13 [192]
declare intvar tmp/b/14 [192]
declare intvar tmp/b/15 [192]
declare intvar tmp/b/16 [192]
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
define tmp/b/1 = mul d/dhs.0.a dhs.0.a/db
define tmp/b/2 = mul d/dhs.1.1.a dhs.1.1.a/db
define tmp/b/3 = mul d/dhs.2.1.a dhs.2.1.a/db
define tmp/b/4 = mul d/dhs.3.a dhs.3.a/db
define tmp/b/5 = mul d/dhs.4.a dhs.4.a/db
define tmp/b/6 = mul d/dhs.5.a dhs.5.a/db
define tmp/b/7 = mul d/dhs.6.a dhs.6.a/db
define tmp/b/8 = mul d/dhs.7.a dhs.7.a/db
define tmp/b/9 = mul d/dhs.8.a dhs.8.a/db
define tmp/b/10 = mul d/dhs.9.a dhs.9.a/db
define tmp/b/11 = mul d/dhs.10.a dhs.10.a/db
define tmp/b/12 = mul d/dhs.11.a dhs.11.a/db
define tmp/b/13 = mul d/dhs.12.a dhs.12.a/db
define tmp/b/14 = mul d/dhs.13.a dhs.13.a/db
define tmp/b/15 = mul d/dhs.14.a dhs.14.a/db
define tmp/b/16 = mul d/dhs.15.a dhs.15.a/db
define tmp/b/17 = add tmp/b/1 tmp/b/2
define tmp/b/18 = add tmp/b/17 tmp/b/3
define tmp/b/19 = add tmp/b/18 tmp/b/4
define tmp/b/20 = add tmp/b/19 tmp/b/5
define tmp/b/21 = add tmp/b/20 tmp/b/6
define tmp/b/22 = add tmp/b/21 tmp/b/7
define tmp/b/23 = add tmp/b/22 tmp/b/8
define tmp/b/24 = add tmp/b/23 tmp/b/9
define tmp/b/25 = add tmp/b/24 tmp/b/10
define tmp/b/26 = add tmp/b/25 tmp/b/11
define tmp/b/27 = add tmp/b/26 tmp/b/12
define tmp/b/28 = add tmp/b/27 tmp/b/13
define tmp/b/29 = add tmp/b/28 tmp/b/14
define tmp/b/30 = add tmp/b/29 tmp/b/15
define d/db = add tmp/b/30 tmp/b/16

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
define tmp/U/1 = outer d/dhs.0.u dhs.0.u/dU
define tmp/U/2 = outer d/dhs.1.1.u dhs.1.1.u/dU
define tmp/U/3 = outer d/dhs.2.1.u dhs.2.1.u/dU
define tmp/U/4 = outer d/dhs.3.u dhs.3.u/dU
define tmp/U/5 = outer d/dhs.4.u dhs.4.u/dU
define tmp/U/6 = outer d/dhs.5.u dhs.5.u/dU
define tmp/U/7 = outer d/dhs.6.u dhs.6.u/dU
define tmp/U/8 = outer d/dhs.7.u dhs.7.u/dU
define tmp/U/9 = outer d/dhs.8.u dhs.8.u/dU
define tmp/U/10 = outer d/dhs.9.u dhs.9.u/dU
define tmp/U/11 = outer d/dhs.10.u dhs.10.u/dU
define tmp/U/12 = outer d/dhs.11.u dhs.11.u/dU
define tmp/U/13 = outer d/dhs.12.u dhs.12.u/dU
define tmp/U/14 = outer d/dhs.13.u dhs.13.u/dU
define tmp/U/15 = outer d/dhs.14.u dhs.14.u/dU
define tmp/U/16 = outer d/dhs.15.u dhs.15.u/dU
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
define tmp/W/1 = outer d/dhs.0.a.1 dhs.0.a.1/dW
define tmp/W/2 = outer d/dhs.1.1.a.1 dhs.1.1.a.1/dW
define tmp/W/3 = outer d/dhs.2.1.a.1 dhs.2.1.a.1/dW
define tmp/W/4 = outer d/dhs.3.a.1 dhs.3.a.1/dW
define tmp/W/5 = outer d/dhs.4.a.1 dhs.4.a.1/dW
define tmp/W/6 = outer d/dhs.5.a.1 dhs.5.a.1/dW
define tmp/W/7 = outer d/dhs.6.a.1 dhs.6.a.1/dW
define tmp/W/8 = outer d/dhs.7.a.1 dhs.7.a.1/dW
define tmp/W/9 = outer d/dhs.8.a.1 dhs.8.a.1/dW
define tmp/W/10 = outer d/dhs.9.a.1 dhs.9.a.1/dW
define tmp/W/11 = outer d/dhs.10.a.1 dhs.10.a.1/dW
define tmp/W/12 = outer d/dhs.11.a.1 dhs.11.a.1/dW
define tmp/W/13 = outer d/dhs.12.a.1 dhs.12.a.1/dW
define tmp/W/14 = outer d/dhs.13.a.1 dhs.13.a.1/dW
define tmp/W/15 = outer d/dhs.14.a.1 dhs.14.a.1/dW
define tmp/W/16 = outer d/dhs.15.a.1 dhs.15.a.1/dW
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
define d/dE = take_grad d/dhs.2 hs.1 E

# input chars
declare intvar tmp/chars/1 [17]
declare intvar tmp/chars/2 [17]
declare intvar d/dchars [17]
define tmp/chars/1 = unslice d/dhs.1 chars 0
define tmp/chars/2 = unslice d/dtargets.1 chars 1
define d/dchars = add tmp/chars/1 tmp/chars/2
