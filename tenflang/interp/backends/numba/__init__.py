"""The CPU's loops for numba, where no C compiler works."""
