"""scripts/run_benchmarks.py (make bench) on tiny fake benchmark scripts."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("run_benchmarks", ROOT / "scripts" / "run_benchmarks.py")
rb = importlib.util.module_from_spec(spec)
sys.modules["run_benchmarks"] = rb  # dataclasses look their module up while the class is built
spec.loader.exec_module(rb)

MARKDOWN = '''"""Benchmark: a script that follows the contract."""
import sys
print("## bench_a.py — contract")
print("| quick |", "--quick" in sys.argv, "|")
'''
OLD_STYLE = '''"""Benchmark: an old script without --quick.

More text.
"""
import argparse
argparse.ArgumentParser().parse_args()
print("speed-up 12x")
'''
FAILING = '''import sys
print("half a line")
sys.exit("boom: the fast and naive learners disagree")
'''


@pytest.fixture
def bench_dir(tmp_path):
    d = tmp_path / "benchmarks"
    d.mkdir()
    (d / "bench_a.py").write_text(MARKDOWN)
    (d / "bench_b.py").write_text(OLD_STYLE)
    (d / "bench_c.py").write_text(FAILING)
    (d / "helper.py").write_text("raise SystemExit('not a benchmark, never run')\n")
    return d


def test_report_collects_every_script_and_notes_the_machine(bench_dir, capsys):
    out = bench_dir / "RESULTS.md"
    assert rb.main(["--bench-dir", str(bench_dir)]) == 1  # bench_c failed
    text = out.read_text()
    assert text.startswith("# Benchmark results")
    for key in ("| CPU |", "| cores |", "| Python |", "| numpy |", "| date (UTC) |"):
        assert key in text
    # the contract's markdown is pasted as is, and got --quick
    assert "## bench_a.py — contract\n| quick | True |" in text
    # an old-style script: rerun without --quick, its output kept in a code block
    assert "## bench_b.py — Benchmark: an old script without --quick\n\n```text\nspeed-up 12x\n```" in text
    assert "no `--quick`; it ran in full" in text
    # a failure is reported with its stderr, the others still ran
    assert "## bench_c.py\n\n**FAILED** (exit code 1)" in text and "boom: the fast and naive learners disagree" in text
    assert "helper.py" not in text
    assert "FAILED: bench_c.py" in capsys.readouterr().out


def test_full_and_only(bench_dir, tmp_path):
    out = tmp_path / "r.md"
    assert rb.main(["--bench-dir", str(bench_dir), "--only", "bench_a", "--full", "--output", str(out)]) == 0
    text = out.read_text()
    assert "| quick | False |" in text and "bench_b" not in text and "| mode | full |" in text
    assert rb.main(["--bench-dir", str(bench_dir), "--only", "zzz"]) == 1


def test_timeout_is_reported_as_a_failure(tmp_path):
    (tmp_path / "bench_slow.py").write_text("import time\nprint('started', flush=True)\ntime.sleep(30)\n")
    out = tmp_path / "r.md"
    assert rb.main(["--bench-dir", str(tmp_path), "--timeout", "2", "--output", str(out)]) == 1
    assert "timed out after 2 s" in out.read_text()
