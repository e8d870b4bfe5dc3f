"""Data and weights files (docs/guide/file-formats.md, "File formats"): `vectors` is the
facade every command uses.  Each data format has one reader returning an
`examples.Examples` (whose `locate(example, name)` every message about the
file uses): `textfiles.read_text` (vector notation, parsed by `notation` and,
at C speed, `fastnotation`), `csvfiles.read_csv`, `npzfiles.read_npz`;
`shards` describes the sharded data sets of distributed training; `reading`
holds the file helpers they share."""
