"""Reading a program without running it: `graphviz` draws its dataflow graph
(`tfcompiler --dot`), `stats` counts its lines, FLOPs and memory (`--stats`)."""
