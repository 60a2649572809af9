"""Issue 54, experiment 3: every wait for git has a deadline proportionate to the call,
and a long one says what it waits for.

A ``git`` that never answers ``git rev-parse`` (which takes milliseconds) held a real
``mkdocs build`` for the whole default ``git_timeout`` (300 s) with nothing printed.
Now a query that short is stopped within 30 s, and any wait for git longer than 10 s is
an INFO naming git, the command and the option that bounds it, printed as it happens.
Real ``mkdocs build`` processes; a ``git`` first on PATH that runs the real one except
for the subcommand that hangs.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.dates import D1, D2
from tests.support.git import alive, git_env, hanging_git
from tests.support.schemas import parse_sitemap
from tests.support.sites import Site


def _site(root: Path, **options: object) -> Site:
    site = Site(root)
    site.repo.write(".gitignore", "site/\n")
    site.set_options(lastmod_fallback="build_time", **options)
    site.page("index.md")
    site.page("a.md")
    site.commit("docs", D1)
    site.page("a.md", "# A\nchanged\n")
    site.commit("a", D2)
    return site


class _Run:
    """A real process started now; each line of its standard error kept with the seconds
    since the start at which it arrived."""

    def __init__(self, args: list[str], site: Site, env: dict[str, str]) -> None:
        self.site = site
        self.start = time.monotonic()
        self.proc = subprocess.Popen(args, cwd=site.root, env=git_env(env),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines: list[tuple[float, str]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append((time.monotonic() - self.start, line.rstrip("\n")))

    def finish(self, limit: float) -> tuple[list[tuple[float, str]], int]:
        """The lines and the exit status; killed (and the test failed) past ``limit``
        seconds from the start."""
        try:
            status = self.proc.wait(timeout=max(0.0, self.start + limit - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"{self.proc.args} still waited after {limit} s: {self.lines}") from None
        self._reader.join(5)
        return self.lines, status


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[_Run, Path]]]:
    """Each test's run against a git that hangs (with the folder of the hanging ``git``),
    started together: each waits out a deadline of 13 to 30 s, so they wait at once."""
    base = tmp_path_factory.mktemp("git_waits")
    build = ["mkdocs", "build"]
    epoch = {"SOURCE_DATE_EPOCH": "1735689600"}  # the build_time fallback's date
    plan: dict[str, tuple[dict[str, object], str, list[str], dict[str, str]]] = {
        "rev-parse": ({}, "rev-parse", build, epoch),
        "log": ({"git_timeout": 13}, "log", build, epoch),
        "versions": ({}, "rev-parse", ["mkdocs_sitemap_pro", "versions"], {}),
    }
    started: dict[str, tuple[_Run, Path]] = {}
    try:
        for name, (options, subcommand, command, extra) in plan.items():
            site = _site(base / name / "project", **options)
            folder = base / name / "hang"
            env = {**hanging_git(folder, subcommand), **extra}
            started[name] = (_Run([sys.executable, "-m", *command], site, env), folder)
        yield started
    finally:
        for run, _ in started.values():
            if run.proc.poll() is None:
                run.proc.kill()
            run.proc.wait()


def _lastmods(site: Site) -> set[str | None]:
    root = parse_sitemap(site.root / "site" / "sitemap.xml")
    return {next((c.text for c in url if c.tag.endswith("lastmod")), None) for url in root}


def test_a_git_rev_parse_that_never_answers_is_said_and_stopped_within_30_s(runs):
    """The default git_timeout (300 s): the query is stopped long before it."""
    run, folder = runs["rev-parse"]
    lines, status = run.finish(limit=60)
    assert status == 0, lines
    said = [(when, text) for when, text in lines if "waiting for git" in text]
    assert len(said) == 1, lines
    when, text = said[0]
    assert text.startswith("INFO") and 9 <= when <= 15, said
    assert "`git rev-parse`" in text and "git_timeout" in text and "30 s" in text, text
    warnings = [text for _, text in lines if text.startswith("WARNING")]
    assert len(warnings) == 1, lines
    assert "git rev-parse did not answer within 30 s" in warnings[0], warnings
    assert "lastmod_fallback" in warnings[0] and "git rev-parse HEAD" in warnings[0], warnings
    assert lines[-1][0] < 45, lines
    assert _lastmods(run.site) == {"2025-01-01T00:00:00+00:00"}
    time.sleep(0.2)
    assert not alive(folder / "sleep.pid")


def test_a_long_git_log_is_said_with_the_option_that_bounds_it(runs):
    """A walk gets the whole git_timeout, and is said after 10 s of it."""
    run, folder = runs["log"]
    lines, status = run.finish(limit=40)
    assert status == 0, lines
    said = [(when, text) for when, text in lines if "waiting for git" in text]
    assert len(said) == 1, lines
    when, text = said[0]
    assert text.startswith("INFO") and 9 <= when <= 13, said
    assert "`git log`" in text and "git_timeout: 13 s" in text, text
    warnings = [text for _, text in lines if text.startswith("WARNING")]
    assert len(warnings) == 1 and "git did not answer within 13 s" in warnings[0], lines
    assert "raise git_timeout" in warnings[0], warnings
    assert _lastmods(run.site) == {"2025-01-01T00:00:00+00:00"}
    time.sleep(0.2)
    assert not alive(folder / "sleep.pid")


def test_versions_with_a_git_that_never_answers_stops_within_30_s(runs):
    """`versions` sets no git_timeout: its git calls still have a deadline (a query's
    30 s), and the command says which call it gave up on, exit 2, no traceback."""
    run, folder = runs["versions"]
    lines, status = run.finish(limit=90)
    stderr = "\n".join(text for _, text in lines)
    assert status == 2, stderr
    assert time.monotonic() - run.start < 45
    assert "Traceback" not in stderr
    assert "git rev-parse did not answer within 30 s" in stderr, stderr
    time.sleep(0.2)
    assert not alive(folder / "sleep.pid")
