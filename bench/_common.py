"""Shared helpers for the benchmarks in this folder.

- timing: ``alternate()`` runs every contender once per round, in an order that flips
  each round (A B C, C B A, ...), so drift on a shared machine hits all alike; results
  are reported as medians and ratios of medians.
- memory: current and peak resident set size of this process (Linux ``/proc``), and a
  way to reset the peak so a later peak measures one stage only.
- git: an isolated git environment and a reproducible synthetic repository built with
  ``git fast-import`` (seeded ``random.Random``, fixed dates), cached under
  ``bench/.work/`` keyed by its parameters.
- machine: nproc, CPU model, Python and git versions, for the printed header.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
WORK_DIR = BENCH_DIR / ".work"

# The benches import the package from the clone even when it is not installed.
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))


# --------------------------------------------------------------------------- timing


def alternate(
    contenders: Sequence[tuple],
    rounds: int,
    *,
    warmup: bool = True,
    progress: bool = True,
) -> dict[str, list[float]]:
    """Time each contender once per round, flipping the order every round.

    ``contenders``: ``(name, fn)`` or ``(name, fn, setup)``; ``setup`` runs untimed
    before each call of ``fn``.

    Returns name -> list of wall-clock seconds. A warm-up call of each (untimed) comes
    first so the page cache and imports do not favour whoever runs second.
    """
    setups = {c[0]: (c[2] if len(c) > 2 else None) for c in contenders}
    pairs = [(c[0], c[1]) for c in contenders]
    if warmup:
        for name, fn in pairs:
            if setups[name]:
                setups[name]()
            fn()
    times: dict[str, list[float]] = {name: [] for name, _ in pairs}
    for r in range(rounds):
        order = pairs if r % 2 == 0 else pairs[::-1]
        for name, fn in order:
            if setups[name]:
                setups[name]()  # untimed preparation (e.g. removing the last output)
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
        if progress:
            line = "  ".join(f"{n}={times[n][-1]:.3f}s" for n, _ in pairs)
            print(f"  round {r + 1}/{rounds}: {line}", flush=True)
    return times


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def fmt_times(name: str, values: Sequence[float]) -> str:
    vals = " ".join(f"{v:.3f}" for v in values)
    return f"  {name:<34} median {median(values):9.3f} s   (min {min(values):.3f}, max {max(values):.3f}; runs: {vals})"


def paired_ratio(a: Sequence[float], b: Sequence[float]) -> float:
    """Median over rounds of a[i] / b[i] (both timed in the same round)."""
    return statistics.median(x / y for x, y in zip(a, b))


def ratio_line(
    label: str,
    ratio: float,
    goal: str | None = None,
    met: bool | None = None,
    paired: float | None = None,
) -> str:
    """One line every bench prints per comparison; the smoke test looks for ``ratio``.

    ``ratio`` is the ratio of the medians (the goal is judged on it); ``paired``, if
    given, the median of the per-round ratios, shown for judging the noise.
    """
    text = f"ratio {label}: {ratio:.2f}x"
    if paired is not None:
        text += f" (per-round median {paired:.2f}x)"
    if goal is not None:
        text += f"   (goal {goal}: {'met' if met else 'MISSED'})"
    return text


# --------------------------------------------------------------------------- memory


def _status_kb(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def rss_bytes() -> int:
    """Current resident set size of this process."""
    return _status_kb("VmRSS") * 1024


def reset_peak_rss() -> bool:
    """Reset the peak RSS (Linux >= 4.0: write 5 to clear_refs). True if it worked."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def peak_rss_bytes() -> int:
    """Peak RSS since start or since the last successful ``reset_peak_rss()``.

    Read from ``VmHWM`` (this process's own high-water mark). ``getrusage(RUSAGE_SELF)
    .ru_maxrss`` is not used on Linux: it is the maximum of that mark and the peak of
    the address space replaced at ``exec``, which for a child started by Python's
    ``subprocess`` (vfork) is the *parent's* peak; a bench parent holding a million
    entries would show up as the child's peak.
    """
    try:
        return _status_kb("VmHWM") * 1024
    except (OSError, RuntimeError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# --------------------------------------------------------------------------- machine


def machine_info() -> dict[str, str]:
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        git = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        git = "git not found"
    return {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "python": platform.python_version(),
        "git": git,
        "os": f"{platform.system()} {platform.release()}",
    }


def print_header(title: str, params: dict[str, object]) -> None:
    info = machine_info()
    print(f"== {title}")
    print(
        f"   {info['date']}; nproc {info['nproc']}; {info['cpu']}; Python {info['python']}; "
        f"{info['git']}; {info['os']}"
    )
    print("   " + ", ".join(f"{k}={v}" for k, v in params.items()), flush=True)
    print(f"   bytecode: {byte_compile_package()}", flush=True)


def byte_compile_package() -> str:
    """Compile the package's bytecode once, as ``pip install`` does for a wheel.

    An editable install run with ``PYTHONDONTWRITEBYTECODE=1`` (set on some machines)
    would otherwise compile every module of ours from source in every build it times,
    while MkDocs and the other contenders load theirs from bytecode written at install.
    """
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("mkdocs_sitemap_pro")
    if spec is None or spec.origin is None:
        return "mkdocs_sitemap_pro not importable"
    folder = Path(spec.origin).parent
    ok = compileall.compile_dir(str(folder), quiet=1)
    return f"{folder} compiled" if ok else f"{folder}: compileall reported errors"


def base_parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    p.add_argument("--rounds", type=int, default=None, help="alternation rounds")
    p.add_argument("--seed", type=int, default=20240229, help="seed of the synthetic data")
    p.add_argument(
        "--work-dir",
        type=Path,
        default=None,
        help="where cached repositories go (default bench/.work/)",
    )
    return p


MEMORY_FS = Path("/dev/shm")  # a tmpfs on Linux


class ScratchDir:
    """A temporary directory removed at exit (``with ScratchDir() as d:``).

    ``memory``: in ``MEMORY_FS`` where there is one, for the sites a timed build writes.
    On a disk, the system time of creating a 10,000-folder site is the file system's and
    swings with its state (here, the same folders took 4 s to 13 s of sys, one run after
    the other); in memory it is steady, and what is left to compare is the builds'."""

    def __init__(self, prefix: str = "sitemap-bench-", *, memory: bool = False) -> None:
        where = MEMORY_FS if memory and os.access(MEMORY_FS, os.W_OK) else None
        self.path = Path(tempfile.mkdtemp(prefix=prefix, dir=where))

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


# --------------------------------------------------------------------------- git

GIT_ENV_OVERRIDES = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "LC_ALL": "C",
}
_GIT_ENV_REMOVE = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                   "GIT_COMMON_DIR", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS")


def isolate_git_env() -> None:
    """Make every git this process (and its children) runs ignore user/system config."""
    for key in _GIT_ENV_REMOVE:
        os.environ.pop(key, None)
    os.environ.update(GIT_ENV_OVERRIDES)


def git(repo: Path, *args: str, input: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), *args], input=input, check=True, capture_output=True
    ).stdout


BUILDER_VERSION = 3  # bump when the synthetic repository's shape changes

_WORDS = (
    "sitemap crawler index page section lastmod commit branch merge build site docs "
    "url escape protocol shard gzip robots search engine history change date time file "
    "folder nested markdown heading paragraph table link image code block example"
).split()

_TZ_OFFSETS = ("+0000", "+0000", "+0000", "+0100", "+0200", "-0500", "-0800", "+0530", "+0900")


def _page_paths(n_files: int, rng: random.Random) -> list[str]:
    """Nested paths under docs/: docs/<area>/<topic>/<page>.md, a few non-ASCII or spaced."""
    paths: list[str] = []
    areas = max(1, round(n_files ** (1 / 3)))
    i = 0
    while len(paths) < n_files:
        area = i % areas
        topic = (i // areas) % (areas + 3)
        name = f"page-{i}"
        roll = rng.random()
        if roll < 0.01:
            name = f"café-{i}"
        elif roll < 0.015:
            name = f"日本-{i}"
        elif roll < 0.02:
            name = f"release notes {i}"
        depth = i % 3
        if depth == 0:
            p = f"docs/area-{area}/{name}.md"
        elif depth == 1:
            p = f"docs/area-{area}/topic-{topic}/{name}.md"
        else:
            p = f"docs/area-{area}/topic-{topic}/deep-{i % 5}/{name}.md"
        paths.append(p)
        i += 1
    return paths


def page_text(path: str, rev: int, rng: random.Random) -> bytes:
    """Markdown of about 1-2 KB: headings, paragraphs, a list and a code block."""
    title = path.rsplit("/", 1)[-1][:-3]
    out = [f"# {title}\n\nRevision {rev}.\n"]
    for h in range(rng.randint(2, 4)):
        out.append(f"\n## Section {h + 1}\n\n")
        out.append(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(30, 70))) + ".\n")
        if h == 1:
            out.append("\n" + "".join(f"- item {k} {rng.choice(_WORDS)}\n" for k in range(4)))
        if h == 2:
            out.append("\n```python\nprint('revision %d')\n```\n" % rev)
    return "".join(out).encode("utf-8")


def _fast_import_stream(n_files: int, n_commits: int, seed: int, merge_every: int) -> tuple[bytes, dict]:
    """The fast-import stream and a summary of what it holds.

    History: commit 1 adds 80 % of the files (plus mkdocs.yml); every later commit
    touches 1-5 files (the other 20 % of the files are added along the way). About every
    ``merge_every``-th step forks a short side branch (1-3 commits) while 0-3 commits land
    on main, with interleaved dates, and ends in a --no-ff merge whose tree brings the
    side branch's files in. Committer dates increase along every branch (steps of 10 min
    to 6 h); author dates are up to 3 days earlier (noise, not monotonic); time zones vary.
    """
    rng = random.Random(seed)
    paths = _page_paths(n_files, rng)
    rng.shuffle(paths)
    initial = max(1, int(n_files * 0.8))
    present = paths[:initial]
    pending = paths[initial:]
    revs = {p: 0 for p in paths}
    clock = int(dt.datetime(2016, 1, 4, 9, 0, tzinfo=dt.timezone.utc).timestamp())

    chunks: list[bytes] = []
    add = chunks.append
    mark = 0
    stats = {"commits": 0, "merges": 0, "side_commits": 0, "file_changes": 0}

    def tick() -> int:
        nonlocal clock
        clock += rng.randint(600, 6 * 3600)
        return clock

    def blob(path: str) -> str:
        revs[path] += 1
        text = page_text(path, revs[path], rng)
        return f"M 100644 inline {path}\ndata {len(text)}\n".encode("utf-8") + text + b"\n"

    def commit(ref: str, when: int, msg: str, changes: list[bytes], parents: list[int]) -> int:
        nonlocal mark
        mark += 1
        tz = rng.choice(_TZ_OFFSETS)
        adate = when - rng.randint(0, 3 * 86400)
        who = rng.choice(("Ada Lovelace <ada@example.com>", "Alan Turing <alan@example.com>",
                          "Grace Hopper <grace@example.com>"))
        m = msg.encode("utf-8")
        head = [f"commit {ref}\nmark :{mark}\n",
                f"author {who} {adate} {tz}\n",
                f"committer {who} {when} {tz}\n",
                f"data {len(m)}\n"]
        add("".join(head).encode("utf-8") + m + b"\n")
        if parents:
            add(f"from :{parents[0]}\n".encode())
            for p in parents[1:]:
                add(f"merge :{p}\n".encode())
        for c in changes:
            add(c)
        add(b"\n")
        stats["commits"] += 1
        return mark

    def touch_set(k: int, avoid: set[str]) -> list[str]:
        chosen: list[str] = []
        if pending and rng.random() < 0.2:
            chosen.append(pending.pop())
            present.append(chosen[-1])
        while len(chosen) < k:
            p = present[rng.randrange(len(present))]
            if p not in avoid and p not in chosen:
                chosen.append(p)
        return chosen

    cfg = b"site_name: Synthetic\n"
    first = [f"M 100644 inline mkdocs.yml\ndata {len(cfg)}\n".encode() + cfg + b"\n"]
    first += [blob(p) for p in present]
    main_tip = commit("refs/heads/main", tick(), "initial import", first, [])
    stats["file_changes"] += len(present)

    while stats["commits"] < n_commits:
        left = n_commits - stats["commits"]
        if left >= 3 and rng.randrange(merge_every) == 0:
            k_side = min(rng.randint(1, 3), left - 2)
            k_main = min(rng.randint(0, 3), left - 1 - k_side)
            lanes = ["side"] * k_side + ["main"] * k_main
            rng.shuffle(lanes)  # interleave the dates of the two lanes
            fork = main_tip
            side_tip = fork
            side_files: dict[str, bytes] = {}
            main_window: set[str] = set()
            for lane in lanes:
                when = tick()
                k = rng.randint(1, 5)
                if lane == "side":
                    files = touch_set(k, main_window)
                    changes = [blob(p) for p in files]
                    for p, c in zip(files, changes):
                        side_files[p] = c
                    side_tip = commit("refs/heads/side", when, "side work", changes, [side_tip])
                    stats["side_commits"] += 1
                else:
                    files = touch_set(k, set(side_files))
                    main_window.update(files)
                    main_tip = commit("refs/heads/main", when, "main work",
                                      [blob(p) for p in files], [main_tip])
                stats["file_changes"] += len(files)
            # the merge's tree = main's tree plus the side branch's final versions
            main_tip = commit("refs/heads/main", tick(), "Merge branch 'side'",
                              list(side_files.values()), [main_tip, side_tip])
            stats["merges"] += 1
        else:
            files = touch_set(rng.randint(1, 5), set())
            main_tip = commit("refs/heads/main", tick(), "edit", [blob(p) for p in files], [main_tip])
            stats["file_changes"] += len(files)

    # files never added along the way: add them in one last commit is not allowed (the
    # commit count is fixed), so they simply stay out of the repository.
    stats["files"] = len(present)
    return b"".join(chunks), stats


def synthetic_repo(
    n_files: int,
    n_commits: int,
    seed: int,
    *,
    merge_every: int = 20,
    work_dir: Path | None = None,
) -> tuple[Path, dict]:
    """A cached synthetic repository (see ``_fast_import_stream``); returns (path, info).

    State: fully packed (``git repack -adf``), no commit-graph file (deleted, and
    ``gc.writeCommitGraph``/``fetch.writeCommitGraph`` false, ``gc.auto`` 0), HEAD on
    ``main``, work tree checked out.
    """
    isolate_git_env()
    work_dir = work_dir or WORK_DIR
    work_dir.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(
        f"v{BUILDER_VERSION}-{n_files}-{n_commits}-{seed}-{merge_every}".encode()
    ).hexdigest()[:12]
    repo = work_dir / f"repo-{n_files}f-{n_commits}c-{key}"
    info_file = repo / ".git" / "bench-info"
    if info_file.exists():
        info = dict(line.split("=", 1) for line in info_file.read_text().splitlines())
        info["cached"] = "yes"
        assert_no_commit_graph(repo)
        return repo, info

    t0 = time.perf_counter()
    stream, stats = _fast_import_stream(n_files, n_commits, seed, merge_every)
    info = {k: str(v) for k, v in stats.items()}
    info.update(seed=str(seed))

    def finish(tmp: Path) -> None:
        if stats["merges"]:
            git(tmp, "update-ref", "-d", "refs/heads/side")
        info.update(head=git(tmp, "rev-parse", "HEAD").decode().strip(),
                    build_seconds=f"{time.perf_counter() - t0:.1f}")

    import_repo(repo, stream, info, work_dir, config=(("core.quotepath", "true"),),
                finish=finish)
    info["cached"] = "no"
    assert_no_commit_graph(repo)
    return repo, info


def import_repo(repo: Path, stream: bytes, info: dict[str, str], work_dir: Path, *,
                config: tuple[tuple[str, str], ...] = (),
                finish: Callable[[Path], None] | None = None) -> None:
    """Make ``repo`` from a ``git fast-import`` stream, atomically (built in a scratch
    folder beside it, then renamed): packed, no commit-graph, ``main`` checked out, and
    ``info`` (after ``finish`` has run on the scratch repository) in ``.git/bench-info``."""
    tmp = Path(tempfile.mkdtemp(prefix=repo.name + ".", dir=work_dir))
    try:
        subprocess.run(["git", "init", "-q", "-b", "main", str(tmp)], check=True)
        for k, v in (("gc.auto", "0"), ("gc.writeCommitGraph", "false"),
                     ("fetch.writeCommitGraph", "false"), ("maintenance.auto", "false"),
                     *config):
            git(tmp, "config", k, v)
        git(tmp, "fast-import", "--quiet", "--done", input=stream + b"done\n")
        if finish is not None:
            finish(tmp)
        git(tmp, "repack", "-adf", "-q")
        git(tmp, "prune-packed")
        _delete_commit_graph(tmp)
        git(tmp, "checkout", "-q", "-f", "main")
        _delete_commit_graph(tmp)
        (tmp / ".git" / "bench-info").write_text("".join(f"{k}={v}\n" for k, v in info.items()))
        if repo.exists():
            shutil.rmtree(repo)
        tmp.rename(repo)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _delete_commit_graph(repo: Path) -> None:
    info = repo / ".git" / "objects" / "info"
    for p in list(info.glob("commit-graph*")):
        if p.is_dir():
            shutil.rmtree(p)
        else:
            p.unlink()


def assert_no_commit_graph(repo: Path) -> None:
    found = list((repo / ".git" / "objects" / "info").glob("commit-graph*"))
    if found:
        raise RuntimeError(f"commit-graph present in the bench repository: {found}")


def repo_state(repo: Path) -> str:
    """One line: packs, loose objects, commit-graph, HEAD."""
    counts = dict(
        line.split(": ", 1)
        for line in git(repo, "count-objects", "-v").decode().splitlines()
        if ": " in line
    )
    graph = list((repo / ".git" / "objects" / "info").glob("commit-graph*"))
    return (
        f"packs={counts.get('packs')} in-pack={counts.get('in-pack')} "
        f"loose={counts.get('count')} size-pack={counts.get('size-pack')}KiB "
        f"commit-graph={'PRESENT' if graph else 'absent'}"
    )


# -- MkDocs sites for the build benches -------------------------------------------------

SITE_URL = "https://example.com/docs/"


def write_mkdocs_config(
    path: Path, site_name: str, docs: Path, nav: list[str], plugins: list[str],
    extra: Sequence[str] = (),
) -> None:
    """A bench site's mkdocs.yml: the mkdocs theme, a short nav, ``extra`` top-level
    lines, and ``plugins`` (a line starting with a space continues the one before)."""
    lines = [
        f"site_name: {site_name}",
        f"site_url: {SITE_URL}",
        f"docs_dir: {docs.as_posix()!r}",
        "theme:",
        "  name: mkdocs",
        "nav:",
        *[f"  - {p!r}" for p in nav],
        *extra,
        "plugins:" if plugins else "plugins: []",
        *[f"  - {p}" if not p.startswith(" ") else f"    {p}" for p in plugins],
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def mkdocs_builder(config: Path, site: Path, cpu: list[float], label: str):
    """A round's contender: one ``mkdocs build`` in a fresh subprocess; its CPU time
    (user + sys, its git processes included) is appended to ``cpu``."""

    def run() -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        res = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)],
            capture_output=True, text=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if res.returncode != 0:
            raise SystemExit(f"mkdocs build ({label}) failed:\n{res.stdout}\n{res.stderr}")

    return run


def site_cleaner(site: Path):
    """Between rounds: the built site is removed, so every build starts clean."""
    return lambda: shutil.rmtree(site, ignore_errors=True)


def print_summary(lines: Sequence[str]) -> None:
    print("\n== summary")
    for line in lines:
        print(line)


# ``measured_run``'s launcher: forks the command, reports its ``os.wait4``.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    except OSError as exc:
        print(f"cannot run {sys.argv[1]}: {exc}", file=sys.stderr)
    os._exit(127)
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), repr(usage.ru_utime), repr(usage.ru_stime),
      usage.ru_maxrss)
"""


class Measured(NamedTuple):
    """What ``measured_run`` measured of one command."""

    cpu: float  # user + sys seconds of the process tree
    user: float  # user seconds alone: what the program computed, the file system aside
    rss: int  # peak RSS bytes
    stderr: str  # its tail


def measured_run(cmd: Sequence[str], *, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> Measured:
    """Run ``cmd`` and measure it.

    CPU is ``os.wait4``'s rusage of the whole process tree: user + sys of the command and
    of every child it waited for (the git processes a build starts); user time is given
    apart too (see ``ScratchDir``'s ``memory``). Peak RSS is that
    rusage's ``ru_maxrss``: the largest resident set of any process in the tree. Wall
    time is not measured: on a shared machine it says more about the neighbours.

    The command runs under ``_LAUNCHER``, a fresh ``python -I -S`` (~7 MB) that forks it
    and reports its ``os.wait4``. A child's ``ru_maxrss`` starts from the process it was
    forked from (a vforked one's from that parent's peak): started from the bench itself,
    every build measured after the bench built a 20,000-commit repository showed 104 MB.
    """
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", _LAUNCHER, *cmd],
                          capture_output=True, env=env, cwd=cwd)
    tail = proc.stderr.decode("utf-8", "replace")[-3000:]
    try:
        code, utime, stime, maxrss = proc.stdout.decode().split()
    except ValueError:
        raise SystemExit(f"{' '.join(cmd[:6])} ... could not be measured:\n{tail}") from None
    if int(code) != 0:
        raise SystemExit(f"{' '.join(cmd[:6])} ... failed ({code}):\n{tail}")
    user = float(utime)
    return Measured(user + float(stime), user, int(maxrss) * 1024, tail)

