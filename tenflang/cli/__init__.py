"""Command-line tools: `tfcompiler`, `tfweightcalc`, `tfevaluate` (the seed's
names) and the `tenflang` group gathering them with `check`, `shard` and friends.
Each command is a thin wrapper over the Python API."""
import click

from .compile_command import check_command, tfcompiler
from .evaluate_command import tfevaluate
from .export_command import export_command
from .fmt_command import fmt_command
from .plan_command import plan_command
from .shard_command import shard_command
from .train_command import tfweightcalc


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tenflang")
def main():
    """TenFlang: compile, train and evaluate straight-line tensor programs."""


main.add_command(tfcompiler, "compile")
main.add_command(tfweightcalc, "train")
main.add_command(tfevaluate, "evaluate")
main.add_command(check_command, "check")
main.add_command(fmt_command, "fmt")
main.add_command(plan_command, "plan")
main.add_command(shard_command, "shard")
main.add_command(export_command, "export")

__all__ = ["main", "tfcompiler", "tfweightcalc", "tfevaluate"]
