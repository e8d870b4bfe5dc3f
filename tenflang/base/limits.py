"""The limits TenFlang puts on its inputs: the one place they live.

Each guards against an input that would otherwise exhaust memory, time or the
terminal, and each is reported as a located `TenflangError` (exit 2) naming the
limit, never as a crash.  docs/guide/troubleshooting.md (section 8, "Limits") lists them; change
a value here and there together.
"""
from __future__ import annotations

#: Elements in one declared tensor (per example), in a program, a CSV header or
#: a shard manifest: 2**31, 16 GiB of float64.  `[100000, 100000]` is over it.
MAX_TENSOR_ELEMENTS = 2 ** 31

#: Axes of one declared or inferred tensor, per example (numpy's own limit is
#: 64 for the whole array, the example axis and the kernels' window axes included).
MAX_RANK = 32

#: Magnitude of an integer attribute (a stride, a window, a dimension of a shape
#: literal, a class count): past it no tensor could hold what it describes.
MAX_ATTRIBUTE = 2 ** 31

#: How many times a compressed member of an .npz file may expand (deflate can
#: reach ~1000x on zeros; numbers rarely pass 10x).  Members whose compressed
#: size is under MIN_COMPRESSED_BYTES count as that size.
MAX_COMPRESSION_RATIO = 100
MIN_COMPRESSED_BYTES = 1 << 20

#: Characters of a name a program declares (a weight, an input, a macro's local
#: as expanded, a GCP's gradient) or a data file binds: names become the member
#: names of .npz outputs and checkpoints (`w:<name>.npy`), which zip caps at
#: 65 535 bytes; names are ASCII, one byte a character.
MAX_NAME_CHARS = 1000

#: Statements a program may have after macro and nested-expression expansion.
MAX_EXPANDED_STATEMENTS = 2_000_000

#: Steps of a `fold`/`scan` the reader unrolls by default; a longer loop is kept
#: as a loop (docs/design.md §2.4.2; `tfcompiler --unroll` unrolls every loop).
UNROLLED_STEPS = 8

#: Macro calls nested inside one another (a macro calling a macro calling ...).
MAX_MACRO_DEPTH = 200

#: `[` nested inside one another in a value of vector notation (a tensor of
#: rank 32 is numpy's own limit).
MAX_LIST_DEPTH = 32

#: Characters of a source or data line shown in a message; a longer line is
#: shown as an excerpt around the column the message is about.
MAX_EXCERPT_CHARS = 200

#: Characters of a message (before its source excerpt).
MAX_MESSAGE_CHARS = 1000

#: Characters of a token or name quoted in a message.
MAX_QUOTED_CHARS = 60

#: Iterations a checkpoint may record (2**53: where float64 stops counting).
MAX_ITERATIONS = 2 ** 53

#: Chunks of a distributed run (`--chunk-size`, small shards): each costs a task
#: per round, so chunks smaller than SMALL_CHUNK_ROWS are made larger (never
#: past it) until the data is at most MAX_SMALL_CHUNKS of them.
MAX_SMALL_CHUNKS = 64
SMALL_CHUNK_ROWS = 1024

#: Steps one fused loop may compute (generated C or numba): a longer chain is cut
#: into several loops, since compile time grows faster than a function's length
#: (and a loop's arrays, at most 4 per step, stay under ctypes' 1024 arguments).
MAX_FUSED_STEPS = 200

#: Seconds the C compiler is given for a program's loops; past it the
#: compiler's processes are ended and the program runs without fused loops.
COMPILE_SECONDS = 120

#: Worker processes `--scheduler local:N` may start.
MAX_LOCAL_WORKERS = 256

#: Seconds an output FIFO is given to get a reader before the write fails.
FIFO_READER_WAIT_S = 10.0

# parentheses one expression may nest (docs/guide/language.md §2.3, nested expressions)
MAX_NESTING = 100

#: Bytes of an output's name that the temporary file written next to it keeps:
#: with a dot, the pid, 12 letters and `.tmp` its name stays under 255 bytes.
TEMPORARY_NAME_BYTES = 200

#: Seconds `--scheduler local:N` is given to start its workers (a machine short
#: of file descriptors or processes never finishes starting them).
LOCAL_CLUSTER_START_S = 120.0

#: Open files a local cluster's scheduler and client need, besides 16 a worker.
LOCAL_CLUSTER_FILES = 128

#: Bytes a stream given as an input (a pipe, a FIFO, `/dev/stdin`, `<(...)`)
#: may hold: its size is not known before it is read (`tenflang.base.inputs`).
MAX_STREAM_BYTES = 1 << 30
