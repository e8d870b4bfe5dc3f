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
declare intvar d/dlogp [32]
declare intvar dlogp/dlogp.2 [32]
declare intvar d/dlogp.2.1
declare intvar d/dlogp.2.2 [32]
declare intvar d/dlogp.2 [32]
declare intvar dlogp.1/dh [64, 32]
declare intvar d/dh [64]
declare intvar d/dh.15.8 [64]
declare intvar dh.15.8/dh.15.7 [64]
declare intvar d/dh.15.7 [64]
declare intvar d/dh.15.5 [64]
declare intvar d/dh.15.3 [64]
declare intvar d/dh.15.z.4 [64]
declare intvar d/dh.15.z.5 [64]
declare intvar d/dh.15.z [64]
declare intvar dh.15.z/dh.15.z.3 [64]
declare intvar d/dh.15.z.3 [64]
declare intvar d/dh.15.r [64]
declare intvar dh.15.r/dh.15.r.3 [64]
declare intvar d/dh.15.r.3 [64]
declare intvar d/dh.15.u.1 [192]
declare intvar d/dh.15.u.2 [192]
declare intvar d/dh.15.u.3 [192]
declare intvar d/dh.15.u.4 [192]
declare intvar d/dh.15.u [192]
declare intvar dh.15.u/dh.14 [64, 192]
declare intvar d/dh.15.a.2 [192]
declare intvar d/dh.15.a.3 [192]
declare intvar d/dh.15.a.4 [192]
declare intvar d/dh.15.a.5 [192]
declare intvar d/dh.15.a [192]
declare intvar dh.15.a.1/dh.15.1 [16, 192]
declare intvar d/dh.15.1 [16]
declare intvar d/dh.14.10 [64]
declare intvar d/dh.14.11 [64]
declare intvar d/dh.14 [64]
declare intvar d/dh.14.8 [64]
declare intvar dh.14.8/dh.14.7 [64]
declare intvar d/dh.14.7 [64]
declare intvar d/dh.14.5 [64]
declare intvar d/dh.14.3 [64]
declare intvar d/dh.14.z.4 [64]
declare intvar d/dh.14.z.5 [64]
declare intvar d/dh.14.z [64]
declare intvar dh.14.z/dh.14.z.3 [64]
declare intvar d/dh.14.z.3 [64]
declare intvar d/dh.14.r [64]
declare intvar dh.14.r/dh.14.r.3 [64]
declare intvar d/dh.14.r.3 [64]
declare intvar d/dh.14.u.1 [192]
declare intvar d/dh.14.u.2 [192]
declare intvar d/dh.14.u.3 [192]
declare intvar d/dh.14.u.4 [192]
declare intvar d/dh.14.u [192]
declare intvar d/dh.14.a.2 [192]
declare intvar d/dh.14.a.3 [192]
declare intvar d/dh.14.a.4 [192]
declare intvar d/dh.14.a.5 [192]
declare intvar d/dh.14.a [192]
declare intvar d/dh.14.1 [16]
declare intvar d/dh.13.10 [64]
declare intvar d/dh.13.11 [64]
declare intvar d/dh.13 [64]
declare intvar d/dh.13.8 [64]
declare intvar dh.13.8/dh.13.7 [64]
declare intvar d/dh.13.7 [64]
declare intvar d/dh.13.5 [64]
declare intvar d/dh.13.3 [64]
declare intvar d/dh.13.z.4 [64]
declare intvar d/dh.13.z.5 [64]
declare intvar d/dh.13.z [64]
declare intvar dh.13.z/dh.13.z.3 [64]
declare intvar d/dh.13.z.3 [64]
declare intvar d/dh.13.r [64]
declare intvar dh.13.r/dh.13.r.3 [64]
declare intvar d/dh.13.r.3 [64]
declare intvar d/dh.13.u.1 [192]
declare intvar d/dh.13.u.2 [192]
declare intvar d/dh.13.u.3 [192]
declare intvar d/dh.13.u.4 [192]
declare intvar d/dh.13.u [192]
declare intvar d/dh.13.a.2 [192]
declare intvar d/dh.13.a.3 [192]
declare intvar d/dh.13.a.4 [192]
declare intvar d/dh.13.a.5 [192]
declare intvar d/dh.13.a [192]
declare intvar d/dh.13.1 [16]
declare intvar d/dh.12.10 [64]
declare intvar d/dh.12.11 [64]
declare intvar d/dh.12 [64]
declare intvar d/dh.12.8 [64]
declare intvar dh.12.8/dh.12.7 [64]
declare intvar d/dh.12.7 [64]
declare intvar d/dh.12.5 [64]
declare intvar d/dh.12.3 [64]
declare intvar d/dh.12.z.4 [64]
declare intvar d/dh.12.z.5 [64]
declare intvar d/dh.12.z [64]
declare intvar dh.12.z/dh.12.z.3 [64]
declare intvar d/dh.12.z.3 [64]
declare intvar d/dh.12.r [64]
declare intvar dh.12.r/dh.12.r.3 [64]
declare intvar d/dh.12.r.3 [64]
declare intvar d/dh.12.u.1 [192]
declare intvar d/dh.12.u.2 [192]
declare intvar d/dh.12.u.3 [192]
declare intvar d/dh.12.u.4 [192]
declare intvar d/dh.12.u [192]
declare intvar d/dh.12.a.2 [192]
declare intvar d/dh.12.a.3 [192]
declare intvar d/dh.12.a.4 [192]
declare intvar d/dh.12.a.5 [192]
declare intvar d/dh.12.a [192]
declare intvar d/dh.12.1 [16]
declare intvar d/dh.11.10 [64]
declare intvar d/dh.11.11 [64]
declare intvar d/dh.11 [64]
declare intvar d/dh.11.8 [64]
declare intvar dh.11.8/dh.11.7 [64]
declare intvar d/dh.11.7 [64]
declare intvar d/dh.11.5 [64]
declare intvar d/dh.11.3 [64]
declare intvar d/dh.11.z.4 [64]
declare intvar d/dh.11.z.5 [64]
declare intvar d/dh.11.z [64]
declare intvar dh.11.z/dh.11.z.3 [64]
declare intvar d/dh.11.z.3 [64]
declare intvar d/dh.11.r [64]
declare intvar dh.11.r/dh.11.r.3 [64]
declare intvar d/dh.11.r.3 [64]
declare intvar d/dh.11.u.1 [192]
declare intvar d/dh.11.u.2 [192]
declare intvar d/dh.11.u.3 [192]
declare intvar d/dh.11.u.4 [192]
declare intvar d/dh.11.u [192]
declare intvar d/dh.11.a.2 [192]
declare intvar d/dh.11.a.3 [192]
declare intvar d/dh.11.a.4 [192]
declare intvar d/dh.11.a.5 [192]
declare intvar d/dh.11.a [192]
declare intvar d/dh.11.1 [16]
declare intvar d/dh.10.10 [64]
declare intvar d/dh.10.11 [64]
declare intvar d/dh.10 [64]
declare intvar d/dh.10.8 [64]
declare intvar dh.10.8/dh.10.7 [64]
declare intvar d/dh.10.7 [64]
declare intvar d/dh.10.5 [64]
declare intvar d/dh.10.3 [64]
declare intvar d/dh.10.z.4 [64]
declare intvar d/dh.10.z.5 [64]
declare intvar d/dh.10.z [64]
declare intvar dh.10.z/dh.10.z.3 [64]
declare intvar d/dh.10.z.3 [64]
declare intvar d/dh.10.r [64]
declare intvar dh.10.r/dh.10.r.3 [64]
declare intvar d/dh.10.r.3 [64]
declare intvar d/dh.10.u.1 [192]
declare intvar d/dh.10.u.2 [192]
declare intvar d/dh.10.u.3 [192]
declare intvar d/dh.10.u.4 [192]
declare intvar d/dh.10.u [192]
declare intvar d/dh.10.a.2 [192]
declare intvar d/dh.10.a.3 [192]
declare intvar d/dh.10.a.4 [192]
declare intvar d/dh.10.a.5 [192]
declare intvar d/dh.10.a [192]
declare intvar d/dh.10.1 [16]
declare intvar d/dh.9.10 [64]
declare intvar d/dh.9.11 [64]
declare intvar d/dh.9 [64]
declare intvar d/dh.9.8 [64]
declare intvar dh.9.8/dh.9.7 [64]
declare intvar d/dh.9.7 [64]
declare intvar d/dh.9.5 [64]
declare intvar d/dh.9.3 [64]
declare intvar d/dh.9.z.4 [64]
declare intvar d/dh.9.z.5 [64]
declare intvar d/dh.9.z [64]
declare intvar dh.9.z/dh.9.z.3 [64]
declare intvar d/dh.9.z.3 [64]
declare intvar d/dh.9.r [64]
declare intvar dh.9.r/dh.9.r.3 [64]
declare intvar d/dh.9.r.3 [64]
declare intvar d/dh.9.u.1 [192]
declare intvar d/dh.9.u.2 [192]
declare intvar d/dh.9.u.3 [192]
declare intvar d/dh.9.u.4 [192]
declare intvar d/dh.9.u [192]
declare intvar d/dh.9.a.2 [192]
declare intvar d/dh.9.a.3 [192]
declare intvar d/dh.9.a.4 [192]
declare intvar d/dh.9.a.5 [192]
declare intvar d/dh.9.a [192]
declare intvar d/dh.9.1 [16]
declare intvar d/dh.8.10 [64]
declare intvar d/dh.8.11 [64]
declare intvar d/dh.8 [64]
declare intvar d/dh.8.8 [64]
declare intvar dh.8.8/dh.8.7 [64]
declare intvar d/dh.8.7 [64]
declare intvar d/dh.8.5 [64]
declare intvar d/dh.8.3 [64]
declare intvar d/dh.8.z.4 [64]
declare intvar d/dh.8.z.5 [64]
declare intvar d/dh.8.z [64]
declare intvar dh.8.z/dh.8.z.3 [64]
declare intvar d/dh.8.z.3 [64]
declare intvar d/dh.8.r [64]
declare intvar dh.8.r/dh.8.r.3 [64]
declare intvar d/dh.8.r.3 [64]
declare intvar d/dh.8.u.1 [192]
declare intvar d/dh.8.u.2 [192]
declare intvar d/dh.8.u.3 [192]
declare intvar d/dh.8.u.4 [192]
declare intvar d/dh.8.u [192]
declare intvar d/dh.8.a.2 [192]
declare intvar d/dh.8.a.3 [192]
declare intvar d/dh.8.a.4 [192]
declare intvar d/dh.8.a.5 [192]
declare intvar d/dh.8.a [192]
declare intvar d/dh.8.1 [16]
declare intvar d/dh.7.10 [64]
declare intvar d/dh.7.11 [64]
declare intvar d/dh.7 [64]
declare intvar d/dh.7.8 [64]
declare intvar dh.7.8/dh.7.7 [64]
declare intvar d/dh.7.7 [64]
declare intvar d/dh.7.5 [64]
declare intvar d/dh.7.3 [64]
declare intvar d/dh.7.z.4 [64]
declare intvar d/dh.7.z.5 [64]
declare intvar d/dh.7.z [64]
declare intvar dh.7.z/dh.7.z.3 [64]
declare intvar d/dh.7.z.3 [64]
declare intvar d/dh.7.r [64]
declare intvar dh.7.r/dh.7.r.3 [64]
declare intvar d/dh.7.r.3 [64]
declare intvar d/dh.7.u.1 [192]
declare intvar d/dh.7.u.2 [192]
declare intvar d/dh.7.u.3 [192]
declare intvar d/dh.7.u.4 [192]
declare intvar d/dh.7.u [192]
declare intvar d/dh.7.a.2 [192]
declare intvar d/dh.7.a.3 [192]
declare intvar d/dh.7.a.4 [192]
declare intvar d/dh.7.a.5 [192]
declare intvar d/dh.7.a [192]
declare intvar d/dh.7.1 [16]
declare intvar d/dh.6.10 [64]
declare intvar d/dh.6.11 [64]
declare intvar d/dh.6 [64]
declare intvar d/dh.6.8 [64]
declare intvar dh.6.8/dh.6.7 [64]
declare intvar d/dh.6.7 [64]
declare intvar d/dh.6.5 [64]
declare intvar d/dh.6.3 [64]
declare intvar d/dh.6.z.4 [64]
declare intvar d/dh.6.z.5 [64]
declare intvar d/dh.6.z [64]
declare intvar dh.6.z/dh.6.z.3 [64]
declare intvar d/dh.6.z.3 [64]
declare intvar d/dh.6.r [64]
declare intvar dh.6.r/dh.6.r.3 [64]
declare intvar d/dh.6.r.3 [64]
declare intvar d/dh.6.u.1 [192]
declare intvar d/dh.6.u.2 [192]
declare intvar d/dh.6.u.3 [192]
declare intvar d/dh.6.u.4 [192]
declare intvar d/dh.6.u [192]
declare intvar d/dh.6.a.2 [192]
declare intvar d/dh.6.a.3 [192]
declare intvar d/dh.6.a.4 [192]
declare intvar d/dh.6.a.5 [192]
declare intvar d/dh.6.a [192]
declare intvar d/dh.6.1 [16]
declare intvar d/dh.5.10 [64]
declare intvar d/dh.5.11 [64]
declare intvar d/dh.5 [64]
declare intvar d/dh.5.8 [64]
declare intvar dh.5.8/dh.5.7 [64]
declare intvar d/dh.5.7 [64]
declare intvar d/dh.5.5 [64]
declare intvar d/dh.5.3 [64]
declare intvar d/dh.5.z.4 [64]
declare intvar d/dh.5.z.5 [64]
declare intvar d/dh.5.z [64]
declare intvar dh.5.z/dh.5.z.3 [64]
declare intvar d/dh.5.z.3 [64]
declare intvar d/dh.5.r [64]
declare intvar dh.5.r/dh.5.r.3 [64]
declare intvar d/dh.5.r.3 [64]
declare intvar d/dh.5.u.1 [192]
declare intvar d/dh.5.u.2 [192]
declare intvar d/dh.5.u.3 [192]
declare intvar d/dh.5.u.4 [192]
declare intvar d/dh.5.u [192]
declare intvar d/dh.5.a.2 [192]
declare intvar d/dh.5.a.3 [192]
declare intvar d/dh.5.a.4 [192]
declare intvar d/dh.5.a.5 [192]
declare intvar d/dh.5.a [192]
declare intvar d/dh.5.1 [16]
declare intvar d/dh.4.10 [64]
declare intvar d/dh.4.11 [64]
declare intvar d/dh.4 [64]
declare intvar d/dh.4.8 [64]
declare intvar dh.4.8/dh.4.7 [64]
declare intvar d/dh.4.7 [64]
declare intvar d/dh.4.5 [64]
declare intvar d/dh.4.3 [64]
declare intvar d/dh.4.z.4 [64]
declare intvar d/dh.4.z.5 [64]
declare intvar d/dh.4.z [64]
declare intvar dh.4.z/dh.4.z.3 [64]
declare intvar d/dh.4.z.3 [64]
declare intvar d/dh.4.r [64]
declare intvar dh.4.r/dh.4.r.3 [64]
declare intvar d/dh.4.r.3 [64]
declare intvar d/dh.4.u.1 [192]
declare intvar d/dh.4.u.2 [192]
declare intvar d/dh.4.u.3 [192]
declare intvar d/dh.4.u.4 [192]
declare intvar d/dh.4.u [192]
declare intvar d/dh.4.a.2 [192]
declare intvar d/dh.4.a.3 [192]
declare intvar d/dh.4.a.4 [192]
declare intvar d/dh.4.a.5 [192]
declare intvar d/dh.4.a [192]
declare intvar d/dh.4.1 [16]
declare intvar d/dh.3.10 [64]
declare intvar d/dh.3.11 [64]
declare intvar d/dh.3 [64]
declare intvar d/dh.3.8 [64]
declare intvar dh.3.8/dh.3.7 [64]
declare intvar d/dh.3.7 [64]
declare intvar d/dh.3.5 [64]
declare intvar d/dh.3.3 [64]
declare intvar d/dh.3.z.4 [64]
declare intvar d/dh.3.z.5 [64]
declare intvar d/dh.3.z [64]
declare intvar dh.3.z/dh.3.z.3 [64]
declare intvar d/dh.3.z.3 [64]
declare intvar d/dh.3.r [64]
declare intvar dh.3.r/dh.3.r.3 [64]
declare intvar d/dh.3.r.3 [64]
declare intvar d/dh.3.u.1 [192]
declare intvar d/dh.3.u.2 [192]
declare intvar d/dh.3.u.3 [192]
declare intvar d/dh.3.u.4 [192]
declare intvar d/dh.3.u [192]
declare intvar d/dh.3.a.2 [192]
declare intvar d/dh.3.a.3 [192]
declare intvar d/dh.3.a.4 [192]
declare intvar d/dh.3.a.5 [192]
declare intvar d/dh.3.a [192]
declare intvar d/dh.3.1 [16]
declare intvar d/dh.2.1.10 [64]
declare intvar d/dh.2.1.11 [64]
declare intvar d/dh.2.1 [64]
declare intvar d/dh.2.1.8 [64]
declare intvar dh.2.1.8/dh.2.1.7 [64]
declare intvar d/dh.2.1.7 [64]
declare intvar d/dh.2.1.5 [64]
declare intvar d/dh.2.1.3 [64]
declare intvar d/dh.2.1.z.4 [64]
declare intvar d/dh.2.1.z.5 [64]
declare intvar d/dh.2.1.z [64]
declare intvar dh.2.1.z/dh.2.1.z.3 [64]
declare intvar d/dh.2.1.z.3 [64]
declare intvar d/dh.2.1.r [64]
declare intvar dh.2.1.r/dh.2.1.r.3 [64]
declare intvar d/dh.2.1.r.3 [64]
declare intvar d/dh.2.1.u.1 [192]
declare intvar d/dh.2.1.u.2 [192]
declare intvar d/dh.2.1.u.3 [192]
declare intvar d/dh.2.1.u.4 [192]
declare intvar d/dh.2.1.u [192]
declare intvar d/dh.2.1.a.2 [192]
declare intvar d/dh.2.1.a.3 [192]
declare intvar d/dh.2.1.a.4 [192]
declare intvar d/dh.2.1.a.5 [192]
declare intvar d/dh.2.1.a [192]
declare intvar d/dh.2.1.1 [16]
declare intvar d/dh.1.1.10 [64]
declare intvar d/dh.1.1.11 [64]
declare intvar d/dh.1.1 [64]
declare intvar d/dh.1.1.8 [64]
declare intvar dh.1.1.8/dh.1.1.7 [64]
declare intvar d/dh.1.1.7 [64]
declare intvar d/dh.1.1.5 [64]
declare intvar d/dh.1.1.3 [64]
declare intvar d/dh.1.1.z.4 [64]
declare intvar d/dh.1.1.z.5 [64]
declare intvar d/dh.1.1.z [64]
declare intvar dh.1.1.z/dh.1.1.z.3 [64]
declare intvar d/dh.1.1.z.3 [64]
declare intvar d/dh.1.1.r [64]
declare intvar dh.1.1.r/dh.1.1.r.3 [64]
declare intvar d/dh.1.1.r.3 [64]
declare intvar d/dh.1.1.u.1 [192]
declare intvar d/dh.1.1.u.2 [192]
declare intvar d/dh.1.1.u.3 [192]
declare intvar d/dh.1.1.u.4 [192]
declare intvar d/dh.1.1.u [192]
declare intvar d/dh.1.1.a.2 [192]
declare intvar d/dh.1.1.a.3 [192]
declare intvar d/dh.1.1.a.4 [192]
declare intvar d/dh.1.1.a.5 [192]
declare intvar d/dh.1.1.a [192]
declare intvar d/dh.1.1.1 [16]
declare intvar d/dh.0.10 [64]
declare intvar d/dh.0.11 [64]
declare intvar d/dh.0 [64]
declare intvar d/dh.0.8 [64]
declare intvar dh.0.8/dh.0.7 [64]
declare intvar d/dh.0.7 [64]
declare intvar d/dh.0.5 [64]
declare intvar d/dh.0.3 [64]
declare intvar d/dh.0.z.4 [64]
declare intvar d/dh.0.z.5 [64]
declare intvar d/dh.0.z [64]
declare intvar dh.0.z/dh.0.z.3 [64]
declare intvar d/dh.0.z.3 [64]
declare intvar d/dh.0.r [64]
declare intvar dh.0.r/dh.0.r.3 [64]
declare intvar d/dh.0.r.3 [64]
declare intvar d/dh.0.u.1 [192]
declare intvar d/dh.0.u.2 [192]
declare intvar d/dh.0.u.3 [192]
declare intvar d/dh.0.u.4 [192]
declare intvar d/dh.0.u [192]
declare intvar d/dh.0.a.2 [192]
declare intvar d/dh.0.a.3 [192]
declare intvar d/dh.0.a.4 [192]
declare intvar d/dh.0.a.5 [192]
declare intvar d/dh.0.a [192]
declare intvar d/dh.0.1 [16]
declare intvar d/dh.2.2.1 [1, 16]
declare intvar d/dh.2.2 [16, 16]
declare intvar d/dh.2.3.1 [1, 16]
declare intvar d/dh.2.3 [16, 16]
declare intvar d/dh.2.4.1 [1, 16]
declare intvar d/dh.2.4 [16, 16]
declare intvar d/dh.2.5.1 [1, 16]
declare intvar d/dh.2.5 [16, 16]
declare intvar d/dh.2.6.1 [1, 16]
declare intvar d/dh.2.6 [16, 16]
declare intvar d/dh.2.7.1 [1, 16]
declare intvar d/dh.2.7 [16, 16]
declare intvar d/dh.2.8.1 [1, 16]
declare intvar d/dh.2.8 [16, 16]
declare intvar d/dh.2.9.1 [1, 16]
declare intvar d/dh.2.9 [16, 16]
declare intvar d/dh.2.10.1 [1, 16]
declare intvar d/dh.2.10 [16, 16]
declare intvar d/dh.2.11.1 [1, 16]
declare intvar d/dh.2.11 [16, 16]
declare intvar d/dh.2.12.1 [1, 16]
declare intvar d/dh.2.12 [16, 16]
declare intvar d/dh.2.13.1 [1, 16]
declare intvar d/dh.2.13 [16, 16]
declare intvar d/dh.2.14.1 [1, 16]
declare intvar d/dh.2.14 [16, 16]
declare intvar d/dh.2.15.1 [1, 16]
declare intvar d/dh.2.15 [16, 16]
declare intvar d/dh.2.16.1 [1, 16]
declare intvar d/dh.2.16 [16, 16]
declare intvar d/dh.2.17.1 [1, 16]
declare intvar d/dh.2.17 [16, 16]
declare intvar d/dh.2.18 [16, 16]
declare intvar d/dh.2.19 [16, 16]
declare intvar d/dh.2.20 [16, 16]
declare intvar d/dh.2.21 [16, 16]
declare intvar d/dh.2.22 [16, 16]
declare intvar d/dh.2.23 [16, 16]
declare intvar d/dh.2.24 [16, 16]
declare intvar d/dh.2.25 [16, 16]
declare intvar d/dh.2.26 [16, 16]
declare intvar d/dh.2.27 [16, 16]
declare intvar d/dh.2.28 [16, 16]
declare intvar d/dh.2.29 [16, 16]
declare intvar d/dh.2.30 [16, 16]
declare intvar d/dh.2.31 [16, 16]
declare intvar d/dh.2 [16, 16]
declare output d/dc [32]
declare output d/dV [32, 64]
declare intvar d/dh0.1 [64]
declare intvar d/dh0.2 [64]
declare output d/dh0 [64]
declare intvar d/db.17 [192]
declare intvar d/db.18 [192]
declare intvar d/db.19 [192]
declare intvar d/db.20 [192]
declare intvar d/db.21 [192]
declare intvar d/db.22 [192]
declare intvar d/db.23 [192]
declare intvar d/db.24 [192]
declare intvar d/db.25 [192]
declare intvar d/db.26 [192]
declare intvar d/db.27 [192]
declare intvar d/db.28 [192]
declare intvar d/db.29 [192]
declare intvar d/db.30 [192]
declare output d/db [192]
declare intvar d/dU.1 [192, 64]
declare intvar d/dU.2 [192, 64]
declare intvar d/dU.3 [192, 64]
declare intvar d/dU.4 [192, 64]
declare intvar d/dU.5 [192, 64]
declare intvar d/dU.6 [192, 64]
declare intvar d/dU.7 [192, 64]
declare intvar d/dU.8 [192, 64]
declare intvar d/dU.9 [192, 64]
declare intvar d/dU.10 [192, 64]
declare intvar d/dU.11 [192, 64]
declare intvar d/dU.12 [192, 64]
declare intvar d/dU.13 [192, 64]
declare intvar d/dU.14 [192, 64]
declare intvar d/dU.15 [192, 64]
declare intvar d/dU.16 [192, 64]
declare intvar d/dU.17 [192, 64]
declare intvar d/dU.18 [192, 64]
declare intvar d/dU.19 [192, 64]
declare intvar d/dU.20 [192, 64]
declare intvar d/dU.21 [192, 64]
declare intvar d/dU.22 [192, 64]
declare intvar d/dU.23 [192, 64]
declare intvar d/dU.24 [192, 64]
declare intvar d/dU.25 [192, 64]
declare intvar d/dU.26 [192, 64]
declare intvar d/dU.27 [192, 64]
declare intvar d/dU.28 [192, 64]
declare intvar d/dU.29 [192, 64]
declare intvar d/dU.30 [192, 64]
declare output d/dU [192, 64]
declare intvar d/dW.1 [192, 16]
declare intvar d/dW.2 [192, 16]
declare intvar d/dW.3 [192, 16]
declare intvar d/dW.4 [192, 16]
declare intvar d/dW.5 [192, 16]
declare intvar d/dW.6 [192, 16]
declare intvar d/dW.7 [192, 16]
declare intvar d/dW.8 [192, 16]
declare intvar d/dW.9 [192, 16]
declare intvar d/dW.10 [192, 16]
declare intvar d/dW.11 [192, 16]
declare intvar d/dW.12 [192, 16]
declare intvar d/dW.13 [192, 16]
declare intvar d/dW.14 [192, 16]
declare intvar d/dW.15 [192, 16]
declare intvar d/dW.16 [192, 16]
declare intvar d/dW.17 [192, 16]
declare intvar d/dW.18 [192, 16]
declare intvar d/dW.19 [192, 16]
declare intvar d/dW.20 [192, 16]
declare intvar d/dW.21 [192, 16]
declare intvar d/dW.22 [192, 16]
declare intvar d/dW.23 [192, 16]
declare intvar d/dW.24 [192, 16]
declare intvar d/dW.25 [192, 16]
declare intvar d/dW.26 [192, 16]
declare intvar d/dW.27 [192, 16]
declare intvar d/dW.28 [192, 16]
declare intvar d/dW.29 [192, 16]
declare intvar d/dW.30 [192, 16]
declare output d/dW [192, 16]
declare output d/dE [32, 16]

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

# backward: adjoints d/dv and local partials dv/dm
# logp = log_softmax logp.2
define d/dlogp = neg xent.2
define dlogp/dlogp.2 = softmax logp.2

# logp.2 = add logp.1 c
define d/dlogp.2.1 = sum d/dlogp
define d/dlogp.2.2 = mul dlogp/dlogp.2 d/dlogp.2.1
define d/dlogp.2 = sub d/dlogp d/dlogp.2.2

# logp.1 = matmul V h
define dlogp.1/dh = transpose V

# h = h.15
define d/dh = matmul dlogp.1/dh d/dlogp.2

# h.15.8 = tanh h.15.7
define d/dh.15.8 = mul d/dh h.15.3
define dh.15.8/dh.15.7 = tanh_deriv h.15.7

# h.15.7 = add h.15.4 h.15.6
define d/dh.15.7 = mul d/dh.15.8 dh.15.8/dh.15.7

# h.15.5 = slice h.15.u 128 192
define d/dh.15.5 = mul d/dh.15.7 h.15.r

# h.15.3 = sub 1 h.15.z
define d/dh.15.3 = mul d/dh h.15.8

# h.15.z = logistic h.15.z.3
define d/dh.15.z.4 = mul d/dh h.14
define d/dh.15.z.5 = neg d/dh.15.3
define d/dh.15.z = add d/dh.15.z.4 d/dh.15.z.5
define dh.15.z/dh.15.z.3 = logistic_deriv h.15.z.3

# h.15.z.3 = add h.15.z.1 h.15.z.2
define d/dh.15.z.3 = mul d/dh.15.z dh.15.z/dh.15.z.3

# h.15.r = logistic h.15.r.3
define d/dh.15.r = mul d/dh.15.7 h.15.5
define dh.15.r/dh.15.r.3 = logistic_deriv h.15.r.3

# h.15.r.3 = add h.15.r.1 h.15.r.2
define d/dh.15.r.3 = mul d/dh.15.r dh.15.r/dh.15.r.3

# h.15.u = matmul U h.14
define d/dh.15.u.1 = unslice d/dh.15.r.3 h.15.u 0
define d/dh.15.u.2 = unslice d/dh.15.z.3 h.15.u 64
define d/dh.15.u.3 = unslice d/dh.15.5 h.15.u 128
define d/dh.15.u.4 = add d/dh.15.u.1 d/dh.15.u.2
define d/dh.15.u = add d/dh.15.u.4 d/dh.15.u.3
define dh.15.u/dh.14 = transpose U

# h.15.a = add h.15.a.1 b
define d/dh.15.a.2 = unslice d/dh.15.r.3 h.15.a 0
define d/dh.15.a.3 = unslice d/dh.15.z.3 h.15.a 64
define d/dh.15.a.4 = unslice d/dh.15.7 h.15.a 128
define d/dh.15.a.5 = add d/dh.15.a.2 d/dh.15.a.3
define d/dh.15.a = add d/dh.15.a.5 d/dh.15.a.4

# h.15.a.1 = matmul W h.15.1
define dh.15.a.1/dh.15.1 = transpose W

# h.15.1 = index h.2 15
define d/dh.15.1 = matmul dh.15.a.1/dh.15.1 d/dh.15.a

# h.14 = add h.14.2 h.14.9
define d/dh.14.10 = matmul dh.15.u/dh.14 d/dh.15.u
define d/dh.14.11 = mul d/dh h.15.z
define d/dh.14 = add d/dh.14.10 d/dh.14.11

# h.14.8 = tanh h.14.7
define d/dh.14.8 = mul d/dh.14 h.14.3
define dh.14.8/dh.14.7 = tanh_deriv h.14.7

# h.14.7 = add h.14.4 h.14.6
define d/dh.14.7 = mul d/dh.14.8 dh.14.8/dh.14.7

# h.14.5 = slice h.14.u 128 192
define d/dh.14.5 = mul d/dh.14.7 h.14.r

# h.14.3 = sub 1 h.14.z
define d/dh.14.3 = mul d/dh.14 h.14.8

# h.14.z = logistic h.14.z.3
define d/dh.14.z.4 = mul d/dh.14 h.13
define d/dh.14.z.5 = neg d/dh.14.3
define d/dh.14.z = add d/dh.14.z.4 d/dh.14.z.5
define dh.14.z/dh.14.z.3 = logistic_deriv h.14.z.3

# h.14.z.3 = add h.14.z.1 h.14.z.2
define d/dh.14.z.3 = mul d/dh.14.z dh.14.z/dh.14.z.3

# h.14.r = logistic h.14.r.3
define d/dh.14.r = mul d/dh.14.7 h.14.5
define dh.14.r/dh.14.r.3 = logistic_deriv h.14.r.3

# h.14.r.3 = add h.14.r.1 h.14.r.2
define d/dh.14.r.3 = mul d/dh.14.r dh.14.r/dh.14.r.3

# h.14.u = matmul U h.13
define d/dh.14.u.1 = unslice d/dh.14.r.3 h.14.u 0
define d/dh.14.u.2 = unslice d/dh.14.z.3 h.14.u 64
define d/dh.14.u.3 = unslice d/dh.14.5 h.14.u 128
define d/dh.14.u.4 = add d/dh.14.u.1 d/dh.14.u.2
define d/dh.14.u = add d/dh.14.u.4 d/dh.14.u.3

# h.14.a = add h.14.a.1 b
define d/dh.14.a.2 = unslice d/dh.14.r.3 h.14.a 0
define d/dh.14.a.3 = unslice d/dh.14.z.3 h.14.a 64
define d/dh.14.a.4 = unslice d/dh.14.7 h.14.a 128
define d/dh.14.a.5 = add d/dh.14.a.2 d/dh.14.a.3
define d/dh.14.a = add d/dh.14.a.5 d/dh.14.a.4

# h.14.1 = index h.2 14
define d/dh.14.1 = matmul dh.15.a.1/dh.15.1 d/dh.14.a

# h.13 = add h.13.2 h.13.9
define d/dh.13.10 = matmul dh.15.u/dh.14 d/dh.14.u
define d/dh.13.11 = mul d/dh.14 h.14.z
define d/dh.13 = add d/dh.13.10 d/dh.13.11

# h.13.8 = tanh h.13.7
define d/dh.13.8 = mul d/dh.13 h.13.3
define dh.13.8/dh.13.7 = tanh_deriv h.13.7

# h.13.7 = add h.13.4 h.13.6
define d/dh.13.7 = mul d/dh.13.8 dh.13.8/dh.13.7

# h.13.5 = slice h.13.u 128 192
define d/dh.13.5 = mul d/dh.13.7 h.13.r

# h.13.3 = sub 1 h.13.z
define d/dh.13.3 = mul d/dh.13 h.13.8

# h.13.z = logistic h.13.z.3
define d/dh.13.z.4 = mul d/dh.13 h.12
define d/dh.13.z.5 = neg d/dh.13.3
define d/dh.13.z = add d/dh.13.z.4 d/dh.13.z.5
define dh.13.z/dh.13.z.3 = logistic_deriv h.13.z.3

# h.13.z.3 = add h.13.z.1 h.13.z.2
define d/dh.13.z.3 = mul d/dh.13.z dh.13.z/dh.13.z.3

# h.13.r = logistic h.13.r.3
define d/dh.13.r = mul d/dh.13.7 h.13.5
define dh.13.r/dh.13.r.3 = logistic_deriv h.13.r.3

# h.13.r.3 = add h.13.r.1 h.13.r.2
define d/dh.13.r.3 = mul d/dh.13.r dh.13.r/dh.13.r.3

# h.13.u = matmul U h.12
define d/dh.13.u.1 = unslice d/dh.13.r.3 h.13.u 0
define d/dh.13.u.2 = unslice d/dh.13.z.3 h.13.u 64
define d/dh.13.u.3 = unslice d/dh.13.5 h.13.u 128
define d/dh.13.u.4 = add d/dh.13.u.1 d/dh.13.u.2
define d/dh.13.u = add d/dh.13.u.4 d/dh.13.u.3

# h.13.a = add h.13.a.1 b
define d/dh.13.a.2 = unslice d/dh.13.r.3 h.13.a 0
define d/dh.13.a.3 = unslice d/dh.13.z.3 h.13.a 64
define d/dh.13.a.4 = unslice d/dh.13.7 h.13.a 128
define d/dh.13.a.5 = add d/dh.13.a.2 d/dh.13.a.3
define d/dh.13.a = add d/dh.13.a.5 d/dh.13.a.4

# h.13.1 = index h.2 13
define d/dh.13.1 = matmul dh.15.a.1/dh.15.1 d/dh.13.a

# h.12 = add h.12.2 h.12.9
define d/dh.12.10 = matmul dh.15.u/dh.14 d/dh.13.u
define d/dh.12.11 = mul d/dh.13 h.13.z
define d/dh.12 = add d/dh.12.10 d/dh.12.11

# h.12.8 = tanh h.12.7
define d/dh.12.8 = mul d/dh.12 h.12.3
define dh.12.8/dh.12.7 = tanh_deriv h.12.7

# h.12.7 = add h.12.4 h.12.6
define d/dh.12.7 = mul d/dh.12.8 dh.12.8/dh.12.7

# h.12.5 = slice h.12.u 128 192
define d/dh.12.5 = mul d/dh.12.7 h.12.r

# h.12.3 = sub 1 h.12.z
define d/dh.12.3 = mul d/dh.12 h.12.8

# h.12.z = logistic h.12.z.3
define d/dh.12.z.4 = mul d/dh.12 h.11
define d/dh.12.z.5 = neg d/dh.12.3
define d/dh.12.z = add d/dh.12.z.4 d/dh.12.z.5
define dh.12.z/dh.12.z.3 = logistic_deriv h.12.z.3

# h.12.z.3 = add h.12.z.1 h.12.z.2
define d/dh.12.z.3 = mul d/dh.12.z dh.12.z/dh.12.z.3

# h.12.r = logistic h.12.r.3
define d/dh.12.r = mul d/dh.12.7 h.12.5
define dh.12.r/dh.12.r.3 = logistic_deriv h.12.r.3

# h.12.r.3 = add h.12.r.1 h.12.r.2
define d/dh.12.r.3 = mul d/dh.12.r dh.12.r/dh.12.r.3

# h.12.u = matmul U h.11
define d/dh.12.u.1 = unslice d/dh.12.r.3 h.12.u 0
define d/dh.12.u.2 = unslice d/dh.12.z.3 h.12.u 64
define d/dh.12.u.3 = unslice d/dh.12.5 h.12.u 128
define d/dh.12.u.4 = add d/dh.12.u.1 d/dh.12.u.2
define d/dh.12.u = add d/dh.12.u.4 d/dh.12.u.3

# h.12.a = add h.12.a.1 b
define d/dh.12.a.2 = unslice d/dh.12.r.3 h.12.a 0
define d/dh.12.a.3 = unslice d/dh.12.z.3 h.12.a 64
define d/dh.12.a.4 = unslice d/dh.12.7 h.12.a 128
define d/dh.12.a.5 = add d/dh.12.a.2 d/dh.12.a.3
define d/dh.12.a = add d/dh.12.a.5 d/dh.12.a.4

# h.12.1 = index h.2 12
define d/dh.12.1 = matmul dh.15.a.1/dh.15.1 d/dh.12.a

# h.11 = add h.11.2 h.11.9
define d/dh.11.10 = matmul dh.15.u/dh.14 d/dh.12.u
define d/dh.11.11 = mul d/dh.12 h.12.z
define d/dh.11 = add d/dh.11.10 d/dh.11.11

# h.11.8 = tanh h.11.7
define d/dh.11.8 = mul d/dh.11 h.11.3
define dh.11.8/dh.11.7 = tanh_deriv h.11.7

# h.11.7 = add h.11.4 h.11.6
define d/dh.11.7 = mul d/dh.11.8 dh.11.8/dh.11.7

# h.11.5 = slice h.11.u 128 192
define d/dh.11.5 = mul d/dh.11.7 h.11.r

# h.11.3 = sub 1 h.11.z
define d/dh.11.3 = mul d/dh.11 h.11.8

# h.11.z = logistic h.11.z.3
define d/dh.11.z.4 = mul d/dh.11 h.10
define d/dh.11.z.5 = neg d/dh.11.3
define d/dh.11.z = add d/dh.11.z.4 d/dh.11.z.5
define dh.11.z/dh.11.z.3 = logistic_deriv h.11.z.3

# h.11.z.3 = add h.11.z.1 h.11.z.2
define d/dh.11.z.3 = mul d/dh.11.z dh.11.z/dh.11.z.3

# h.11.r = logistic h.11.r.3
define d/dh.11.r = mul d/dh.11.7 h.11.5
define dh.11.r/dh.11.r.3 = logistic_deriv h.11.r.3

# h.11.r.3 = add h.11.r.1 h.11.r.2
define d/dh.11.r.3 = mul d/dh.11.r dh.11.r/dh.11.r.3

# h.11.u = matmul U h.10
define d/dh.11.u.1 = unslice d/dh.11.r.3 h.11.u 0
define d/dh.11.u.2 = unslice d/dh.11.z.3 h.11.u 64
define d/dh.11.u.3 = unslice d/dh.11.5 h.11.u 128
define d/dh.11.u.4 = add d/dh.11.u.1 d/dh.11.u.2
define d/dh.11.u = add d/dh.11.u.4 d/dh.11.u.3

# h.11.a = add h.11.a.1 b
define d/dh.11.a.2 = unslice d/dh.11.r.3 h.11.a 0
define d/dh.11.a.3 = unslice d/dh.11.z.3 h.11.a 64
define d/dh.11.a.4 = unslice d/dh.11.7 h.11.a 128
define d/dh.11.a.5 = add d/dh.11.a.2 d/dh.11.a.3
define d/dh.11.a = add d/dh.11.a.5 d/dh.11.a.4

# h.11.1 = index h.2 11
define d/dh.11.1 = matmul dh.15.a.1/dh.15.1 d/dh.11.a

# h.10 = add h.10.2 h.10.9
define d/dh.10.10 = matmul dh.15.u/dh.14 d/dh.11.u
define d/dh.10.11 = mul d/dh.11 h.11.z
define d/dh.10 = add d/dh.10.10 d/dh.10.11

# h.10.8 = tanh h.10.7
define d/dh.10.8 = mul d/dh.10 h.10.3
define dh.10.8/dh.10.7 = tanh_deriv h.10.7

# h.10.7 = add h.10.4 h.10.6
define d/dh.10.7 = mul d/dh.10.8 dh.10.8/dh.10.7

# h.10.5 = slice h.10.u 128 192
define d/dh.10.5 = mul d/dh.10.7 h.10.r

# h.10.3 = sub 1 h.10.z
define d/dh.10.3 = mul d/dh.10 h.10.8

# h.10.z = logistic h.10.z.3
define d/dh.10.z.4 = mul d/dh.10 h.9
define d/dh.10.z.5 = neg d/dh.10.3
define d/dh.10.z = add d/dh.10.z.4 d/dh.10.z.5
define dh.10.z/dh.10.z.3 = logistic_deriv h.10.z.3

# h.10.z.3 = add h.10.z.1 h.10.z.2
define d/dh.10.z.3 = mul d/dh.10.z dh.10.z/dh.10.z.3

# h.10.r = logistic h.10.r.3
define d/dh.10.r = mul d/dh.10.7 h.10.5
define dh.10.r/dh.10.r.3 = logistic_deriv h.10.r.3

# h.10.r.3 = add h.10.r.1 h.10.r.2
define d/dh.10.r.3 = mul d/dh.10.r dh.10.r/dh.10.r.3

# h.10.u = matmul U h.9
define d/dh.10.u.1 = unslice d/dh.10.r.3 h.10.u 0
define d/dh.10.u.2 = unslice d/dh.10.z.3 h.10.u 64
define d/dh.10.u.3 = unslice d/dh.10.5 h.10.u 128
define d/dh.10.u.4 = add d/dh.10.u.1 d/dh.10.u.2
define d/dh.10.u = add d/dh.10.u.4 d/dh.10.u.3

# h.10.a = add h.10.a.1 b
define d/dh.10.a.2 = unslice d/dh.10.r.3 h.10.a 0
define d/dh.10.a.3 = unslice d/dh.10.z.3 h.10.a 64
define d/dh.10.a.4 = unslice d/dh.10.7 h.10.a 128
define d/dh.10.a.5 = add d/dh.10.a.2 d/dh.10.a.3
define d/dh.10.a = add d/dh.10.a.5 d/dh.10.a.4

# h.10.1 = index h.2 10
define d/dh.10.1 = matmul dh.15.a.1/dh.15.1 d/dh.10.a

# h.9 = add h.9.2 h.9.9
define d/dh.9.10 = matmul dh.15.u/dh.14 d/dh.10.u
define d/dh.9.11 = mul d/dh.10 h.10.z
define d/dh.9 = add d/dh.9.10 d/dh.9.11

# h.9.8 = tanh h.9.7
define d/dh.9.8 = mul d/dh.9 h.9.3
define dh.9.8/dh.9.7 = tanh_deriv h.9.7

# h.9.7 = add h.9.4 h.9.6
define d/dh.9.7 = mul d/dh.9.8 dh.9.8/dh.9.7

# h.9.5 = slice h.9.u 128 192
define d/dh.9.5 = mul d/dh.9.7 h.9.r

# h.9.3 = sub 1 h.9.z
define d/dh.9.3 = mul d/dh.9 h.9.8

# h.9.z = logistic h.9.z.3
define d/dh.9.z.4 = mul d/dh.9 h.8
define d/dh.9.z.5 = neg d/dh.9.3
define d/dh.9.z = add d/dh.9.z.4 d/dh.9.z.5
define dh.9.z/dh.9.z.3 = logistic_deriv h.9.z.3

# h.9.z.3 = add h.9.z.1 h.9.z.2
define d/dh.9.z.3 = mul d/dh.9.z dh.9.z/dh.9.z.3

# h.9.r = logistic h.9.r.3
define d/dh.9.r = mul d/dh.9.7 h.9.5
define dh.9.r/dh.9.r.3 = logistic_deriv h.9.r.3

# h.9.r.3 = add h.9.r.1 h.9.r.2
define d/dh.9.r.3 = mul d/dh.9.r dh.9.r/dh.9.r.3

# h.9.u = matmul U h.8
define d/dh.9.u.1 = unslice d/dh.9.r.3 h.9.u 0
define d/dh.9.u.2 = unslice d/dh.9.z.3 h.9.u 64
define d/dh.9.u.3 = unslice d/dh.9.5 h.9.u 128
define d/dh.9.u.4 = add d/dh.9.u.1 d/dh.9.u.2
define d/dh.9.u = add d/dh.9.u.4 d/dh.9.u.3

# h.9.a = add h.9.a.1 b
define d/dh.9.a.2 = unslice d/dh.9.r.3 h.9.a 0
define d/dh.9.a.3 = unslice d/dh.9.z.3 h.9.a 64
define d/dh.9.a.4 = unslice d/dh.9.7 h.9.a 128
define d/dh.9.a.5 = add d/dh.9.a.2 d/dh.9.a.3
define d/dh.9.a = add d/dh.9.a.5 d/dh.9.a.4

# h.9.1 = index h.2 9
define d/dh.9.1 = matmul dh.15.a.1/dh.15.1 d/dh.9.a

# h.8 = add h.8.2 h.8.9
define d/dh.8.10 = matmul dh.15.u/dh.14 d/dh.9.u
define d/dh.8.11 = mul d/dh.9 h.9.z
define d/dh.8 = add d/dh.8.10 d/dh.8.11

# h.8.8 = tanh h.8.7
define d/dh.8.8 = mul d/dh.8 h.8.3
define dh.8.8/dh.8.7 = tanh_deriv h.8.7

# h.8.7 = add h.8.4 h.8.6
define d/dh.8.7 = mul d/dh.8.8 dh.8.8/dh.8.7

# h.8.5 = slice h.8.u 128 192
define d/dh.8.5 = mul d/dh.8.7 h.8.r

# h.8.3 = sub 1 h.8.z
define d/dh.8.3 = mul d/dh.8 h.8.8

# h.8.z = logistic h.8.z.3
define d/dh.8.z.4 = mul d/dh.8 h.7
define d/dh.8.z.5 = neg d/dh.8.3
define d/dh.8.z = add d/dh.8.z.4 d/dh.8.z.5
define dh.8.z/dh.8.z.3 = logistic_deriv h.8.z.3

# h.8.z.3 = add h.8.z.1 h.8.z.2
define d/dh.8.z.3 = mul d/dh.8.z dh.8.z/dh.8.z.3

# h.8.r = logistic h.8.r.3
define d/dh.8.r = mul d/dh.8.7 h.8.5
define dh.8.r/dh.8.r.3 = logistic_deriv h.8.r.3

# h.8.r.3 = add h.8.r.1 h.8.r.2
define d/dh.8.r.3 = mul d/dh.8.r dh.8.r/dh.8.r.3

# h.8.u = matmul U h.7
define d/dh.8.u.1 = unslice d/dh.8.r.3 h.8.u 0
define d/dh.8.u.2 = unslice d/dh.8.z.3 h.8.u 64
define d/dh.8.u.3 = unslice d/dh.8.5 h.8.u 128
define d/dh.8.u.4 = add d/dh.8.u.1 d/dh.8.u.2
define d/dh.8.u = add d/dh.8.u.4 d/dh.8.u.3

# h.8.a = add h.8.a.1 b
define d/dh.8.a.2 = unslice d/dh.8.r.3 h.8.a 0
define d/dh.8.a.3 = unslice d/dh.8.z.3 h.8.a 64
define d/dh.8.a.4 = unslice d/dh.8.7 h.8.a 128
define d/dh.8.a.5 = add d/dh.8.a.2 d/dh.8.a.3
define d/dh.8.a = add d/dh.8.a.5 d/dh.8.a.4

# h.8.1 = index h.2 8
define d/dh.8.1 = matmul dh.15.a.1/dh.15.1 d/dh.8.a

# h.7 = add h.7.2 h.7.9
define d/dh.7.10 = matmul dh.15.u/dh.14 d/dh.8.u
define d/dh.7.11 = mul d/dh.8 h.8.z
define d/dh.7 = add d/dh.7.10 d/dh.7.11

# h.7.8 = tanh h.7.7
define d/dh.7.8 = mul d/dh.7 h.7.3
define dh.7.8/dh.7.7 = tanh_deriv h.7.7

# h.7.7 = add h.7.4 h.7.6
define d/dh.7.7 = mul d/dh.7.8 dh.7.8/dh.7.7

# h.7.5 = slice h.7.u 128 192
define d/dh.7.5 = mul d/dh.7.7 h.7.r

# h.7.3 = sub 1 h.7.z
define d/dh.7.3 = mul d/dh.7 h.7.8

# h.7.z = logistic h.7.z.3
define d/dh.7.z.4 = mul d/dh.7 h.6
define d/dh.7.z.5 = neg d/dh.7.3
define d/dh.7.z = add d/dh.7.z.4 d/dh.7.z.5
define dh.7.z/dh.7.z.3 = logistic_deriv h.7.z.3

# h.7.z.3 = add h.7.z.1 h.7.z.2
define d/dh.7.z.3 = mul d/dh.7.z dh.7.z/dh.7.z.3

# h.7.r = logistic h.7.r.3
define d/dh.7.r = mul d/dh.7.7 h.7.5
define dh.7.r/dh.7.r.3 = logistic_deriv h.7.r.3

# h.7.r.3 = add h.7.r.1 h.7.r.2
define d/dh.7.r.3 = mul d/dh.7.r dh.7.r/dh.7.r.3

# h.7.u = matmul U h.6
define d/dh.7.u.1 = unslice d/dh.7.r.3 h.7.u 0
define d/dh.7.u.2 = unslice d/dh.7.z.3 h.7.u 64
define d/dh.7.u.3 = unslice d/dh.7.5 h.7.u 128
define d/dh.7.u.4 = add d/dh.7.u.1 d/dh.7.u.2
define d/dh.7.u = add d/dh.7.u.4 d/dh.7.u.3

# h.7.a = add h.7.a.1 b
define d/dh.7.a.2 = unslice d/dh.7.r.3 h.7.a 0
define d/dh.7.a.3 = unslice d/dh.7.z.3 h.7.a 64
define d/dh.7.a.4 = unslice d/dh.7.7 h.7.a 128
define d/dh.7.a.5 = add d/dh.7.a.2 d/dh.7.a.3
define d/dh.7.a = add d/dh.7.a.5 d/dh.7.a.4

# h.7.1 = index h.2 7
define d/dh.7.1 = matmul dh.15.a.1/dh.15.1 d/dh.7.a

# h.6 = add h.6.2 h.6.9
define d/dh.6.10 = matmul dh.15.u/dh.14 d/dh.7.u
define d/dh.6.11 = mul d/dh.7 h.7.z
define d/dh.6 = add d/dh.6.10 d/dh.6.11

# h.6.8 = tanh h.6.7
define d/dh.6.8 = mul d/dh.6 h.6.3
define dh.6.8/dh.6.7 = tanh_deriv h.6.7

# h.6.7 = add h.6.4 h.6.6
define d/dh.6.7 = mul d/dh.6.8 dh.6.8/dh.6.7

# h.6.5 = slice h.6.u 128 192
define d/dh.6.5 = mul d/dh.6.7 h.6.r

# h.6.3 = sub 1 h.6.z
define d/dh.6.3 = mul d/dh.6 h.6.8

# h.6.z = logistic h.6.z.3
define d/dh.6.z.4 = mul d/dh.6 h.5
define d/dh.6.z.5 = neg d/dh.6.3
define d/dh.6.z = add d/dh.6.z.4 d/dh.6.z.5
define dh.6.z/dh.6.z.3 = logistic_deriv h.6.z.3

# h.6.z.3 = add h.6.z.1 h.6.z.2
define d/dh.6.z.3 = mul d/dh.6.z dh.6.z/dh.6.z.3

# h.6.r = logistic h.6.r.3
define d/dh.6.r = mul d/dh.6.7 h.6.5
define dh.6.r/dh.6.r.3 = logistic_deriv h.6.r.3

# h.6.r.3 = add h.6.r.1 h.6.r.2
define d/dh.6.r.3 = mul d/dh.6.r dh.6.r/dh.6.r.3

# h.6.u = matmul U h.5
define d/dh.6.u.1 = unslice d/dh.6.r.3 h.6.u 0
define d/dh.6.u.2 = unslice d/dh.6.z.3 h.6.u 64
define d/dh.6.u.3 = unslice d/dh.6.5 h.6.u 128
define d/dh.6.u.4 = add d/dh.6.u.1 d/dh.6.u.2
define d/dh.6.u = add d/dh.6.u.4 d/dh.6.u.3

# h.6.a = add h.6.a.1 b
define d/dh.6.a.2 = unslice d/dh.6.r.3 h.6.a 0
define d/dh.6.a.3 = unslice d/dh.6.z.3 h.6.a 64
define d/dh.6.a.4 = unslice d/dh.6.7 h.6.a 128
define d/dh.6.a.5 = add d/dh.6.a.2 d/dh.6.a.3
define d/dh.6.a = add d/dh.6.a.5 d/dh.6.a.4

# h.6.1 = index h.2 6
define d/dh.6.1 = matmul dh.15.a.1/dh.15.1 d/dh.6.a

# h.5 = add h.5.2 h.5.9
define d/dh.5.10 = matmul dh.15.u/dh.14 d/dh.6.u
define d/dh.5.11 = mul d/dh.6 h.6.z
define d/dh.5 = add d/dh.5.10 d/dh.5.11

# h.5.8 = tanh h.5.7
define d/dh.5.8 = mul d/dh.5 h.5.3
define dh.5.8/dh.5.7 = tanh_deriv h.5.7

# h.5.7 = add h.5.4 h.5.6
define d/dh.5.7 = mul d/dh.5.8 dh.5.8/dh.5.7

# h.5.5 = slice h.5.u 128 192
define d/dh.5.5 = mul d/dh.5.7 h.5.r

# h.5.3 = sub 1 h.5.z
define d/dh.5.3 = mul d/dh.5 h.5.8

# h.5.z = logistic h.5.z.3
define d/dh.5.z.4 = mul d/dh.5 h.4
define d/dh.5.z.5 = neg d/dh.5.3
define d/dh.5.z = add d/dh.5.z.4 d/dh.5.z.5
define dh.5.z/dh.5.z.3 = logistic_deriv h.5.z.3

# h.5.z.3 = add h.5.z.1 h.5.z.2
define d/dh.5.z.3 = mul d/dh.5.z dh.5.z/dh.5.z.3

# h.5.r = logistic h.5.r.3
define d/dh.5.r = mul d/dh.5.7 h.5.5
define dh.5.r/dh.5.r.3 = logistic_deriv h.5.r.3

# h.5.r.3 = add h.5.r.1 h.5.r.2
define d/dh.5.r.3 = mul d/dh.5.r dh.5.r/dh.5.r.3

# h.5.u = matmul U h.4
define d/dh.5.u.1 = unslice d/dh.5.r.3 h.5.u 0
define d/dh.5.u.2 = unslice d/dh.5.z.3 h.5.u 64
define d/dh.5.u.3 = unslice d/dh.5.5 h.5.u 128
define d/dh.5.u.4 = add d/dh.5.u.1 d/dh.5.u.2
define d/dh.5.u = add d/dh.5.u.4 d/dh.5.u.3

# h.5.a = add h.5.a.1 b
define d/dh.5.a.2 = unslice d/dh.5.r.3 h.5.a 0
define d/dh.5.a.3 = unslice d/dh.5.z.3 h.5.a 64
define d/dh.5.a.4 = unslice d/dh.5.7 h.5.a 128
define d/dh.5.a.5 = add d/dh.5.a.2 d/dh.5.a.3
define d/dh.5.a = add d/dh.5.a.5 d/dh.5.a.4

# h.5.1 = index h.2 5
define d/dh.5.1 = matmul dh.15.a.1/dh.15.1 d/dh.5.a

# h.4 = add h.4.2 h.4.9
define d/dh.4.10 = matmul dh.15.u/dh.14 d/dh.5.u
define d/dh.4.11 = mul d/dh.5 h.5.z
define d/dh.4 = add d/dh.4.10 d/dh.4.11

# h.4.8 = tanh h.4.7
define d/dh.4.8 = mul d/dh.4 h.4.3
define dh.4.8/dh.4.7 = tanh_deriv h.4.7

# h.4.7 = add h.4.4 h.4.6
define d/dh.4.7 = mul d/dh.4.8 dh.4.8/dh.4.7

# h.4.5 = slice h.4.u 128 192
define d/dh.4.5 = mul d/dh.4.7 h.4.r

# h.4.3 = sub 1 h.4.z
define d/dh.4.3 = mul d/dh.4 h.4.8

# h.4.z = logistic h.4.z.3
define d/dh.4.z.4 = mul d/dh.4 h.3
define d/dh.4.z.5 = neg d/dh.4.3
define d/dh.4.z = add d/dh.4.z.4 d/dh.4.z.5
define dh.4.z/dh.4.z.3 = logistic_deriv h.4.z.3

# h.4.z.3 = add h.4.z.1 h.4.z.2
define d/dh.4.z.3 = mul d/dh.4.z dh.4.z/dh.4.z.3

# h.4.r = logistic h.4.r.3
define d/dh.4.r = mul d/dh.4.7 h.4.5
define dh.4.r/dh.4.r.3 = logistic_deriv h.4.r.3

# h.4.r.3 = add h.4.r.1 h.4.r.2
define d/dh.4.r.3 = mul d/dh.4.r dh.4.r/dh.4.r.3

# h.4.u = matmul U h.3
define d/dh.4.u.1 = unslice d/dh.4.r.3 h.4.u 0
define d/dh.4.u.2 = unslice d/dh.4.z.3 h.4.u 64
define d/dh.4.u.3 = unslice d/dh.4.5 h.4.u 128
define d/dh.4.u.4 = add d/dh.4.u.1 d/dh.4.u.2
define d/dh.4.u = add d/dh.4.u.4 d/dh.4.u.3

# h.4.a = add h.4.a.1 b
define d/dh.4.a.2 = unslice d/dh.4.r.3 h.4.a 0
define d/dh.4.a.3 = unslice d/dh.4.z.3 h.4.a 64
define d/dh.4.a.4 = unslice d/dh.4.7 h.4.a 128
define d/dh.4.a.5 = add d/dh.4.a.2 d/dh.4.a.3
define d/dh.4.a = add d/dh.4.a.5 d/dh.4.a.4

# h.4.1 = index h.2 4
define d/dh.4.1 = matmul dh.15.a.1/dh.15.1 d/dh.4.a

# h.3 = add h.3.2 h.3.9
define d/dh.3.10 = matmul dh.15.u/dh.14 d/dh.4.u
define d/dh.3.11 = mul d/dh.4 h.4.z
define d/dh.3 = add d/dh.3.10 d/dh.3.11

# h.3.8 = tanh h.3.7
define d/dh.3.8 = mul d/dh.3 h.3.3
define dh.3.8/dh.3.7 = tanh_deriv h.3.7

# h.3.7 = add h.3.4 h.3.6
define d/dh.3.7 = mul d/dh.3.8 dh.3.8/dh.3.7

# h.3.5 = slice h.3.u 128 192
define d/dh.3.5 = mul d/dh.3.7 h.3.r

# h.3.3 = sub 1 h.3.z
define d/dh.3.3 = mul d/dh.3 h.3.8

# h.3.z = logistic h.3.z.3
define d/dh.3.z.4 = mul d/dh.3 h.2.1
define d/dh.3.z.5 = neg d/dh.3.3
define d/dh.3.z = add d/dh.3.z.4 d/dh.3.z.5
define dh.3.z/dh.3.z.3 = logistic_deriv h.3.z.3

# h.3.z.3 = add h.3.z.1 h.3.z.2
define d/dh.3.z.3 = mul d/dh.3.z dh.3.z/dh.3.z.3

# h.3.r = logistic h.3.r.3
define d/dh.3.r = mul d/dh.3.7 h.3.5
define dh.3.r/dh.3.r.3 = logistic_deriv h.3.r.3

# h.3.r.3 = add h.3.r.1 h.3.r.2
define d/dh.3.r.3 = mul d/dh.3.r dh.3.r/dh.3.r.3

# h.3.u = matmul U h.2.1
define d/dh.3.u.1 = unslice d/dh.3.r.3 h.3.u 0
define d/dh.3.u.2 = unslice d/dh.3.z.3 h.3.u 64
define d/dh.3.u.3 = unslice d/dh.3.5 h.3.u 128
define d/dh.3.u.4 = add d/dh.3.u.1 d/dh.3.u.2
define d/dh.3.u = add d/dh.3.u.4 d/dh.3.u.3

# h.3.a = add h.3.a.1 b
define d/dh.3.a.2 = unslice d/dh.3.r.3 h.3.a 0
define d/dh.3.a.3 = unslice d/dh.3.z.3 h.3.a 64
define d/dh.3.a.4 = unslice d/dh.3.7 h.3.a 128
define d/dh.3.a.5 = add d/dh.3.a.2 d/dh.3.a.3
define d/dh.3.a = add d/dh.3.a.5 d/dh.3.a.4

# h.3.1 = index h.2 3
define d/dh.3.1 = matmul dh.15.a.1/dh.15.1 d/dh.3.a

# h.2.1 = add h.2.1.2 h.2.1.9
define d/dh.2.1.10 = matmul dh.15.u/dh.14 d/dh.3.u
define d/dh.2.1.11 = mul d/dh.3 h.3.z
define d/dh.2.1 = add d/dh.2.1.10 d/dh.2.1.11

# h.2.1.8 = tanh h.2.1.7
define d/dh.2.1.8 = mul d/dh.2.1 h.2.1.3
define dh.2.1.8/dh.2.1.7 = tanh_deriv h.2.1.7

# h.2.1.7 = add h.2.1.4 h.2.1.6
define d/dh.2.1.7 = mul d/dh.2.1.8 dh.2.1.8/dh.2.1.7

# h.2.1.5 = slice h.2.1.u 128 192
define d/dh.2.1.5 = mul d/dh.2.1.7 h.2.1.r

# h.2.1.3 = sub 1 h.2.1.z
define d/dh.2.1.3 = mul d/dh.2.1 h.2.1.8

# h.2.1.z = logistic h.2.1.z.3
define d/dh.2.1.z.4 = mul d/dh.2.1 h.1.1
define d/dh.2.1.z.5 = neg d/dh.2.1.3
define d/dh.2.1.z = add d/dh.2.1.z.4 d/dh.2.1.z.5
define dh.2.1.z/dh.2.1.z.3 = logistic_deriv h.2.1.z.3

# h.2.1.z.3 = add h.2.1.z.1 h.2.1.z.2
define d/dh.2.1.z.3 = mul d/dh.2.1.z dh.2.1.z/dh.2.1.z.3

# h.2.1.r = logistic h.2.1.r.3
define d/dh.2.1.r = mul d/dh.2.1.7 h.2.1.5
define dh.2.1.r/dh.2.1.r.3 = logistic_deriv h.2.1.r.3

# h.2.1.r.3 = add h.2.1.r.1 h.2.1.r.2
define d/dh.2.1.r.3 = mul d/dh.2.1.r dh.2.1.r/dh.2.1.r.3

# h.2.1.u = matmul U h.1.1
define d/dh.2.1.u.1 = unslice d/dh.2.1.r.3 h.2.1.u 0
define d/dh.2.1.u.2 = unslice d/dh.2.1.z.3 h.2.1.u 64
define d/dh.2.1.u.3 = unslice d/dh.2.1.5 h.2.1.u 128
define d/dh.2.1.u.4 = add d/dh.2.1.u.1 d/dh.2.1.u.2
define d/dh.2.1.u = add d/dh.2.1.u.4 d/dh.2.1.u.3

# h.2.1.a = add h.2.1.a.1 b
define d/dh.2.1.a.2 = unslice d/dh.2.1.r.3 h.2.1.a 0
define d/dh.2.1.a.3 = unslice d/dh.2.1.z.3 h.2.1.a 64
define d/dh.2.1.a.4 = unslice d/dh.2.1.7 h.2.1.a 128
define d/dh.2.1.a.5 = add d/dh.2.1.a.2 d/dh.2.1.a.3
define d/dh.2.1.a = add d/dh.2.1.a.5 d/dh.2.1.a.4

# h.2.1.1 = index h.2 2
define d/dh.2.1.1 = matmul dh.15.a.1/dh.15.1 d/dh.2.1.a

# h.1.1 = add h.1.1.2 h.1.1.9
define d/dh.1.1.10 = matmul dh.15.u/dh.14 d/dh.2.1.u
define d/dh.1.1.11 = mul d/dh.2.1 h.2.1.z
define d/dh.1.1 = add d/dh.1.1.10 d/dh.1.1.11

# h.1.1.8 = tanh h.1.1.7
define d/dh.1.1.8 = mul d/dh.1.1 h.1.1.3
define dh.1.1.8/dh.1.1.7 = tanh_deriv h.1.1.7

# h.1.1.7 = add h.1.1.4 h.1.1.6
define d/dh.1.1.7 = mul d/dh.1.1.8 dh.1.1.8/dh.1.1.7

# h.1.1.5 = slice h.1.1.u 128 192
define d/dh.1.1.5 = mul d/dh.1.1.7 h.1.1.r

# h.1.1.3 = sub 1 h.1.1.z
define d/dh.1.1.3 = mul d/dh.1.1 h.1.1.8

# h.1.1.z = logistic h.1.1.z.3
define d/dh.1.1.z.4 = mul d/dh.1.1 h.0
define d/dh.1.1.z.5 = neg d/dh.1.1.3
define d/dh.1.1.z = add d/dh.1.1.z.4 d/dh.1.1.z.5
define dh.1.1.z/dh.1.1.z.3 = logistic_deriv h.1.1.z.3

# h.1.1.z.3 = add h.1.1.z.1 h.1.1.z.2
define d/dh.1.1.z.3 = mul d/dh.1.1.z dh.1.1.z/dh.1.1.z.3

# h.1.1.r = logistic h.1.1.r.3
define d/dh.1.1.r = mul d/dh.1.1.7 h.1.1.5
define dh.1.1.r/dh.1.1.r.3 = logistic_deriv h.1.1.r.3

# h.1.1.r.3 = add h.1.1.r.1 h.1.1.r.2
define d/dh.1.1.r.3 = mul d/dh.1.1.r dh.1.1.r/dh.1.1.r.3

# h.1.1.u = matmul U h.0
define d/dh.1.1.u.1 = unslice d/dh.1.1.r.3 h.1.1.u 0
define d/dh.1.1.u.2 = unslice d/dh.1.1.z.3 h.1.1.u 64
define d/dh.1.1.u.3 = unslice d/dh.1.1.5 h.1.1.u 128
define d/dh.1.1.u.4 = add d/dh.1.1.u.1 d/dh.1.1.u.2
define d/dh.1.1.u = add d/dh.1.1.u.4 d/dh.1.1.u.3

# h.1.1.a = add h.1.1.a.1 b
define d/dh.1.1.a.2 = unslice d/dh.1.1.r.3 h.1.1.a 0
define d/dh.1.1.a.3 = unslice d/dh.1.1.z.3 h.1.1.a 64
define d/dh.1.1.a.4 = unslice d/dh.1.1.7 h.1.1.a 128
define d/dh.1.1.a.5 = add d/dh.1.1.a.2 d/dh.1.1.a.3
define d/dh.1.1.a = add d/dh.1.1.a.5 d/dh.1.1.a.4

# h.1.1.1 = index h.2 1
define d/dh.1.1.1 = matmul dh.15.a.1/dh.15.1 d/dh.1.1.a

# h.0 = add h.0.2 h.0.9
define d/dh.0.10 = matmul dh.15.u/dh.14 d/dh.1.1.u
define d/dh.0.11 = mul d/dh.1.1 h.1.1.z
define d/dh.0 = add d/dh.0.10 d/dh.0.11

# h.0.8 = tanh h.0.7
define d/dh.0.8 = mul d/dh.0 h.0.3
define dh.0.8/dh.0.7 = tanh_deriv h.0.7

# h.0.7 = add h.0.4 h.0.6
define d/dh.0.7 = mul d/dh.0.8 dh.0.8/dh.0.7

# h.0.5 = slice h.0.u 128 192
define d/dh.0.5 = mul d/dh.0.7 h.0.r

# h.0.3 = sub 1 h.0.z
define d/dh.0.3 = mul d/dh.0 h.0.8

# h.0.z = logistic h.0.z.3
define d/dh.0.z.4 = mul d/dh.0 h0
define d/dh.0.z.5 = neg d/dh.0.3
define d/dh.0.z = add d/dh.0.z.4 d/dh.0.z.5
define dh.0.z/dh.0.z.3 = logistic_deriv h.0.z.3

# h.0.z.3 = add h.0.z.1 h.0.z.2
define d/dh.0.z.3 = mul d/dh.0.z dh.0.z/dh.0.z.3

# h.0.r = logistic h.0.r.3
define d/dh.0.r = mul d/dh.0.7 h.0.5
define dh.0.r/dh.0.r.3 = logistic_deriv h.0.r.3

# h.0.r.3 = add h.0.r.1 h.0.r.2
define d/dh.0.r.3 = mul d/dh.0.r dh.0.r/dh.0.r.3

# h.0.u = matmul U h0
define d/dh.0.u.1 = unslice d/dh.0.r.3 h.0.u 0
define d/dh.0.u.2 = unslice d/dh.0.z.3 h.0.u 64
define d/dh.0.u.3 = unslice d/dh.0.5 h.0.u 128
define d/dh.0.u.4 = add d/dh.0.u.1 d/dh.0.u.2
define d/dh.0.u = add d/dh.0.u.4 d/dh.0.u.3

# h.0.a = add h.0.a.1 b
define d/dh.0.a.2 = unslice d/dh.0.r.3 h.0.a 0
define d/dh.0.a.3 = unslice d/dh.0.z.3 h.0.a 64
define d/dh.0.a.4 = unslice d/dh.0.7 h.0.a 128
define d/dh.0.a.5 = add d/dh.0.a.2 d/dh.0.a.3
define d/dh.0.a = add d/dh.0.a.5 d/dh.0.a.4

# h.0.1 = index h.2 0
define d/dh.0.1 = matmul dh.15.a.1/dh.15.1 d/dh.0.a

# h.2 = take E h.1
define d/dh.2.2.1 = reshape d/dh.0.1 [1, 16]
define d/dh.2.2 = unslice d/dh.2.2.1 h.2 0
define d/dh.2.3.1 = reshape d/dh.1.1.1 [1, 16]
define d/dh.2.3 = unslice d/dh.2.3.1 h.2 1
define d/dh.2.4.1 = reshape d/dh.2.1.1 [1, 16]
define d/dh.2.4 = unslice d/dh.2.4.1 h.2 2
define d/dh.2.5.1 = reshape d/dh.3.1 [1, 16]
define d/dh.2.5 = unslice d/dh.2.5.1 h.2 3
define d/dh.2.6.1 = reshape d/dh.4.1 [1, 16]
define d/dh.2.6 = unslice d/dh.2.6.1 h.2 4
define d/dh.2.7.1 = reshape d/dh.5.1 [1, 16]
define d/dh.2.7 = unslice d/dh.2.7.1 h.2 5
define d/dh.2.8.1 = reshape d/dh.6.1 [1, 16]
define d/dh.2.8 = unslice d/dh.2.8.1 h.2 6
define d/dh.2.9.1 = reshape d/dh.7.1 [1, 16]
define d/dh.2.9 = unslice d/dh.2.9.1 h.2 7
define d/dh.2.10.1 = reshape d/dh.8.1 [1, 16]
define d/dh.2.10 = unslice d/dh.2.10.1 h.2 8
define d/dh.2.11.1 = reshape d/dh.9.1 [1, 16]
define d/dh.2.11 = unslice d/dh.2.11.1 h.2 9
define d/dh.2.12.1 = reshape d/dh.10.1 [1, 16]
define d/dh.2.12 = unslice d/dh.2.12.1 h.2 10
define d/dh.2.13.1 = reshape d/dh.11.1 [1, 16]
define d/dh.2.13 = unslice d/dh.2.13.1 h.2 11
define d/dh.2.14.1 = reshape d/dh.12.1 [1, 16]
define d/dh.2.14 = unslice d/dh.2.14.1 h.2 12
define d/dh.2.15.1 = reshape d/dh.13.1 [1, 16]
define d/dh.2.15 = unslice d/dh.2.15.1 h.2 13
define d/dh.2.16.1 = reshape d/dh.14.1 [1, 16]
define d/dh.2.16 = unslice d/dh.2.16.1 h.2 14
define d/dh.2.17.1 = reshape d/dh.15.1 [1, 16]
define d/dh.2.17 = unslice d/dh.2.17.1 h.2 15
define d/dh.2.18 = add d/dh.2.2 d/dh.2.3
define d/dh.2.19 = add d/dh.2.18 d/dh.2.4
define d/dh.2.20 = add d/dh.2.19 d/dh.2.5
define d/dh.2.21 = add d/dh.2.20 d/dh.2.6
define d/dh.2.22 = add d/dh.2.21 d/dh.2.7
define d/dh.2.23 = add d/dh.2.22 d/dh.2.8
define d/dh.2.24 = add d/dh.2.23 d/dh.2.9
define d/dh.2.25 = add d/dh.2.24 d/dh.2.10
define d/dh.2.26 = add d/dh.2.25 d/dh.2.11
define d/dh.2.27 = add d/dh.2.26 d/dh.2.12
define d/dh.2.28 = add d/dh.2.27 d/dh.2.13
define d/dh.2.29 = add d/dh.2.28 d/dh.2.14
define d/dh.2.30 = add d/dh.2.29 d/dh.2.15
define d/dh.2.31 = add d/dh.2.30 d/dh.2.16
define d/dh.2 = add d/dh.2.31 d/dh.2.17

# weight c
define d/dc = d/dlogp.2

# weight V
define d/dV = outer d/dlogp.2 h

# weight h0
define d/dh0.1 = matmul dh.15.u/dh.14 d/dh.0.u
define d/dh0.2 = mul d/dh.0 h.0.z
define d/dh0 = add d/dh0.1 d/dh0.2

# weight b
define d/db.17 = add d/dh.0.a d/dh.1.1.a
define d/db.18 = add d/db.17 d/dh.2.1.a
define d/db.19 = add d/db.18 d/dh.3.a
define d/db.20 = add d/db.19 d/dh.4.a
define d/db.21 = add d/db.20 d/dh.5.a
define d/db.22 = add d/db.21 d/dh.6.a
define d/db.23 = add d/db.22 d/dh.7.a
define d/db.24 = add d/db.23 d/dh.8.a
define d/db.25 = add d/db.24 d/dh.9.a
define d/db.26 = add d/db.25 d/dh.10.a
define d/db.27 = add d/db.26 d/dh.11.a
define d/db.28 = add d/db.27 d/dh.12.a
define d/db.29 = add d/db.28 d/dh.13.a
define d/db.30 = add d/db.29 d/dh.14.a
define d/db = add d/db.30 d/dh.15.a

# weight U
define d/dU.1 = outer d/dh.0.u h0
define d/dU.2 = outer d/dh.1.1.u h.0
define d/dU.3 = outer d/dh.2.1.u h.1.1
define d/dU.4 = outer d/dh.3.u h.2.1
define d/dU.5 = outer d/dh.4.u h.3
define d/dU.6 = outer d/dh.5.u h.4
define d/dU.7 = outer d/dh.6.u h.5
define d/dU.8 = outer d/dh.7.u h.6
define d/dU.9 = outer d/dh.8.u h.7
define d/dU.10 = outer d/dh.9.u h.8
define d/dU.11 = outer d/dh.10.u h.9
define d/dU.12 = outer d/dh.11.u h.10
define d/dU.13 = outer d/dh.12.u h.11
define d/dU.14 = outer d/dh.13.u h.12
define d/dU.15 = outer d/dh.14.u h.13
define d/dU.16 = outer d/dh.15.u h.14
define d/dU.17 = add d/dU.1 d/dU.2
define d/dU.18 = add d/dU.17 d/dU.3
define d/dU.19 = add d/dU.18 d/dU.4
define d/dU.20 = add d/dU.19 d/dU.5
define d/dU.21 = add d/dU.20 d/dU.6
define d/dU.22 = add d/dU.21 d/dU.7
define d/dU.23 = add d/dU.22 d/dU.8
define d/dU.24 = add d/dU.23 d/dU.9
define d/dU.25 = add d/dU.24 d/dU.10
define d/dU.26 = add d/dU.25 d/dU.11
define d/dU.27 = add d/dU.26 d/dU.12
define d/dU.28 = add d/dU.27 d/dU.13
define d/dU.29 = add d/dU.28 d/dU.14
define d/dU.30 = add d/dU.29 d/dU.15
define d/dU = add d/dU.30 d/dU.16

# weight W
define d/dW.1 = outer d/dh.0.a h.0.1
define d/dW.2 = outer d/dh.1.1.a h.1.1.1
define d/dW.3 = outer d/dh.2.1.a h.2.1.1
define d/dW.4 = outer d/dh.3.a h.3.1
define d/dW.5 = outer d/dh.4.a h.4.1
define d/dW.6 = outer d/dh.5.a h.5.1
define d/dW.7 = outer d/dh.6.a h.6.1
define d/dW.8 = outer d/dh.7.a h.7.1
define d/dW.9 = outer d/dh.8.a h.8.1
define d/dW.10 = outer d/dh.9.a h.9.1
define d/dW.11 = outer d/dh.10.a h.10.1
define d/dW.12 = outer d/dh.11.a h.11.1
define d/dW.13 = outer d/dh.12.a h.12.1
define d/dW.14 = outer d/dh.13.a h.13.1
define d/dW.15 = outer d/dh.14.a h.14.1
define d/dW.16 = outer d/dh.15.a h.15.1
define d/dW.17 = add d/dW.1 d/dW.2
define d/dW.18 = add d/dW.17 d/dW.3
define d/dW.19 = add d/dW.18 d/dW.4
define d/dW.20 = add d/dW.19 d/dW.5
define d/dW.21 = add d/dW.20 d/dW.6
define d/dW.22 = add d/dW.21 d/dW.7
define d/dW.23 = add d/dW.22 d/dW.8
define d/dW.24 = add d/dW.23 d/dW.9
define d/dW.25 = add d/dW.24 d/dW.10
define d/dW.26 = add d/dW.25 d/dW.11
define d/dW.27 = add d/dW.26 d/dW.12
define d/dW.28 = add d/dW.27 d/dW.13
define d/dW.29 = add d/dW.28 d/dW.14
define d/dW.30 = add d/dW.29 d/dW.15
define d/dW = add d/dW.30 d/dW.16

# weight E
define d/dE = take_grad d/dh.2 h.1 E
