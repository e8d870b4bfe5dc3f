"""The documentation site (mkdocs.yml) builds with warnings as errors.

`mkdocs build --strict` fails on a broken link or anchor, a page left out of
the nav, or a stale op reference (scripts/mkdocs_hooks.py).  The examples on
the pages are run by test_docs.py; here the pages are built, not run.
Skipped, saying so, where mkdocs is not installed (the `test` extra has it).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import ROOT

pytest.importorskip("mkdocs")
pytest.importorskip("material")


def build(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--site-dir", str(site)], cwd=root, text=True,
                          capture_output=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
                          timeout=300)


def test_the_site_builds_without_a_warning(tmp_path):
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    site = tmp_path / "site"
    guide = sorted(p.stem for p in (ROOT / "docs" / "guide").glob("*.md"))
    assert {"index", "tutorial", "op-reference", "performance"} <= set(guide)
    for page in guide:
        built = site / "guide" / ("" if page == "index" else page) / "index.html"
        assert built.is_file(), f"docs/guide/{page}.md was not built"
    assert (site / "search" / "search_index.json").is_file()
    assert not (site / "make_op_reference.py").exists()
    reference = (site / "guide" / "op-reference" / "index.html").read_text(encoding="utf-8")
    assert 'id="matmul"' in reference


@pytest.fixture
def copy(tmp_path) -> Path:
    """The files the site is built from, to break."""
    root = tmp_path / "repo"
    for name in ("mkdocs.yml", "docs", "scripts", "tenflang", "grammar"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            root.mkdir(exist_ok=True)
            shutil.copy(source, root / name)
    return root


@pytest.mark.parametrize("page,old,new,message", [
    ("guide/training.md", "](language.md#22-declarations)", "](language.md#2-2-declarations)",
     "does not contain an anchor '#2-2-declarations'"),
    ("guide/index.md", "(tutorial.md)", "(tutorials.md)",
     "contains a link 'tutorials.md', but the target 'guide/tutorials.md' is not found"),
    ("guide/op-reference.md", "### `matmul`", "### `matmul` (stale)",
     "op-reference.md is stale"),
])
def test_a_broken_page_fails_the_build(copy, tmp_path, page, old, new, message):
    path = copy / "docs" / page
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0 and message in done.stderr, done.stderr
