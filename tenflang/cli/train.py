"""`tfweightcalc` (not yet built)."""
import click

from .common import reports_errors
from ..errors import TenflangError


@click.command()
@click.argument("args", nargs=-1)
@reports_errors
def tfweightcalc(args):
    """Not yet available."""
    raise TenflangError("tfweightcalc is not available yet")
