"""The base layer: what every other layer uses (errors, limits, names, outputs)."""
