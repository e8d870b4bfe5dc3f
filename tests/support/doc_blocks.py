"""The fenced code blocks of README.md and docs/**/*.md, and the op reference's generator.

    PAGES                 # README.md and every page of the site (docs/, docs/guide/, ...)
    GUIDE_PAGES           # the guide's pages (docs/guide/*.md)
    ALL_BLOCKS            # every fenced block of every page, in page order
    load_generator()      # docs/make_op_reference.py as a module

tests/project/test_docs.py runs the blocks; the highlighter's tests lex the
TenFlang ones, and the op reference's tests run the generator.
"""
from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

from .paths import ROOT

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
GUIDE_PAGES = [p for p in PAGES if p.parent == DOCS / "guide"]
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass
class Block:
    page: Path
    line: int                 # 1-based line of the opening fence
    language: str
    words: list[str]
    text: str

    @property
    def file(self) -> str | None:
        return next((w[5:] for w in self.words if w.startswith("file=")), None)

    @property
    def id(self) -> str:
        return f"{page_name(self.page)}:{self.line}:{self.language or 'none'}"


def page_name(page: Path) -> str:
    """README.md, api.md, guide/tutorial.md: the page's path in the site's sources."""
    return str(page.relative_to(DOCS if page.is_relative_to(DOCS) else ROOT).as_posix())


def guide_text() -> str:
    """The guide's pages, one after the other."""
    return "\n".join(p.read_text(encoding="utf-8") for p in GUIDE_PAGES)


def blocks_of(page: Path) -> list[Block]:
    out, lines = [], page.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m.group("indent"), m.group("fence")
        info = m.group("info").split()
        body, j = [], i + 1
        while j < len(lines) and not re.match(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}"
                                              r"[ \t]*$", lines[j]):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        out.append(Block(page, i + 1, info[0] if info else "", info[1:],
                         "\n".join(body) + "\n" if body else ""))
        i = j + 1
    return out


ALL_BLOCKS = [b for page in PAGES for b in blocks_of(page)]


def load_generator():
    spec = importlib.util.spec_from_file_location("make_op_reference",
                                                  ROOT / "docs" / "make_op_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
