"""Data and weights files (docs/guide.md, "File formats"): `vectors` is the
facade every command uses; `notation` reads and writes vector notation,
`csvfiles` CSV, `shards` the sharded data sets of distributed training."""
