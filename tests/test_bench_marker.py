"""The benchmarks' smoke tests are marked ``bench`` and left out of a plain test run.

They take minutes and need valgrind: ``python -m pytest`` (pyproject's addopts) must not
collect them, and ``-m bench`` (as .ci/run runs them) must. Only collected, never run.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support import REPO


def _collect(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *args, "tests/bench"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    return res.stdout + res.stderr


def test_a_plain_run_collects_no_bench_test() -> None:
    out = _collect()
    assert "test_bench_quick" not in out, out
    assert "deselected" in out, out


def test_dash_m_bench_collects_every_bench_test() -> None:
    out = _collect("-m", "bench")
    assert out.count("tests/bench/test_smoke.py::test_bench_quick[") >= 7, out  # one per bench
    assert "deselected" not in out, out
