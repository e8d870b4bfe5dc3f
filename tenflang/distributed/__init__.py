"""Data-parallel training on a Dask cluster (docs/distributed.md).  Importing
this package imports no dask; `cluster` does."""
