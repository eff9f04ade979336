"""Run every ``benchmarks/bench_*.py`` and write ``benchmarks/RESULTS.md`` (``make bench``).

Each script runs in its own process (``python benchmarks/bench_x.py --quick``, or without
``--quick`` when ``--full`` is given) from the repository root, and what it prints to
stdout becomes one section of the report.  The contract (see ``benchmarks/README.md``):
a script that prints a markdown section starting with ``## `` is pasted as is; any other
output is kept verbatim in a code block under a heading made from the script's name and
the first line of its docstring.  A script that does not know ``--quick`` (argparse's
"unrecognized arguments") is run again without it.  A failing script gets a FAILED
section with the end of its stderr, the others still run, and the exit code is 1.

The report starts with the machine it was measured on (CPU model, cores, Python and
numpy versions, date), because speed numbers mean nothing without it; the benchmarks
themselves print ratios measured in the same run, which travel better.

Usage: python scripts/run_benchmarks.py [--full] [--only SUBSTRING] [--output PATH]
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Outcome:
    script: Path
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    note: str = ""


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _version(module: str) -> str:
    try:
        return __import__(module).__version__
    except Exception:  # a missing package is reported, not fatal
        return "not installed"


def _git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine_table(full: bool) -> str:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    rows = [
        ("date (UTC)", dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M")),
        ("CPU", cpu_model()),
        ("cores", f"{os.cpu_count()} logical, {usable} usable by this process"),
        ("OS", platform.platform()),
        ("Python", platform.python_version()),
        ("numpy", _version("numpy")),
        ("scipy", _version("scipy")),
        ("networkx", _version("networkx")),
        ("commit", _git_commit()),
        ("mode", "full" if full else "quick (`--quick`; `make bench-full` for the full runs)"),
    ]
    return "| | |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)


def docstring_title(script: Path) -> str:
    try:
        doc = ast.get_docstring(ast.parse(script.read_text()))
    except (SyntaxError, OSError, ValueError):
        doc = None
    if not doc:
        return ""
    paragraph = " ".join(doc.strip().split("\n\n")[0].split())  # the first paragraph, one line
    return re.split(r"(?<=[^.])\.\s+(?=[A-Z])", paragraph)[0].rstrip(".")  # its first sentence


def run_script(script: Path, full: bool, timeout: float) -> Outcome:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               MPLBACKEND="Agg")

    def attempt(args):
        start = time.perf_counter()
        try:
            p = subprocess.run([sys.executable, str(script), *args], cwd=ROOT, env=env, capture_output=True,
                               text=True, timeout=timeout)
            return Outcome(script, p.returncode, p.stdout, p.stderr, time.perf_counter() - start)
        except subprocess.TimeoutExpired as err:
            out = err.stdout.decode() if isinstance(err.stdout, bytes) else (err.stdout or "")
            return Outcome(script, -1, out, f"timed out after {timeout:.0f} s", time.perf_counter() - start)

    if full:
        return attempt([])
    outcome = attempt(["--quick"])
    if outcome.returncode == 2 and "unrecognized arguments: --quick" in outcome.stderr:
        outcome = attempt([])
        outcome.note = "this script has no `--quick`; it ran in full"
    return outcome


def section(outcome: Outcome) -> str:
    name = outcome.script.name
    title = docstring_title(outcome.script)
    head = f"## {name}" + (f" — {title}" if title else "")
    text = outcome.stdout.strip("\n")
    meta = f"*`{name}` ran in {outcome.seconds:.1f} s" + (f"; {outcome.note}" if outcome.note else "") + ".*"
    if outcome.returncode != 0:
        tail = "\n".join(outcome.stderr.strip().splitlines()[-25:])
        body = f"**FAILED** (exit code {outcome.returncode}).\n\n```text\n{text}\n\n--- stderr (end) ---\n{tail}\n```"
        return f"{head}\n\n{body}\n\n{meta}\n"
    first = next((line for line in text.splitlines() if line.strip()), "")
    if first.startswith("## "):  # the script follows the contract: a markdown section
        return f"{text}\n\n{meta}\n"
    return f"{head}\n\n```text\n{text}\n```\n\n{meta}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="run the full-size benchmarks (no --quick)")
    parser.add_argument("--only", default="", help="run only the scripts whose name contains this")
    parser.add_argument("--bench-dir", type=Path, default=ROOT / "benchmarks")
    parser.add_argument("--output", type=Path, default=None, help="default: <bench-dir>/RESULTS.md")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per script")
    args = parser.parse_args(argv)
    scripts = sorted(p for p in args.bench_dir.glob("bench_*.py") if args.only in p.name)
    output = args.output or args.bench_dir / "RESULTS.md"
    if not scripts:
        print(f"no benchmarks/bench_*.py matching {args.only!r} in {args.bench_dir}", file=sys.stderr)
        return 1
    outcomes = []
    for script in scripts:
        print(f"running {script.name} {'' if args.full else '--quick'} ...", flush=True)
        outcome = run_script(script, args.full, args.timeout)
        status = "ok" if outcome.returncode == 0 else f"FAILED (exit code {outcome.returncode})"
        print(f"  {status} in {outcome.seconds:.1f} s", flush=True)
        outcomes.append(outcome)
    failed = [o.script.name for o in outcomes if o.returncode != 0]
    parts = [
        "# Benchmark results\n",
        "Written by `make bench` (`scripts/run_benchmarks.py`); every section is what one "
        "`benchmarks/bench_*.py` printed. Speed is reported as ratios against a reference run in "
        "the same process (networkx, the naive learners), so compare ratios across machines, not "
        "absolute times.\n",
        "## Machine\n",
        machine_table(args.full) + "\n",
        "## Contents\n",
        "\n".join(f"- `{o.script.name}`" + (" — **FAILED**" if o.returncode else "") for o in outcomes) + "\n",
    ]
    parts += [section(o) for o in outcomes]
    output.write_text("\n".join(parts))
    print(f"wrote {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
