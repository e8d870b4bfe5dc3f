#!/usr/bin/env bash
# Install TenFlang into ./.venv and run the three phases on the original design's example:
# compile the shape program, learn w from 200 examples, evaluate new inputs; then say
# what was learned and what the evaluation printed.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check .
mkdir -p out
set -x
.venv/bin/tfcompiler samples/example_shape.tf > out/gcp.tf
.venv/bin/tfweightcalc out/gcp.tf samples/example_train.txt --lr 5 --tol 1e-9 > out/weights.txt
.venv/bin/tfevaluate samples/example_shape.tf samples/example_inputs.txt out/weights.txt
{ set +x; } 2>/dev/null
w=$(.venv/bin/python -c 'import sys, tenflang; print("%.4f" % tenflang.load_weights(sys.argv[1])["w"])' out/weights.txt)
cat <<TEXT

What happened:
  tfcompiler   wrote the Gradient Computing Program of samples/example_shape.tf to out/gcp.tf.
  tfweightcalc learned w = $w from the 200 examples of samples/example_train.txt
               (they were made with w = 1.7) and wrote it to out/weights.txt.
  tfevaluate   printed one line per input of samples/example_inputs.txt (x = -2, -0.5, 0,
               0.5, 2): o is the model's output logistic(w x) for that x; lambda, the loss,
               is null because those inputs come without the expected output y.
Next: . .venv/bin/activate, then the tutorial in docs/guide/tutorial.md.
TEXT
