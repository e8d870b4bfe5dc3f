"""Data-parallel training on a Dask cluster (docs/distributed.md).  Importing
this package imports no dask; `cluster` does.  `cluster` connects (and
re-exports `train` and `describe`), `descent` is the client's training loop,
`tasks` what the workers run."""
