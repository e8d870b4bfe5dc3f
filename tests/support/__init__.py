"""Helpers the tests share: `paths` (the repository, the samples), `programs`
(the small TenFlang programs several tests read, and their GCPs), `commands`
(running the commands as a user would), `gradcheck` (finite differences), and
the independent references `naive_conv` (convolution by loops), `counting_xp`
(an array module that counts host/device copies) and `cuda_emulator` (CUDA
kernels run on the CPU)."""
