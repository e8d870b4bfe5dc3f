"""Runs many TenFlang commands in one interpreter (see `commands.run_cli_batch`).

Reads a JSON list of argument lists on stdin; each list's first word names the
command (`tenflang`, `tfcompiler`, `tfweightcalc`, `tfevaluate`), which runs
through the click entry point the console scripts call, with its own captured
stdout and stderr and its own exit status.  An exception escaping a command is
printed as a traceback on its stderr, as the real script would.  Writes a JSON
list of [exit code, stdout, stderr] on stdout."""
import contextlib, io, json, sys, traceback
from tenflang import cli
commands = {"tenflang": cli.main, "tfcompiler": cli.tfcompiler,
            "tfweightcalc": cli.tfweightcalc, "tfevaluate": cli.tfevaluate}
results = []
for args in json.load(sys.stdin):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            commands[args[0]].main(args[1:], prog_name=args[0])
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    results.append([code, out.getvalue(), err.getvalue()])
sys.__stdout__.write(json.dumps(results))
