"""`tenflang shard DATA --out DIR --rows N` — cut a data file into .npz shards.

DIR receives `shard-00000.npz`, `shard-00001.npz`, ... of at most N examples
each, in file order, then `manifest.json` (variables and their per-example
shapes, row count of each shard and in all), which a distributed run
(`tfweightcalc GCP DIR --scheduler ...`) reads instead of opening every shard.
Each file is written atomically and the manifest last, so a directory with a
manifest is complete.  DIR must be new or empty; with `--force` an earlier
shard directory is replaced (its shard-*.npz files and manifest only, each a
regular file: a symbolic link among them is refused, never written through).
"""
from __future__ import annotations

import os
import re
import stat

import click

from tenflang.base.outputs import same_file
from tenflang.data import vectors
from tenflang.base.errors import Location, RunFailure, TenflangError
from tenflang.data.shards import MANIFEST, write_shards
from .common import reports_errors, say

_OURS = re.compile(r"shard-\d{5,}\.npz|" + re.escape(MANIFEST))


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("data_file", metavar="DATA", type=click.Path())
@click.option("--out", "out_dir", metavar="DIR", required=True,
              help="Directory for the shards and manifest.json (created if needed).")
@click.option("--rows", type=click.IntRange(min=1), required=True, metavar="N",
              help="Examples per shard (the last one may have fewer).")
@click.option("--force", is_flag=True, help="Replace the shards of an earlier run in DIR.")
@click.option("--allow-nan", is_flag=True, help="Accept NaN/inf in the data.")
@reports_errors
def shard_command(data_file, out_dir, rows, force, allow_nan):
    """Split the examples of DATA into .npz shards for a distributed run."""
    if os.path.isdir(data_file):
        raise TenflangError("DATA is a directory; shard takes one data file (.txt, .csv or "
                            ".npz)", Location(data_file))
    examples = vectors.load_examples(data_file, allow_nan=allow_nan)
    stale = prepare(out_dir, force)
    for name in stale:
        if same_file(os.path.join(out_dir, name), data_file):
            raise TenflangError(f"DATA is {name} of the shard directory, which --force would "
                                "replace; shard it into another directory", Location(data_file))
    arrays = {n: a for n, a in examples.arrays.items() if a is not None}
    total = len(examples)
    written = write_shards(arrays, out_dir, rows, data_file)
    for name in stale - {f for f, _ in written} - {MANIFEST}:
        try:
            os.unlink(os.path.join(out_dir, name))
        except OSError as err:
            raise RunFailure(f"cannot remove the old shard {name}: {err.strerror or err}",
                             Location(out_dir)) from None
    say(f"{total} examples in {len(written)} shard{'s' * (len(written) != 1)} of at "
        f"most {rows} rows, and {MANIFEST}, in {out_dir}")


def prepare(out_dir: str, force: bool) -> set:
    """Make DIR if needed; the names of an earlier run's files there (to replace)."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise TenflangError("--out must be a directory; this is a file", Location(out_dir))
    try:
        os.makedirs(out_dir, exist_ok=True)
        present = set(os.listdir(out_dir))
    except OSError as err:
        raise RunFailure(f"cannot create the shard directory: {err.strerror or err}",
                         Location(out_dir)) from None
    ours = {f for f in present if _OURS.fullmatch(f)}
    if present and not force:
        raise TenflangError("the shard directory is not empty; pass a new or empty directory, "
                            "or --force to replace the shards of an earlier run",
                            Location(out_dir))
    if present - ours:
        other = sorted(present - ours)[0]
        raise TenflangError(f"the shard directory holds other files (such as '{other}'); "
                            "--force replaces only shard-*.npz and manifest.json, so pass a "
                            "new or empty directory", Location(out_dir))
    for name in sorted(ours):
        check_replaceable(os.path.join(out_dir, name))
    return ours


def check_replaceable(path: str) -> None:
    """An earlier run's file that --force may replace: a regular file, never a
    symbolic link (the writer would follow it, out of DIR or onto another
    shard) nor a FIFO or device."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return                           # gone since DIR was listed: nothing to replace
    if stat.S_ISLNK(mode):
        raise TenflangError(f"{os.path.basename(path)} in the shard directory is a symbolic "
                            f"link (to {os.readlink(path)}); --force replaces only the files "
                            "an earlier run wrote and never writes through a link: remove "
                            "it, or pass a new or empty directory", Location(path))
    if not stat.S_ISREG(mode):
        raise TenflangError(f"{os.path.basename(path)} in the shard directory is not a regular "
                            "file; --force replaces only the files an earlier run wrote: "
                            "remove it, or pass a new or empty directory", Location(path))
