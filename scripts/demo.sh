#!/usr/bin/env bash
# Install TenFlang into ./.venv and run the three phases on the original design's example:
# compile the shape program, learn w from 200 examples, evaluate new inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check .
mkdir -p out
set -x
.venv/bin/tfcompiler samples/example_shape.tf > out/gcp.tf
.venv/bin/tfweightcalc out/gcp.tf samples/example_train.txt --lr 5 --tol 1e-9 > out/weights.txt
.venv/bin/tfevaluate samples/example_shape.tf samples/example_inputs.txt out/weights.txt
