"""The code generators that run a plan's fused groups: C, numba, CUDA."""
