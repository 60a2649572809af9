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

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.support.dates import D1, D2
from tests.support.git import alive, git_env, hanging_git
from tests.support.schemas import parse_sitemap
from tests.support.sites import Site


def _site(site: Site, **options: object) -> None:
    site.set_options(lastmod_fallback="build_time", **options)
    site.page("index.md")
    site.page("a.md")
    site.commit("docs", D1)
    site.page("a.md", "# A\nchanged\n")
    site.commit("a", D2)


def _build(site: Site, env: dict[str, str], limit: float) -> tuple[list[tuple[float, str]], int]:
    """Run ``mkdocs build``; each line of its log with the seconds since the start at
    which it arrived, and the exit status. Killed (and the test failed) past ``limit``."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "build"], cwd=site.root,
                            env=git_env({**env, "SOURCE_DATE_EPOCH": "1735689600"}),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: list[tuple[float, str]] = []

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append((time.monotonic() - start, line.rstrip("\n")))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        status = proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"mkdocs build still waited after {limit} s: {lines}") from None
    reader.join(5)
    return lines, status


def _lastmods(site: Site) -> set[str | None]:
    root = parse_sitemap(site.root / "site" / "sitemap.xml")
    return {next((c.text for c in url if c.tag.endswith("lastmod")), None) for url in root}


def test_a_git_rev_parse_that_never_answers_is_said_and_stopped_within_30_s(site, tmp_path):
    """The default git_timeout (300 s): the query is stopped long before it."""
    _site(site)
    folder = tmp_path / "hang"
    lines, status = _build(site, hanging_git(folder, "rev-parse"), limit=60)
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
    assert _lastmods(site) == {"2025-01-01T00:00:00+00:00"}
    time.sleep(0.2)
    assert not alive(folder / "sleep.pid")


def test_a_long_git_log_is_said_with_the_option_that_bounds_it(site, tmp_path):
    """A walk gets the whole git_timeout, and is said after 10 s of it."""
    _site(site, git_timeout=13)
    folder = tmp_path / "hang"
    lines, status = _build(site, hanging_git(folder, "log"), limit=40)
    assert status == 0, lines
    said = [(when, text) for when, text in lines if "waiting for git" in text]
    assert len(said) == 1, lines
    when, text = said[0]
    assert text.startswith("INFO") and 9 <= when <= 13, said
    assert "`git log`" in text and "git_timeout: 13 s" in text, text
    warnings = [text for _, text in lines if text.startswith("WARNING")]
    assert len(warnings) == 1 and "git did not answer within 13 s" in warnings[0], lines
    assert "raise git_timeout" in warnings[0], warnings
    assert _lastmods(site) == {"2025-01-01T00:00:00+00:00"}
    time.sleep(0.2)
    assert not alive(folder / "sleep.pid")


def test_versions_with_a_git_that_never_answers_stops_within_30_s(site, tmp_path):
    """`versions` sets no git_timeout: its git calls still have a deadline (a query's
    30 s), and the command says which call it gave up on, exit 2, no traceback."""
    _site(site)
    folder = tmp_path / "hang"
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "mkdocs_sitemap_pro", "versions"],
                            cwd=site.root, env=git_env(hanging_git(folder, "rev-parse")),
                            capture_output=True, text=True, timeout=90)
    assert result.returncode == 2, result.stderr
    assert time.monotonic() - start < 45
    assert "Traceback" not in result.stderr
    assert "git rev-parse did not answer within 30 s" in result.stderr, result.stderr
    time.sleep(0.2)
    assert not alive(folder / "sleep.pid")
