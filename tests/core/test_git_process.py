"""git with a deadline, and no git process left behind (``GitProcesses``, ``end_on_signals``).

A fake ``git`` first on PATH hangs the way a real one does on a dead network filesystem
or a credential prompt: a shell script whose ``sleep`` is its child (not ``exec``), so
only ending the whole process group ends it. The script writes its own pid and the
sleep's, and every check then looks in ``/proc`` for any process of that group. Real
processes throughout, no doubles; every test kills what it may have left in a ``finally``.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git.process import (
    CONFIG,
    GitEnded,
    GitProcesses,
    GitTimeout,
    run_git,
    stream_git,
)
from tests.support.git import GitRepo, git_env
from tests.support.signals import default_signals

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, process group) of a live process, None when it is gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, _ppid, pgrp = text.rsplit(")", 1)[1].split()[:3]
    return None if state in "ZX" else (state, int(pgrp))


def _group(pgid: int) -> list[int]:
    """The live processes of a process group."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None and stat[1] == pgid:
            found.append(int(entry))
    return found


class FakeGit:
    """A ``git`` that never answers: a shell script that waits on its ``sleep 600``."""

    def __init__(self, folder: Path) -> None:
        self.bin = folder / "bin"
        self.bin.mkdir()
        self.gitpid, self.sleeppid = folder / "gitpid", folder / "sleeppid"
        script = self.bin / "git"
        script.write_text(
            "#!/bin/sh\n"
            f"echo $$ > '{self.gitpid}.tmp' && mv '{self.gitpid}.tmp' '{self.gitpid}'\n"
            "sleep 600 &\n"
            f"echo $! > '{self.sleeppid}.tmp' && mv '{self.sleeppid}.tmp' '{self.sleeppid}'\n"
            "wait\n"
        )
        script.chmod(0o755)
        self.path = f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}"

    def pids(self) -> list[int]:
        return [int(f.read_text()) for f in (self.gitpid, self.sleeppid) if f.exists()]

    def wait_running(self, seconds: float = 10.0) -> None:
        """Until the script and its sleep both run."""
        end = time.monotonic() + seconds
        while not self.sleeppid.exists():
            assert time.monotonic() < end, "the fake git did not start"
            time.sleep(0.01)

    def left(self) -> list[int]:
        """Every live process of the fake git: its pids, and any of its process group."""
        pids = self.pids()
        alive = {pid for pid in pids if _stat(pid) is not None}
        if pids:
            alive.update(_group(pids[0]))
        return sorted(alive)

    def kill_leftovers(self) -> None:
        """Kill what the fake git left (only processes that are this script or its sleep)."""
        for pid in self.left():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"sleep" in cmdline or str(self.bin).encode() in cmdline:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass


@pytest.fixture
def fake_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGit]:
    fake = FakeGit(tmp_path)
    monkeypatch.setenv("PATH", fake.path)
    try:
        yield fake
    finally:
        fake.kill_leftovers()


def _read_all(chunks: Iterator[list[bytes]]) -> bool:
    for _ in chunks:
        pass
    return False


def _in_thread(call: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    """``call`` run in a started daemon thread; its result or exception lands in the list."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    return worker, outcome


def _outcome(call: Callable[[], object], seconds: float = 5.0) -> object:
    """What ``call`` returns or raises, run in a thread: a hang fails the test instead."""
    worker, outcome = _in_thread(call)
    worker.join(seconds)
    assert outcome, f"still running after {seconds} s"
    return outcome[0]


def _stream_in_thread(processes: GitProcesses, cwd: Path
                      ) -> tuple[threading.Thread, list[object]]:
    """``git log`` streamed in a started daemon thread (``_in_thread``)."""
    return _in_thread(lambda: stream_git(["log"], cwd, _read_all, processes=processes))


def _nothing_left(fake: FakeGit) -> None:
    assert len(fake.pids()) == 2
    end = time.monotonic() + 2.0  # init reaps the orphaned sleep a moment after its death
    while fake.left() and time.monotonic() < end:
        time.sleep(0.02)
    assert fake.left() == []


def test_a_stream_past_its_deadline_raises_and_leaves_nothing(fake_git: FakeGit,
                                                              tmp_path: Path) -> None:
    processes = GitProcesses(timeout=1)
    began = time.monotonic()
    raised = _outcome(lambda: stream_git(["log"], tmp_path, _read_all, processes=processes))
    assert 0.9 <= time.monotonic() - began < 3.0
    assert type(raised) is GitTimeout
    assert str(raised) == "git did not answer within 1.0 s"
    _nothing_left(fake_git)
    # Past the deadline, no git starts at all.
    with pytest.raises(GitTimeout):
        run_git(["status"], tmp_path, processes=processes)
    assert time.monotonic() - began < 3.5


def test_a_command_past_its_deadline_raises_and_leaves_nothing(fake_git: FakeGit,
                                                               tmp_path: Path) -> None:
    processes = GitProcesses(timeout=1)
    began = time.monotonic()
    raised = _outcome(lambda: run_git(["cat-file", "--batch-check"], tmp_path, stdin=b"HEAD\n",
                                      processes=processes))
    assert 0.9 <= time.monotonic() - began < 3.0
    assert type(raised) is GitTimeout
    assert str(raised) == "git did not answer within 1.0 s"
    _nothing_left(fake_git)


@pytest.mark.parametrize("stream", [True, False])
def test_close_from_another_thread_ends_git_at_once_and_refuses_more(
        fake_git: FakeGit, tmp_path: Path, stream: bool) -> None:
    processes = GitProcesses(timeout=600)
    if stream:
        worker, outcome = _stream_in_thread(processes, tmp_path)
    else:
        worker, outcome = _in_thread(lambda: run_git(["status"], tmp_path, stdin=b"x",
                                                     processes=processes))
    try:
        fake_git.wait_running()
        began = time.monotonic()
        processes.close()
        worker.join(5)
        assert not worker.is_alive()
        assert time.monotonic() - began < 1.5
        assert len(outcome) == 1 and type(outcome[0]) is GitEnded
        _nothing_left(fake_git)
        fake_git.gitpid.unlink()
        with pytest.raises(GitEnded, match=r"^git was ended by its owner$"):
            run_git(["status"], tmp_path, processes=processes)
        assert not fake_git.gitpid.exists()  # not even started
        processes.close()  # idempotent
    finally:
        processes.close()
        worker.join(5)


def test_past_the_deadline_no_git_starts_and_rearming_restarts_the_clock(
        tmp_path: Path, fake_git: FakeGit) -> None:
    processes = GitProcesses(timeout=0.2)
    time.sleep(0.3)
    with pytest.raises(GitTimeout, match=r"^git did not answer within 0\.2 s$"):
        run_git(["status"], tmp_path, processes=processes)
    assert fake_git.pids() == []  # refused: nothing ran
    processes.arm()
    began = time.monotonic()
    worker, ended = _stream_in_thread(processes, tmp_path)
    try:
        fake_git.wait_running()
        worker.join(5)
    finally:
        processes.close()
        worker.join(5)
    assert len(ended) == 1 and type(ended[0]) is GitTimeout
    assert time.monotonic() - began < 1.5
    _nothing_left(fake_git)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    for key in list(os.environ):
        if key.startswith("GIT_"):
            monkeypatch.delenv(key)
    for key, value in git_env().items():
        monkeypatch.setenv(key, value)
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a b.md", "one\n")
    repo.commit("first", "2024-01-02T03:04:05+00:00")
    return repo


@pytest.mark.parametrize("owned", [False, True])
def test_without_a_deadline_real_git_answers_as_before(repo: GitRepo, owned: bool) -> None:
    processes = GitProcesses(timeout=60) if owned else None
    direct = subprocess.run(["git", "--no-pager", *CONFIG, "log", "-z", "--format=%H %cI",
                             "--name-only"], cwd=repo.path, capture_output=True, check=True)
    tokens: list[bytes] = []

    def consume(chunks: Iterator[list[bytes]]) -> bool:
        for chunk in chunks:
            tokens.extend(chunk)
        return False

    assert stream_git(["log", "-z", "--format=%H %cI", "--name-only"], repo.path, consume,
                      processes=processes) == (False, 0, "")
    assert b"\0".join(tokens) == direct.stdout.rstrip(b"\0")
    assert b"2024-01-02T03:04:05+00:00" in direct.stdout
    assert run_git(["log", "-z", "--format=%H %cI", "--name-only"], repo.path,
                   processes=processes) == (0, direct.stdout, "")
    head = repo.git("rev-parse", "HEAD").strip()
    status, out, err = run_git(["cat-file", "--batch-check"], repo.path, stdin=b"HEAD\n",
                               processes=processes)
    assert (status, out.split(b" ")[:2], err) == (0, [head.encode(), b"commit"], "")
    status, _, err = run_git(["rev-parse", "--verify", "nope"], repo.path, processes=processes,
                             env={"LC_ALL": "C"})
    assert status == 128 and "Needed a single revision" in err
    # A stream stopped early is ended at once, as before.
    assert stream_git(["log"], repo.path, lambda chunks: True, processes=processes)[0] is True


_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def test_handlers_are_put_back_exactly_and_only_from_the_main_thread() -> None:
    before = {s: signal.getsignal(s) for s in _SIGNALS}
    processes = GitProcesses()
    helper = threading.Thread(target=lambda: processes.end_on_signals()())
    helper.start()
    helper.join()
    assert {s: signal.getsignal(s) for s in _SIGNALS} == before
    put_back = processes.end_on_signals()
    try:
        assert all(signal.getsignal(s) is not before[s] for s in _SIGNALS
                   if before[s] not in (signal.SIG_IGN, None))
    finally:
        put_back()
    assert {s: signal.getsignal(s) for s in _SIGNALS} == before
    # A handler set after ours stays when ours are put back.
    put_back = GitProcesses().end_on_signals()
    mine = signal.getsignal(signal.SIGTERM)
    later = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    assert later is mine
    put_back()
    try:
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before[signal.SIGTERM])


_CHILD = textwrap.dedent("""
    import os, sys, threading, time
    from mkdocs_sitemap_pro.core.git.process import GitProcesses, stream_git

    folder, sleeppid = sys.argv[1], sys.argv[2]
    processes = GitProcesses()
    processes.end_on_signals()

    def walk():
        try:
            stream_git(["log"], folder, lambda chunks: [None for _ in chunks] and False,
                       processes=processes)
        except Exception as exc:
            print("walk:", type(exc).__name__, flush=True)

    threading.Thread(target=walk, daemon=True).start()
    while not os.path.exists(sleeppid):
        time.sleep(0.01)
    print("ready", flush=True)
    while True:
        time.sleep(0.05)
""")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_git_then_the_process_as_before(fake_git: FakeGit, tmp_path: Path,
                                                       signum: int) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path), str(fake_git.sleeppid)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        env={**os.environ, "PATH": fake_git.path}, preexec_fn=default_signals,
    )
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 30)
        assert ready and child.stdout.readline() == b"ready\n"
        # The script and its sleep; the script's last ``mv`` may still be exiting.
        settled = time.monotonic() + 5
        while len(fake_git.left()) != 2 and time.monotonic() < settled:
            time.sleep(0.01)
        assert len(fake_git.left()) == 2
        began = time.monotonic()
        child.send_signal(signum)
        _, err = child.communicate(timeout=5)
        assert time.monotonic() - began < 5
        if signum == signal.SIGTERM:
            assert child.returncode == -signal.SIGTERM
        else:
            assert child.returncode in (-signal.SIGINT, 1) and b"KeyboardInterrupt" in err
        _nothing_left(fake_git)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_every_git_runs_with_its_memory_capped(repo: GitRepo) -> None:
    # The repository's own config asks for git's large defaults; ours win. Without the
    # caps a walk of 20,000 commits peaked at 158 MB of git (bench/scale.py).
    repo.git("config", "core.deltaBaseCacheLimit", "96m")
    repo.git("config", "core.packedGitLimit", "8g")
    caps = {}
    for key in ("core.deltaBaseCacheLimit", "core.packedGitWindowSize", "core.packedGitLimit"):
        status, out, _ = run_git(["config", "--get", key], repo.path)
        caps[key] = (status, out.strip())
    assert caps == {"core.deltaBaseCacheLimit": (0, b"16m"),
                    "core.packedGitWindowSize": (0, b"1m"),
                    "core.packedGitLimit": (0, b"8m")}


def test_input_larger_than_a_pipe_is_read_whole_when_git_is_waited_for_long(
        repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    # The notice interrupts the wait early; git must still get the rest of its input
    # (a retried Popen.communicate would stop writing it, and git would wait for it
    # until killed: a large repository's kept-map check timed out so).
    from mkdocs_sitemap_pro.core.git import process

    monkeypatch.setattr(process, "NOTICE_SECONDS", 0.0)
    said: list[str] = []
    query = b"".join(b"HEAD:missing-%d\n" % n for n in range(20_000))  # 5x a pipe buffer
    started = time.monotonic()
    status, out, _ = run_git(["cat-file", "--batch-check"], repo.path, stdin=query,
                             processes=GitProcesses(timeout=20, notice=said.append))
    assert status == 0 and out.count(b" missing\n") == 20_000
    assert time.monotonic() - started < 15
