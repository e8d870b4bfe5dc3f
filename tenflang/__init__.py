"""TenFlang: learn the weights of a straight-line tensor program.

    program = tenflang.parse(text)                 # front end
"""
from .errors import RunFailure, TenflangError
from .parser import parse, parse_file, print_program

__all__ = ["TenflangError", "RunFailure", "parse", "parse_file", "print_program"]
