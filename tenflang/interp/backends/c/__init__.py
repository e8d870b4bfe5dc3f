"""The CPU's native code: generated C loops and the image kernels."""
