"""Executable documentation: every fenced example in README.md and docs/**/*.md runs.

A fence's language (the first word of its info string) says what happens to it:

* ```tenflang — parsed (syntax, macro expansion, checks).  A complete shape
  program (one that declares a loss and no generated names) is also compiled
  at -O0 and -O1, and its GCP parsed again.  Words after the language:
  `fragment` (a piece of a program: syntax only), `error` (must be rejected
  with a TenflangError), `file=PATH` (also written to the sandbox, for the
  console examples that follow).
* ```console — a shell session.  `$ command` lines (a line ending in `\\`
  continues on the next) each followed by the expected output, stdout and
  stderr together.  In the expected output a line `...` matches any lines
  (none included) and `...` inside a line matches any text, for output that
  changes from run to run (timings, last digits).  A command must exit 0,
  unless its expected output ends with `[N]`: then its exit status must be N
  (the convention of cram tests).
* ```python — executed; ```pycon — run as a doctest (`>>>` lines and their
  output; ELLIPSIS and NORMALIZE_WHITESPACE on).  Both run in this test
  process, in the sandbox directory; the python and pycon blocks of a page
  share one namespace.
* any other language (text, bash, json, ...) is shown, not run; so is a
  block marked `norun` after its language (```python norun: an example that
  needs what a test machine lacks, such as a cluster or a GPU).  With
  `file=PATH` a block is written to the sandbox.  A fence with no language
  fails: say what it is.
* an example that needs an optional package (`needs=MODULE` after its
  language, or what `OPTIONAL` finds in its text, such as `--scheduler`) is
  skipped, saying so, in an install without it.

The examples of a page run in order in one sandbox: a temporary copy of the
repository (the current directory of every example), with `tfcompiler`,
`tfweightcalc`, `tfevaluate`, `tenflang` and `python` on PATH (wrappers that
run this interpreter on the copy's bin/ scripts and package, through a warm
server: see "sandboxes" below), PYTHONPATH the copy, COLUMNS=80 (click's help layout) and TENFLANG_DEVICE=cpu (the same
numbers on every machine).  Running a single example (`-k`) replays the ones
before it first.  Pages do not share a sandbox: a guide page whose examples use
files that the tutorial makes (gcp.tf, weights.txt, ...) opens with a shown
console block that makes them.

Beyond the examples: the op reference in docs/guide/op-reference.md must be what
docs/make_op_reference.py generates, and every command and every option of
the command-line tools must be mentioned in the docs.
"""
from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest

from support.doc_blocks import (ALL_BLOCKS, GUIDE_PAGES, PAGES, Block, guide_text,
                                 load_generator, page_name)
from support.paths import ROOT
from tenflang.backprop import compile_gradient
from tenflang.base.errors import TenflangError
from tenflang.lang import Declare, parse, parse_source, print_program

RUN = ("tenflang", "console", "python", "pycon")
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache",
                                     ".hypothesis", ".benchmarks", "*.egg-info", "build",
                                     "dist", "out", "tmp")


# ----------------------------------------------------------------------------- sandboxes
#
# A tool started from scratch spends most of a second importing numpy, lark and
# click.  So each sandbox has a warm server: a Python process that imported the
# copy's `tenflang.cli` once and, per command, forks a child that takes the
# wrapper's own stdin, stdout and stderr (passed over a Unix socket), its
# argv, environment and working directory, runs the command and exits with its
# status, which the wrapper exits with.  The command still runs in a process
# of its own with the real file descriptors (pipes, redirections, isatty and
# exit statuses are what a fresh process gives); only the imports are shared.
# TENFLANG_DOCS_FRESH=1 (or a system without fork) runs a fresh interpreter
# per command instead.

TOOLS = ("tfcompiler", "tfweightcalc", "tfevaluate", "tenflang")

SERVER = r"""
import json, os, select, socket, sys, traceback
path, root = sys.argv[1], sys.argv[2]
import tenflang.cli
from tenflang.lang.syntax import parser
parser()


def child(request, fds):
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    name, args = request["argv"][0], request["argv"][1:]
    code = 0
    try:
        if name == "tenflang":
            sys.argv = ["tenflang", *args]
            tenflang.cli.main(prog_name="tenflang")
        else:
            import runpy
            sys.argv = [os.path.join(root, "bin", name), *args]
            runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as stop:
        if isinstance(stop.code, int) or stop.code is None:
            code = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(code)


listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path)
listener.listen(64)
print("ready", flush=True)
waiting = {}
while True:
    readable, _, _ = select.select([listener], [], [], 0.02)
    if readable:
        conn, _ = listener.accept()
        message, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        while not message.endswith(b"\n"):
            more = conn.recv(1 << 20)
            if not more:
                break
            message += more
        pid = os.fork()
        if pid == 0:
            listener.close()
            conn.close()
            child(json.loads(message), fds)
        for fd in fds:
            os.close(fd)
        waiting[pid] = conn
    while waiting:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            break
        code = os.waitstatus_to_exitcode(status)
        conn = waiting.pop(pid)
        conn.sendall(str(code if code >= 0 else 128 - code).encode())
        conn.close()
"""

CLIENT = r"""
import json, os, socket, sys
path, argv = sys.argv[1], sys.argv[2:]
conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
conn.connect(path)
request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}
socket.send_fds(conn, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
answer = b""
while True:
    more = conn.recv(64)
    if not more:
        break
    answer += more
sys.exit(int(answer or b"1"))
"""


@dataclass
class Page:
    """One page's sandbox and how far its examples have run."""
    root: Path
    env: dict
    namespace: dict = field(default_factory=dict)
    done: int = 0
    server: subprocess.Popen | None = None
    socket: Path | None = None


def start_server(base: Path, root: Path, env: dict) -> tuple[subprocess.Popen, Path] | None:
    if os.environ.get("TENFLANG_DOCS_FRESH") or not hasattr(os, "fork") \
            or not hasattr(socket, "send_fds"):
        return None
    (base / "server.py").write_text(SERVER)
    (base / "client.py").write_text(CLIENT)
    sock = Path(tempfile.mkdtemp(prefix="tfdocs")) / "s"   # AF_UNIX paths must be short
    server = subprocess.Popen([sys.executable, str(base / "server.py"), str(sock), str(root)],
                              cwd=root, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, text=True)
    if server.stdout.readline().strip() != "ready":
        server.kill()
        return None
    return server, sock


def make_bin(bindir: Path, root: Path, client: Path | None, sock: Path | None) -> None:
    bindir.mkdir()
    scripts = {}
    for name in TOOLS:
        if client:
            scripts[name] = f'exec "{sys.executable}" -S -E "{client}" "{sock}" {name} "$@"\n'
        elif name == "tenflang":
            scripts[name] = (f'exec "{sys.executable}" -c "import sys; sys.argv[0] = '
                             f'\'tenflang\'; from tenflang.cli import main; main()" "$@"\n')
        else:
            scripts[name] = f'exec "{sys.executable}" "{root / "bin" / name}" "$@"\n'
    scripts["python"] = f'exec "{sys.executable}" "$@"\n'
    for name, body in scripts.items():
        path = bindir / name
        path.write_text("#!/usr/bin/env bash\n" + body)
        path.chmod(0o755)


def make_page(base: Path) -> Page:
    root = base / "repo"
    shutil.copytree(ROOT, root, ignore=COPY_IGNORE)
    env = dict(os.environ)
    env.update(PATH=f"{base / 'bin'}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(root),
               COLUMNS="80", PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8",
               TENFLANG_DEVICE="cpu")
    started = start_server(base, root, env)
    make_bin(base / "bin", root, base / "client.py" if started else None,
             started[1] if started else None)
    server, sock = started or (None, None)
    return Page(root, env, {"__name__": "__docs__"}, server=server, socket=sock)


@pytest.fixture(scope="session")
def pages(tmp_path_factory):
    made: dict[Path, Page] = {}

    def get(page: Path) -> Page:
        if page not in made:
            made[page] = make_page(tmp_path_factory.mktemp(page.stem))
        return made[page]
    yield get
    for page in made.values():
        if page.server:
            page.server.kill()
            page.server.wait()
            shutil.rmtree(page.socket.parent, ignore_errors=True)


# ----------------------------------------------------------------------------- runners

def is_shape_program(text: str) -> bool:
    statements = parse_source(text).statements
    declared = [s for s in statements if isinstance(s, Declare)]
    return (any(d.kind == "loss" for d in declared)
            and not any("." in d.name or "/" in d.name for d in declared))


def run_tenflang(block: Block, page: Page) -> None:
    name = block.file or block.id
    if "error" in block.words:
        with pytest.raises(TenflangError):
            parse(block.text, name)
            parse(block.text, name, shape_program=True)
        return
    if "fragment" in block.words:
        parse_source(block.text, name)
        return
    program = parse(block.text, name)
    if is_shape_program(block.text):
        parse(block.text, name, shape_program=True)
        for level in (0, 1):
            parse(print_program(compile_gradient(program, level)), f"{name} (GCP -O{level})")


def commands(block: Block) -> list[tuple[str, list[str], int]]:
    """(command, expected output lines, line number) per `$` line."""
    out: list = []
    lines = block.text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            if out:
                out[-1][1].append(line)
                i += 1
                continue
            raise AssertionError(f"{block.id}: a console example starts with '$ command'; "
                                 f"found {line!r}")
        command, number = line[2:], block.line + 1 + i
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + "\n" + lines[i].removeprefix("> ")
        out.append((command, [], number))
        i += 1
    return out


def clean(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def pattern(expected: list[str]) -> re.Pattern:
    parts = []
    for line in expected:
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(map(re.escape, line.split("..."))) + r"\n")
    return re.compile("".join(parts))


def output_matches(expected: list[str], actual: list[str]) -> bool:
    text = "".join(line + "\n" for line in actual)
    return pattern(expected).fullmatch(text) is not None


def run_console(block: Block, page: Page) -> None:
    for command, expected, number in commands(block):
        expected = clean(expected)
        status = 0
        if expected and re.fullmatch(r"\[\d+\]", expected[-1]):
            status = int(expected.pop()[1:-1])
        done = subprocess.run(["bash", "-c", command], cwd=page.root, env=page.env,
                              stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              encoding="utf-8", errors="replace", timeout=300)
        actual = clean(done.stdout.split("\n"))
        where = f"{page_name(block.page)}:{number}: $ {command}"
        assert output_matches(expected, actual), (
            f"{where}\n--- expected ---\n" + "\n".join(expected)
            + "\n--- actual ---\n" + "\n".join(actual))
        assert done.returncode == status, (
            f"{where}\nexit status {done.returncode}, expected {status}"
            + ("" if status else " (show a nonzero status as a last output line [N])")
            + "\n" + "\n".join(actual))


@contextlib.contextmanager
def in_sandbox(page: Page):
    old = os.getcwd()
    os.chdir(page.root)
    try:
        yield
    finally:
        os.chdir(old)


def run_python(block: Block, page: Page) -> None:
    code = compile(block.text, f"{page_name(block.page)}:{block.line}", "exec")
    with in_sandbox(page), redirect_stdout(io.StringIO()):
        exec(code, page.namespace)


def run_pycon(block: Block, page: Page) -> None:
    test = doctest.DocTestParser().get_doctest(block.text, page.namespace, block.id,
                                               str(block.page), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    with in_sandbox(page):
        result = runner.run(test, out=report.write, clear_globs=False)
    page.namespace.update(test.globs)          # DocTest ran on a copy of the namespace
    assert result.failed == 0, report.getvalue()


def write_file(block: Block, page: Page) -> None:
    path = page.root / block.file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(block.text, encoding="utf-8")


RUNNERS = {"tenflang": run_tenflang, "console": run_console, "python": run_python,
           "pycon": run_pycon}


def run_block(block: Block, page: Page) -> None:
    if block.file:
        write_file(block, page)
    runner = RUNNERS.get(block.language)
    if runner and "norun" not in block.words:
        runner(block, page)


# what an example needs besides TenFlang's own requirements: text it holds -> a module
# of an optional extra (setup.cfg); without it the example is skipped, saying so
OPTIONAL = [("tenflang export", "onnx"), ("export_model", "onnx"), ("onnxruntime", "onnxruntime"),
            ("sklearn", "sklearn"), ("--scheduler", "distributed"), ("--logdir", "tensorboardX"),
            ("TensorBoard(", "tensorboardX"), ("--plot", "matplotlib")]


def missing_package(block: Block) -> str | None:
    """The optional package `block` needs and this install lacks, or None."""
    needed = [w[6:] for w in block.words if w.startswith("needs=")]
    needed += [module for text, module in OPTIONAL if text in block.text]
    return next((m for m in needed if not installed(m)), None)


def installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:           # its parent package is missing
        return False


def run_through(pages, block: Block) -> None:
    """Run `block`, after the blocks before it on its page (once each); an
    example that needs an optional package this install lacks is skipped."""
    page = pages(block.page)
    on_page = [b for b in ALL_BLOCKS if b.page == block.page]
    index = on_page.index(block)
    while page.done < index:
        earlier = on_page[page.done]
        page.done += 1
        if missing_package(earlier):
            continue
        try:
            run_block(earlier, page)
        except BaseException as err:
            raise AssertionError(f"an earlier example failed: {earlier.id}") from err
    if page.done == index:
        page.done += 1
        if missing_package(block):
            pytest.skip(f"needs {missing_package(block)}, an optional package (setup.cfg)")
        run_block(block, page)


# ----------------------------------------------------------------------------- tests

def runs(block: Block) -> bool:
    return block.language in RUN and "norun" not in block.words


@pytest.mark.parametrize("block", [b for b in ALL_BLOCKS if runs(b) or b.file],
                         ids=lambda b: b.id)
def test_example(block, pages):
    run_through(pages, block)


def test_every_fence_says_what_it_is():
    unlabelled = [b.id for b in ALL_BLOCKS if not b.language]
    assert not unlabelled, ("fences without a language (write ```tenflang, ```console, "
                            f"```python, or ```text for one that is not run): {unlabelled}")


def test_how_many_examples_run(capsys):
    counts: dict[str, int] = {}
    for b in ALL_BLOCKS:
        if runs(b):
            counts[b.language] = counts.get(b.language, 0) + 1
    shell = sum(len(commands(b)) for b in ALL_BLOCKS if runs(b) and b.language == "console")
    with capsys.disabled():
        print(f"\ndocs: {sum(counts.values())} examples run "
              f"({', '.join(f'{n} {k}' for k, n in sorted(counts.items()))}; "
              f"{shell} shell commands), {len(ALL_BLOCKS) - sum(counts.values())} shown only")
    guide = [b for b in ALL_BLOCKS if b.page in GUIDE_PAGES and runs(b)]
    api = [b for b in ALL_BLOCKS if page_name(b.page) == "api.md" and runs(b)]
    assert len(guide) >= 30 and len(api) >= 10


# ----------------------------------------------------------------------------- the op reference

OP_REFERENCE = ROOT / "docs" / "guide" / "op-reference.md"


def test_op_reference_is_generated_from_the_op_table():
    generator = load_generator()
    assert generator.GUIDE == OP_REFERENCE
    text = OP_REFERENCE.read_text(encoding="utf-8")
    assert generator.replace_section(text, generator.generate()) == text, (
        "the op reference in docs/guide/op-reference.md is stale: "
        "run python docs/make_op_reference.py")


def test_op_reference_covers_every_op():
    from tenflang.ops import table as ops
    text = OP_REFERENCE.read_text(encoding="utf-8")
    for name in ops.TABLE:
        assert f"\n### `{name}`\n" in text


# ----------------------------------------------------------------------------- the commands

def docs_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in PAGES)


def all_commands():
    from tenflang import cli
    seen = {"tfcompiler": cli.tfcompiler, "tfweightcalc": cli.tfweightcalc,
            "tfevaluate": cli.tfevaluate}
    for name in cli.main.list_commands(None):
        seen.setdefault(f"tenflang {name}", cli.main.get_command(None, name))
    return seen


def test_every_command_is_documented():
    from tenflang import cli
    text = docs_text()
    missing = [f"tenflang {name}" for name in cli.main.list_commands(None)
               if f"tenflang {name}" not in text]
    assert not missing, f"commands the docs do not mention: {missing}"


@pytest.mark.parametrize("name,command", list(all_commands().items()))
def test_every_option_is_documented(name, command):
    text = docs_text()
    missing = []
    for param in command.params:
        if not isinstance(param, click.Option):
            continue
        flags = [o for o in param.opts + param.secondary_opts if o.startswith("--")]
        for flag in flags:
            if flag != "--help" and not re.search(re.escape(flag) + r"(?![\w-])", text):
                missing.append(flag)
    assert not missing, f"options of {name} the docs do not mention: {missing}"


def test_the_guide_tables_every_option_of_the_three_commands():
    """The guide's option tables are checked against the commands themselves."""
    text = guide_text()
    for name, command in all_commands().items():
        if name.startswith("tenflang"):
            continue
        for param in command.params:
            if isinstance(param, click.Option) and "--help" not in param.opts:
                flag = max(param.opts, key=len)
                assert f"`{flag}" in text, f"{name}: {flag} is not in the guide's option tables"


# ----------------------------------------------------------------------------- the harness itself

@pytest.mark.parametrize("expected,actual,ok", [
    (["a", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a", "...", "d"], ["a", "b", "c", "d"], True),
    (["a", "...", "d"], ["a", "d"], True),
    (["...", "d"], ["a", "x"], False),
    (["w: 1.69..."], ["w: 1.6999999368909218"], True),
    (["w: 1.69..."], ["w: 1.7"], False),
    (["a"], ["a", "b"], False),
])
def test_output_matching(expected, actual, ok):
    assert output_matches(expected, actual) is ok


def test_console_parsing():
    block = Block(Path("x.md"), 10, "console", [], textwrap.dedent("""\
        $ tfcompiler bad.tf
        bad.tf:1:1: error: ...
        [2]
        $ echo a \\
        > b
        a b
        """))
    assert commands(block) == [("tfcompiler bad.tf", ["bad.tf:1:1: error: ...", "[2]"], 11),
                               ("echo a \nb", ["a b"], 14)]


BUILT = {"build", "dist"}  # copies pip leaves behind, not the project's files


def test_citations_point_inside_the_repository():
    """Code and docs cite the project's own design page (docs/design.md), never a
    file outside the repository."""
    outside = re.compile(r"\.\./shared|DESIGN\.md|DESIGN §")
    files = [p for p in ROOT.rglob("*") if p.is_file() and p.suffix in
             (".py", ".md", ".lark", ".sh", ".cfg", ".toml", ".tf", ".c")
             and not any(part.startswith(".") or part in BUILT
                         for part in p.relative_to(ROOT).parts)]
    cited = [f"{p.relative_to(ROOT)}:{n}" for p in files
             for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1)
             if outside.search(line) and p.name != "test_docs.py"]
    assert cited == [], f"cite docs/design.md instead: {cited}"
