"""The project's one hash, BLAKE2b: cache files' names (native libraries,
generated loops, the parser's tables), a cache file's checksum, the keys of
named random streams (tenflang/ops/modes.py) and the GCP's fingerprint on a
cluster.

    blake2b(data, digest_size=12).hexdigest()

It comes from CPython's `_blake2` module where there is one: `import hashlib`
first sets up OpenSSL's digests (libcrypto loaded, each algorithm fetched),
about 3 ms of a command's start-up, which every run paid for one hash
(bench/results_startup.md).  `hashlib.blake2b` is the same function: the
fallback, with the same digests.
"""
try:
    from _blake2 import blake2b
except ImportError:             # an interpreter built without the module
    from hashlib import blake2b

__all__ = ["blake2b"]
