"""`tfevaluate` (not yet built)."""
import click

from .common import reports_errors
from ..errors import TenflangError


@click.command()
@click.argument("args", nargs=-1)
@reports_errors
def tfevaluate(args):
    """Not yet available."""
    raise TenflangError("tfevaluate is not available yet")
