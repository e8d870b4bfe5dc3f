"""Generated C, compiled and loaded, and what runs it: one module a job.

* `clib`: compile C with the system's compiler, cache it on disk, load it
  (ctypes); `Unavailable`/`Abandoned` when it cannot be had, so callers fall
  back to numpy or numba;
* `cpython`: numpy arrays and tuples handed to C through CPython's structs;
* `loop_pool`: the threads that run compiled loops, and how many;
* `blas_threads`: numpy's BLAS threads kept off the loop threads' cores, asleep when idle;
* `switches`: the environment variables that turn native code off;
* `malloc`: glibc's malloc tuned for a step's repeated allocations.

Nothing here imports numpy at import time, nor any layer above the base.
"""
