"""The build's history map: kept in ``cache_dir`` (or nowhere), brought forward, and
never waited for longer than ``git_timeout``; SIGINT and SIGTERM leave no git behind.

Real ``mkdocs build`` processes in real repositories; a ``git`` first on PATH counts
git's processes, or hangs on ``git log`` as git on a dead network share would.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.dates import D1, D2, day, utc
from tests.support.git import alive, git_date, git_env, hanging_git
from tests.support.git_calls import GitCalls, subcommand
from tests.support.signals import default_signals
from tests.support.sites import SITE_URL, Site

PLUGIN_LOGGER = "mkdocs.plugins.sitemap-pro"


def two_pages(site: Site, **options: object) -> None:
    site.set_options(**options)
    site.page("index.md")
    site.page("a.md")
    site.commit("docs", D1)
    site.page("a.md", "# A\nchanged\n")
    site.commit("a", D2)


def files_outside(root: Path, site_dir: Path) -> set[str]:
    """Every file under ``root`` but those in ``site_dir`` and git's own."""
    return {
        str(p.relative_to(root)) for p in root.rglob("*")
        if p.is_file() and site_dir not in p.parents and ".git" not in p.relative_to(root).parts
    }


def git_logs(calls: GitCalls) -> list[str]:
    return [c for c in calls.take() if subcommand(c) == "log"]


def test_a_second_build_runs_no_git_log_and_a_new_commit_is_read_alone(
    site: Site, tmp_path: Path
) -> None:
    """Separate ``mkdocs build`` processes: the map is kept in cache_dir by HEAD."""
    two_pages(site)
    calls = GitCalls(tmp_path / "calls")
    first = site.cli("build", "-q", env=calls.env)
    assert first.returncode == 0, first.stderr
    assert len(git_logs(calls)) == 1
    store = site.root / ".cache/plugin/sitemap-pro/history.json"
    assert store.is_file()
    again = site.cli("build", "-q", env=calls.env)
    assert again.returncode == 0, again.stderr
    # No walk: one batched `log --no-walk` confirms the kept dates and files with git.
    assert [c.split(" log ")[1] for c in git_logs(calls)] == [
        "--no-walk=unsorted --stdin -m --raw --no-renames --no-abbrev -z --date=raw "
        "--format=%x01%H %cd --"]
    site.page("index.md", "# Home\nnew\n")
    site.commit("index", day(300))
    third = site.cli("build", "-v", env=calls.env)
    assert third.returncode == 0, third.stderr
    assert len([c for c in git_logs(calls) if "--no-walk" not in c]) == 1
    assert "git history: the kept map brought forward, 1 new commit read" in third.stderr, third.stderr[-3000:]
    urls = site.build().sitemap()
    assert urls[SITE_URL]["lastmod"] == utc(day(300)) == git_date(site.root, "docs/index.md")
    assert urls[SITE_URL + "a/"]["lastmod"] == utc(D2)


def test_cache_false_writes_nothing_outside_site_dir(site: Site, tmp_path: Path) -> None:
    two_pages(site, cache=False)
    before = files_outside(site.root, site.root / "site")
    calls = GitCalls(tmp_path / "calls")
    for _ in range(2):
        built = site.build(strict=True, env=calls.env)
        assert built.sitemap()[SITE_URL + "a/"]["lastmod"] == utc(D2)
    assert files_outside(site.root, site.root / "site") == before
    assert len(git_logs(calls)) == 2  # nothing kept: each build walks


def test_cache_dir_is_relative_to_mkdocs_yml(site: Site) -> None:
    two_pages(site, cache_dir="build-cache/sitemap")
    elsewhere = site.root / "sub"
    elsewhere.mkdir()
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f",
                             str(site.root / "mkdocs.yml")], cwd=elsewhere,
                            env=git_env(), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    kept = sorted(p.name for p in (site.root / "build-cache/sitemap").iterdir())
    assert kept == ["dependencies.json", "history.json"]
    assert not (site.root / ".cache").exists() and not list(elsewhere.iterdir())


def test_a_damaged_map_is_walked_again(site: Site) -> None:
    two_pages(site)
    assert site.build(strict=True).error is None
    store = site.root / ".cache/plugin/sitemap-pro/history.json"
    store.write_text('{"format": "mkdocs-sitemap-pro history map", "version": 1, "files": 3}')
    built = site.build(strict=True)
    assert built.sitemap()[SITE_URL + "a/"]["lastmod"] == utc(D2)
    assert "git history: walked" in " ".join(built.messages(logging.DEBUG))
    assert store.read_text().startswith("{") and '"files":{' in store.read_text()


def _hanging_git(folder: Path) -> tuple[dict[str, str], Path]:
    """A ``git`` whose ``git log`` hangs (its process ids in ``folder``)."""
    return hanging_git(folder, "log"), folder


def _end(folder: Path) -> None:
    for name in ("sleep.pid", "git.pid"):
        path = folder / name
        if path.exists():
            try:
                os.kill(int(path.read_text()), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass


def test_git_timeout_ends_a_hanging_git_and_the_build_goes_on(
    site: Site, tmp_path: Path
) -> None:
    two_pages(site, git_timeout=1, lastmod_fallback="build_time")
    env, folder = _hanging_git(tmp_path / "hang")
    try:
        start = time.monotonic()
        built = site.build(env={**env, "SOURCE_DATE_EPOCH": "1735689600"})
        waited = time.monotonic() - start
        assert built.error is None, built.messages()
        assert waited < 15, waited
        warnings = [r.getMessage() for r in built.records
                    if r.name == PLUGIN_LOGGER and r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "within 1" in warnings[0] and "git_timeout" in warnings[0], warnings
        urls = built.sitemap()
        assert {u["lastmod"] for u in urls.values()} == {"2025-01-01T00:00:00+00:00"}
        assert not alive(folder / "sleep.pid") and not alive(folder / "git.pid")
        assert site.build(strict=True, env=env).error is not None  # --strict fails
        assert not (site.root / ".cache/plugin/sitemap-pro/history.json").exists()
    finally:
        _end(folder)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_build_and_git_at_once(
    site: Site, tmp_path: Path, signum: int
) -> None:
    """Sent to the MkDocs process alone (as a CI runner does), not to its group."""
    two_pages(site)
    env, folder = _hanging_git(tmp_path / "hang")
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=site.root,
                            env=git_env(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_signals)
    try:
        deadline = time.monotonic() + 60
        while not (folder / "sleep.pid").exists() and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        assert (folder / "sleep.pid").exists(), "git log never started"
        os.kill(proc.pid, signum)
        proc.wait(timeout=10)
        assert proc.returncode != 0
        time.sleep(0.2)
        assert not alive(folder / "sleep.pid") and not alive(folder / "git.pid")
    finally:
        proc.kill()
        proc.wait()
        _end(folder)


def test_a_build_starts_git_and_nothing_else(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """No child interpreter (it put the project folder first on its ``sys.path``, could be
    left a zombie, and had no switch): every process a build starts is git."""
    two_pages(site)
    started: list[list[str]] = []
    real_init = subprocess.Popen.__init__

    def spy(self: subprocess.Popen[bytes], args: object, *rest: object, **kwargs: object) -> None:
        started.append([os.fsdecode(a) for a in args] if isinstance(args, (list, tuple))
                       else [str(args)])
        real_init(self, args, *rest, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(subprocess.Popen, "__init__", spy)
    built = site.build(strict=True)
    assert built.sitemap()[SITE_URL + "a/"]["lastmod"] == utc(D2)
    assert started and {os.path.basename(argv[0]) for argv in started} == {"git"}, started


def test_a_kept_map_git_cannot_confirm_in_time_is_walked_again(site: Site, tmp_path: Path) -> None:
    # The check of the kept map hangs (its `log --raw`): the map is not believed, the
    # history is walked, and every page keeps its date (no warning, no fallback).
    two_pages(site, git_timeout=2)
    first = site.build(strict=True)
    assert first.error is None, first.messages()
    env, folder = hanging_git(tmp_path / "hang", "--raw"), tmp_path / "hang"
    try:
        again = site.build(strict=True, env=env)
        assert again.error is None, again.messages()
        assert again.sitemap() == first.sitemap()
        debug = " ".join(again.messages(logging.DEBUG))
        assert "git did not confirm it in time" in debug and "git history: walked" in debug
        assert not alive(folder / "sleep.pid")
    finally:
        _end(folder)
