"""`tfcompiler --memory`: a training step's memory, line by line, on stderr.

The GCP still goes to standard output; the table's line numbers are the
GCP's as written there, and its rows follow tfweightcalc's plan."""
from __future__ import annotations

import re

from support.paths import ROOT

MLP = str(ROOT / "samples" / "mlp_digits.tf")
ROW = re.compile(r"^ *(\d+)  (\S+) ")


def test_memory_prints_the_table_on_stderr_and_the_gcp_on_stdout(run_cli):
    code, out, err = run_cli(["tfcompiler", MLP, "--memory", "--batch", "16", "--dtype", "float32"])
    assert code == 0, err
    assert out.startswith("declare input x [64]")
    title, header, *rows, peak = err.rstrip("\n").split("\n")
    assert title == "memory of one training step, batch 16, float32 (bytes):"
    assert header.split() == ["line", "value", "shape", "bytes", "temp", "live", "freed"]
    gcp = out.split("\n")
    kept = [row for row in rows if not ROW.match(row)]     # the one row of no GCP line
    assert len(kept) == 1 and kept[0].split()[:2] == ["(last-good-weights)", "[2410]"], kept
    rows = [row for row in rows if row not in kept]
    for row in rows:            # each names the GCP line that declares or defines its value
        number, name = ROW.match(row).groups()
        assert re.match(rf"(declare \w+|define) {re.escape(name)}\b", gcp[int(number) - 1]), row
    assert "  16 × [32]  2,048" in next(r for r in rows if ROW.match(r).group(2) == "h")
    assert "  [32, 64]   8,192" in next(r for r in rows if ROW.match(r).group(2) == "d/dW1")
    assert re.fullmatch(r"peak: [\d,]+ bytes at line \d+ \(\S+\): [\d,]+ per example × 16 "
                        r"\+ [\d,]+ per batch", peak), peak


def test_memory_defaults_to_one_example_in_float64(run_cli):
    code, _, err = run_cli(["tfcompiler", MLP, "--memory", "-o", "/dev/null"])
    assert code == 0, err
    assert err.startswith("memory of one training step, batch 1, float64 (bytes):\n")
    assert "\n   1  x                    1 × [64]     512           512\n" in err
