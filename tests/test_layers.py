"""The package's folders are layers and imports only point down (docs/guide.md,
"How the code is organised"): a module imports from its own layer or a lower one.
Imports are read from the source with `ast`, so a lazy import inside a function
counts too."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tenflang"

# lowest first; "base" is the modules directly in tenflang/ (errors, ops, files, ...)
LAYERS = ["base", "lang", "backprop", "analysis", "interp", "data", "training",
          "distributed", "export", "estimator", "cli"]
# folders that belong to another's layer: the CUDA engine is one of the interpreter's
# engines (tenflang/interp/engine.py chooses it; it imports the interpreter's code generator)
PART_OF = {"gpu": "interp"}


def layer_of(module: str) -> str | None:
    """'tenflang.lang.ast' -> 'lang'; the package's own __init__ and __main__ -> None."""
    parts = module.split(".")
    if parts[0] != "tenflang" or len(parts) == 1 or parts[1] == "__main__":
        return None
    if parts[1] in LAYERS or parts[1] in PART_OF:
        return PART_OF.get(parts[1], parts[1])
    return "base" if (PACKAGE / f"{parts[1]}.py").exists() else parts[1]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, source: str | None = None) -> set[str]:
    """Absolute names of the tenflang modules `path` imports (from `source` if given)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(source or path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.startswith("tenflang")}


def modules():
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_folder_is_a_known_layer():
    folders = {p.parent.name for p in modules() if p.parent != PACKAGE}
    assert folders <= set(LAYERS) | set(PART_OF), f"add {folders - set(LAYERS)} to LAYERS in order"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    own = layer_of(module_name(path))
    if own is None:
        return          # tenflang/__init__.py gathers the public API from every layer
    upward = sorted(n for n in imported(path)
                    if layer_of(n) is not None and LAYERS.index(layer_of(n)) > LAYERS.index(own))
    assert not upward, f"{own} imports from a layer above it: {upward}"


def test_no_two_modules_share_a_name():
    names = [p.name for p in modules() if p.name != "__init__.py"]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_relative_and_lazy_imports_are_resolved():
    path = PACKAGE / "lang" / "checks.py"
    found = imported(path, "def f():\n    from ..training import loop\nfrom .ast import Var\n")
    assert {"tenflang.training.loop", "tenflang.lang.ast"} <= found
    assert layer_of("tenflang.training.loop") == "training" and layer_of("tenflang.ops") == "base"
