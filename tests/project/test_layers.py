"""The package's folders are layers and imports only point down (docs/design.md §5):
a module imports from its own layer or a lower one.  Imports are read from the
source with `ast`, so a lazy import inside a function counts too.

The interpreter is layered inside as well: what a run computes (`planning`), the
code generators of its fused groups (`backends`: C, numba, CUDA), running a plan
(`runtime`: the generated Python step that calls them), and on top the choice
of device and engine (`interp/engine.py`, `interp/device.py`)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "tenflang"

# lowest first: each folder of tenflang/ is one layer
LAYERS = ["base", "native", "ops", "lang", "backprop", "analysis", "interp", "data",
          "training", "distributed", "export", "api", "cli"]
INTERP_LAYERS = ["planning", "backends", "runtime", "interp"]
LOOSE = {"__init__.py", "__main__.py"}     # the public API's gathering point, `python -m`


def layer_of(module: str) -> str | None:
    """'tenflang.lang.syntax_tree' -> 'lang'; the package's own __init__/__main__ -> None."""
    parts = module.split(".")
    if parts[0] != "tenflang" or len(parts) == 1 or parts[1] == "__main__":
        return None
    return parts[1]


def interp_layer_of(module: str) -> str | None:
    """'tenflang.interp.runtime.run' -> 'runtime'; engine and device -> 'interp'."""
    parts = module.split(".")
    if layer_of(module) != "interp":
        return None
    return parts[2] if len(parts) > 2 and parts[2] in INTERP_LAYERS else "interp"


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


def above(order: list[str], a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and order.index(a) > order.index(b)


def test_every_folder_is_a_known_layer():
    folders = {p.relative_to(PACKAGE).parts[0] for p in modules() if p.parent != PACKAGE}
    assert folders <= set(LAYERS), f"add {folders - set(LAYERS)} to LAYERS in order"
    inner = {p.relative_to(PACKAGE / "interp").parts[0] for p in (PACKAGE / "interp").rglob("*.py")
             if p.parent != PACKAGE / "interp"} - {"__pycache__"}
    assert inner <= set(INTERP_LAYERS), f"add {inner - set(INTERP_LAYERS)} to INTERP_LAYERS"


def test_only_the_entry_points_are_loose():
    loose = {p.name for p in PACKAGE.glob("*.py")}
    assert loose <= LOOSE, f"{sorted(loose - LOOSE)}: put each in the folder of its layer"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    own = module_name(path)
    if layer_of(own) is None:
        return          # tenflang/__init__.py gathers the public API from every layer
    names = imported(path)
    upward = sorted(n for n in names if above(LAYERS, layer_of(n), layer_of(own)))
    assert not upward, f"{layer_of(own)} imports from a layer above it: {upward}"
    inside = sorted(n for n in names
                    if above(INTERP_LAYERS, interp_layer_of(n), interp_layer_of(own)))
    assert not inside, f"interp.{interp_layer_of(own)} imports from above it: {inside}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_other_layers_are_imported_by_absolute_names(path):
    """`from tenflang.lang.checks import …` names the layer a module reaches down
    to; a relative import stays inside the module's own layer."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    if layer_of(own) is None:
        return          # tenflang/__init__.py and __main__.py belong to no layer
    crossing = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join(parts + ([node.module] if node.module else []))
            if layer_of(target) not in (None, layer_of(own)):
                crossing.append(f"line {node.lineno}: from {'.' * node.level}{node.module or ''}")
    assert not crossing, f"relative imports of another layer: {crossing}"


def test_no_two_modules_share_a_name():
    names = [p.name for p in modules() if p.name != "__init__.py"]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def test_no_module_shadows_the_standard_library():
    import sys
    shadows = sorted(str(p.relative_to(PACKAGE)) for p in modules()
                     if p.stem in sys.stdlib_module_names)
    assert not shadows, f"{shadows}: running Python in their folder breaks the standard module"


def test_relative_and_lazy_imports_are_resolved():
    path = PACKAGE / "lang" / "checks.py"
    found = imported(path, "def f():\n    from ..training import loop\nfrom .syntax_tree import Var\n")
    assert {"tenflang.training.loop", "tenflang.lang.syntax_tree"} <= found
    assert layer_of("tenflang.training.loop") == "training" and layer_of("tenflang.ops") == "ops"
    assert interp_layer_of("tenflang.interp.runtime.run") == "runtime"
    assert interp_layer_of("tenflang.interp.engine") == "interp"
    assert interp_layer_of("tenflang.interp.backends.cuda.kernels") == "backends"
    assert above(INTERP_LAYERS, "runtime", "backends") and above(LAYERS, "lang", "ops")


def test_every_package_is_installed():
    """setup.cfg lists the packages one by one (tenflang.grammar maps a folder of
    its own): a package left out works from the source tree, where the tests
    run, and is missing from an install, where the user's commands run."""
    import configparser
    config = configparser.ConfigParser()
    config.read(PACKAGE.parent / "setup.cfg")
    listed = set(config["options"]["packages"].split())
    folders = {module_name(p) for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts}
    assert folders <= listed, f"add {sorted(folders - listed)} to setup.cfg's packages"
