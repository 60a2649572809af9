"""HistoryRead: paths added while the walk runs get git's own per-file answer, in one walk.

The files added late are what a page includes: files outside docs_dir (``src/pkg/_impl.py``,
``CONTRIBUTING.md`` at the top), some passed by the walk before they were asked for
(answered from memory), some older than every page (answered by reading on). Each answer
is compared with ``git log -1 [--first-parent] -- <file>`` for that one file, under both
rules and both dates, on a history with merges.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git import GitHistory, HistoryRead, Known, Unknown
from mkdocs_sitemap_pro.core.git.child import ChildRead, HistoryProcess
from tests.support.dates import day
from tests.support.git import DATES, RULES, GitRepo, git_env, reference


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith("GIT_"):
            monkeypatch.delenv(key)
    for key, value in git_env().items():
        monkeypatch.setenv(key, value)


PAGES = ["docs/index.md", "docs/api.md", "docs/guide.md"]
LATE = ["src/pkg/_impl.py", "src/pkg/__init__.py", "CONTRIBUTING.md", "docs/snippets/s.md",
        "examples/app.py"]


def _repo(tmp_path: Path) -> GitRepo:
    """A history in which dependency files change before, between and after the pages."""
    repo = GitRepo(tmp_path / "r")
    repo.write("CONTRIBUTING.md", "old\n")
    repo.write("examples/app.py", "print(1)\n")  # older than every page: read on for it
    repo.commit("root", day(1))
    for page in PAGES:
        repo.write(page, f"# {page}\n")
    repo.write("src/pkg/__init__.py", "from pkg._impl import Thing\n")
    repo.write("src/pkg/_impl.py", "class Thing: ...\n")
    repo.write("docs/snippets/s.md", "s1\n")
    repo.commit("pages", day(3))
    repo.git("checkout", "-q", "-b", "side")
    repo.write("src/pkg/_impl.py", "class Thing:\n    'side'\n")
    repo.commit("side impl (older than the merge)", day(4))
    repo.write("CONTRIBUTING.md", "side\n")
    repo.commit("side contributing", day(6))
    repo.git("checkout", "-q", "main")
    repo.write("docs/api.md", "# API\n\n::: pkg.Thing\n")
    repo.commit("api page", day(5))
    repo.merge("side", day(8))
    repo.write("docs/snippets/s.md", "s2\n")  # newest: passed before it is asked for
    repo.commit("snippet", day(9))
    repo.write("untracked.txt", "not committed\n")
    return repo


@pytest.fixture(params=["thread", "child"])
def where(request: pytest.FixtureRequest) -> Iterator[HistoryProcess | None]:
    """Where the read runs: a thread of this process (``HistoryRead``), or the plugin's
    child process (``HistoryProcess``), which must give the very same answers."""
    if request.param == "thread":
        yield None
    else:
        process = HistoryProcess()
        yield process
        process.shutdown()


def _live(top: Path, history: str, date: str, late: list[Path], *, wait: bool,
          where: HistoryProcess | None = None) -> GitHistory:
    """Start a read for the pages; add ``late`` while it runs (after its first answers)."""
    pages = [top / p for p in PAGES]
    read: HistoryRead | ChildRead
    if where is None:
        read = HistoryRead(top / "docs", pages, history=history, date=date)  # type: ignore[arg-type]
    else:
        read = where.read(top / "docs", pages, history=history, date=date)  # type: ignore[arg-type]
    result: list[GitHistory] = []
    worker = threading.Thread(target=lambda: result.append(read.run()))
    worker.start()
    if wait:
        worker.join(0.5)  # the walk answers the pages, then waits for more
        assert worker.is_alive(), "a read that is not closed waits for more paths"
    read.add(late[:2])
    read.add(late[2:])
    read.close()
    worker.join(30)
    assert not worker.is_alive()
    return result[0]


@pytest.mark.parametrize("wait", [False, True], ids=["at-once", "after-the-pages"])
def test_late_paths_agree_with_git(tmp_path: Path, wait: bool,
                                   where: HistoryProcess | None) -> None:
    repo = _repo(tmp_path)
    top = repo.path
    outside = tmp_path / "outside.md"
    outside.write_text("x\n", encoding="utf-8")
    late = [top / p for p in LATE] + [top / "untracked.txt", outside]
    for history in RULES:
        for date in DATES:
            result = _live(top, history, date, late, wait=wait, where=where)
            assert result.warnings == ()
            if where is not None:
                assert where.pid is not None and where.pid != os.getpid()
                assert where.failure is None, where.failure
            assert result.top == os.path.realpath(top)
            for rel in PAGES + LATE:
                got = result.last_changed(top / rel)
                expected = reference(top, rel, history, date)
                assert expected is not None and isinstance(got, Known), (rel, history, got)
                assert (got.commit, got.when) == expected, (rel, history, date)
            assert result.last_changed(top / "untracked.txt") == Unknown("untracked")
            assert result.last_changed(outside) == Unknown("untracked")
            assert result.relative(top / "src/pkg/_impl.py") == "src/pkg/_impl.py"
            assert result.relative(outside) is None


def test_first_parent_and_all_differ_on_a_late_path(tmp_path: Path,
                                                    where: HistoryProcess | None) -> None:
    """The side branch's _impl.py change is dated by the merge under first-parent only."""
    repo = _repo(tmp_path)
    late = [repo.path / "src/pkg/_impl.py"]
    fp = _live(repo.path, "first-parent", "committer", late, wait=True,
               where=where).last_changed(late[0])
    al = _live(repo.path, "all", "committer", late, wait=True, where=where).last_changed(late[0])
    assert isinstance(fp, Known) and isinstance(al, Known)
    assert fp.when.isoformat() == day(8) and al.when.isoformat() == day(4)


def test_a_read_outside_a_repository_answers_late_paths_too(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    read = HistoryRead(folder, [folder / "a.md"])
    read.add([folder / "b.md"])
    read.close()
    result = read.run()
    assert result.last_changed(folder / "b.md") == Unknown("not-a-repo")
    assert result.top is None and result.relative(folder / "a.md") is None


def test_the_key_is_known_before_any_path_is_asked(tmp_path: Path) -> None:
    """A rebuild asks for paths only once it knows whether HEAD moved: ``key`` answers
    while the read still waits for its first path, and changes with a commit."""
    repo = _repo(tmp_path)
    top = repo.path
    read = HistoryRead(top / "docs", [])
    result: list[GitHistory] = []
    worker = threading.Thread(target=lambda: result.append(read.run()))
    worker.start()
    key = read.key()
    assert worker.is_alive(), "no path asked yet: the read still waits"
    assert key is not None and key.head == repo.git("rev-parse", "HEAD").strip()
    read.add([top / "docs/api.md"])
    read.close()
    worker.join(30)
    history = result[0]
    assert history.key == key
    assert history.answered(top / "docs/api.md") and not history.answered(top / "docs/index.md")
    repo.write("docs/index.md", "# changed\n")
    repo.commit("later", day(10))
    again = HistoryRead(top / "docs", [top / "docs/index.md"])
    again.close()
    assert again.run().key != key
    outside = HistoryRead(tmp_path, [])
    outside.close()
    assert outside.run().key is None and outside.key() is None


def test_an_update_lays_the_later_answers_over_the_earlier(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    top = repo.path
    first = GitHistory.read(top / "docs", [top / p for p in PAGES])
    repo.write("docs/guide.md", "# guide, later\n")
    repo.commit("guide", day(11))
    later = GitHistory.read(top / "docs", [top / "docs/guide.md"])
    merged = first.updated(later)
    assert merged.key == later.key != first.key
    assert merged.last_changed(top / "docs/guide.md") == later.last_changed(top / "docs/guide.md")
    assert merged.last_changed(top / "docs/api.md") == first.last_changed(top / "docs/api.md")
    assert isinstance(merged.last_changed(top / "docs/guide.md"), Known)
    assert merged.last_changed(top / "docs/guide.md") != first.last_changed(top / "docs/guide.md")


def _answers(history: GitHistory, paths: list[Path]) -> list[object]:
    return [history.last_changed(p) for p in paths]


def _run_in_thread(read: ChildRead) -> tuple[threading.Thread, list[GitHistory]]:
    result: list[GitHistory] = []
    worker = threading.Thread(target=lambda: result.append(read.run()))
    worker.start()
    return worker, result


def test_the_child_keeps_answers_across_reads_until_told_to_forget(tmp_path: Path) -> None:
    """The memo lives in the child (``mkdocs serve`` keeps it): a second read of the same
    HEAD walks no history; ``forget`` makes the next one walk again; a new commit too."""
    repo = _repo(tmp_path)
    top = repo.path
    paths = [top / p for p in PAGES + LATE]
    process = HistoryProcess()
    try:
        reads = []
        for _ in range(2):
            read = process.read(top / "docs", paths)
            read.close()
            reads.append(read.run())
        pid = process.pid
        assert reads[0].commits_read > 0 and reads[1].commits_read == 0
        assert process.hits == 1
        assert _answers(reads[1], paths) == _answers(reads[0], paths)
        assert _answers(reads[0], paths) == _answers(GitHistory.read(top / "docs", paths), paths)
        process.forget()
        read = process.read(top / "docs", paths)
        read.close()
        assert read.run().commits_read > 0
        repo.write("docs/guide.md", "# guide, later\n")
        repo.commit("guide", day(12))
        read = process.read(top / "docs", paths)
        read.close()
        moved = read.run()
        assert moved.commits_read > 0 and moved.key != reads[0].key
        guide = moved.last_changed(top / "docs/guide.md")
        assert isinstance(guide, Known) and guide.when.isoformat() == day(12)
        assert process.pid == pid and read.fallback is None, "one child for every read"
    finally:
        process.shutdown()
    assert process.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # ended, and waited for


def test_a_child_that_cannot_start_leaves_the_read_to_this_process(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    top = repo.path
    paths = [top / p for p in PAGES]
    process = HistoryProcess(python=str(tmp_path / "no-such-python"))
    read = process.read(top / "docs", paths[:1])
    worker, result = _run_in_thread(read)
    assert read.key() is not None  # the key is found here, as the child would
    read.add(paths[1:])
    read.close()
    worker.join(30)
    assert read.fallback is not None and "could not be started" in read.fallback
    assert process.pid is None
    assert _answers(result[0], paths) == _answers(GitHistory.read(top / "docs", paths), paths)
    assert all(isinstance(a, Known) for a in _answers(result[0], paths))


def test_a_child_that_dies_mid_read_is_read_again_here(tmp_path: Path) -> None:
    """Every path asked is kept in this process: a read whose child was killed answers the
    same, from a walk here; later reads run here too."""
    repo = _repo(tmp_path)
    top = repo.path
    paths = [top / p for p in PAGES + LATE]
    process = HistoryProcess()
    read = process.read(top / "docs", paths[:2])
    worker, result = _run_in_thread(read)
    read.key()  # the child has answered: it runs
    pid = process.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    read.add(paths[2:])
    read.close()
    worker.join(30)
    assert not worker.is_alive()
    assert read.fallback is not None and "git reader process" in read.fallback
    assert _answers(result[0], paths) == _answers(GitHistory.read(top / "docs", paths), paths)
    later = process.read(top / "docs", paths)
    later.close()
    assert _answers(later.run(), paths) == _answers(result[0], paths)
    assert later.fallback == read.fallback and process.pid is None
    process.shutdown()


def test_a_child_that_is_not_python_leaves_the_read_to_this_process(tmp_path: Path) -> None:
    """A program that ends without a word (here ``python -c pass`` stands for any)."""
    repo = _repo(tmp_path)
    top = repo.path
    fake = tmp_path / "not-the-reader"
    fake.write_text(f"#!/bin/sh\nexec {sys.executable} -c pass\n", encoding="utf-8")
    fake.chmod(0o755)
    process = HistoryProcess(python=str(fake))
    read = process.read(top / "docs", [top / "docs/api.md"])
    read.close()
    history = read.run()
    assert read.fallback is not None and "git reader process" in read.fallback
    assert isinstance(history.last_changed(top / "docs/api.md"), Known)
    process.shutdown()


def test_forget_while_a_read_is_open_does_not_wait_for_it(tmp_path: Path) -> None:
    """The plugin may forget mid-build: the open read goes on, the next one walks afresh."""
    repo = _repo(tmp_path)
    top = repo.path
    paths = [top / p for p in PAGES]
    process = HistoryProcess()
    try:
        first = process.read(top / "docs", paths)
        first.close()
        assert first.run().commits_read > 0
        second = process.read(top / "docs", paths[:1])
        worker, result = _run_in_thread(second)
        second.key()
        process.forget()  # the read is still open: the child must not wait for it
        second.add(paths[1:])
        second.close()
        worker.join(30)
        assert not worker.is_alive() and second.fallback is None
        assert result[0].commits_read == 0, "the read under way kept its memo"
        third = process.read(top / "docs", paths)
        third.close()
        again = third.run()
        assert again.commits_read > 0 and third.fallback is None, "forgotten: walked again"
        assert _answers(again, paths) == _answers(result[0], paths)
        assert process.hits == 1
    finally:
        process.shutdown()
