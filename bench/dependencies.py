"""Benchmark: what dating pages by the files they include costs a whole ``mkdocs build``.

A site of 1,000 pages in a synthetic git repository of 5,000 commits (the same builder
as ``bench/build.py``, cached under ``bench/.work/``), cloned into a scratch folder where
every page includes three files with pymdownx.snippets (one shared by 20 pages, one of
its own, ``CONTRIBUTING.md`` at the top), some of them changed after the pages. Built
three ways, alternated in the same run, each a fresh ``python -m mkdocs build``:

- deps-true: ``sitemap-pro`` with ``dependencies: true`` (the default);
- deps-false: ``sitemap-pro`` with ``dependencies: false`` (dated by the source alone);
- no-plugin: no ``sitemap-pro`` (MkDocs' own sitemap).

Goal: deps-true <= 1.05x deps-false (wall time; CPU time of the build and its git
processes is printed too).

With ``--macros`` the three files are included with mkdocs-macros instead
(``{% include "parts/..." %}``, ``include_dir`` the repository), in all three variants:
the shared file is read once and cached by Jinja, and dated on every page by the
macros integration (its templates as the Jinja environment hands them out).

    python bench/dependencies.py            # 1,000 pages, 5,000 commits, 5 rounds
    python bench/dependencies.py --macros   # the same, the includes made by mkdocs-macros
    python bench/dependencies.py --quick    # 60 pages, 200 commits, 2 rounds

With ``--api`` (issue 28): ``dependencies: lines`` against ``files`` on mkdocstrings API
pages. A synthetic package of 50 modules (4 classes each, with docstrings, 6 methods
each with docstrings and bodies, private attributes not rendered) and a page per class
(``::: pkg.modNN.ClassK``: 200 pages; mkdocstrings-python, ``show_source: false``,
``paths`` the repository's ``src``), in a linear repository of 5,000 commits with fixed
dates (65 % edit 1-3 modules: docstrings, bodies, signatures, private attributes; the
rest other files), cached under ``bench/.work/``. Four variants alternated, each a fresh
``python -m mkdocs build`` in its own folder: lines-cold and files-cold (``cache_dir``
deleted before each build: history map, dependency records, ``blame.json``),
lines-warm and files-warm (the cache of that folder's last build kept, nothing changed).
Then per variant one more build through a logging ``git`` first on PATH (the git
processes it starts, untimed) and one under callgrind (``--trace-children=yes``: the
build's process and every child, git included; ``PYTHONHASHSEED=0``). Goals: lines /
files <= 1.10x cold, and = 1.00x warm (within 2 % wall, 0.5 % instructions).

    python bench/dependencies.py --api          # 50 modules, 200 pages, 5,000 commits, 5 rounds
    python bench/dependencies.py --api --quick  # 5 modules, 200 commits, 1 round, no callgrind
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402
from tests.support.git_calls import GitCalls, subcommand  # noqa: E402 - on sys.path by _common

GOAL = 1.05
VARIANTS = {
    "deps-true": ["sitemap-pro"],
    "deps-false": ["sitemap-pro:", "    dependencies: false"],
    "no-plugin": [],
}


def include(rel: str, macros: bool) -> str:
    """The line that includes ``rel`` (relative to the repository) in a page."""
    return f'{{% include "{rel}" %}}' if macros else f'--8<-- "{rel}"'


def add_includes(repo: Path, macros: bool = False) -> int:
    """Make every page include three files and commit; change some includes later."""
    pages = sorted(p for p in (repo / "docs").rglob("*.md"))
    (repo / "parts" / "own").mkdir(parents=True, exist_ok=True)
    (repo / "CONTRIBUTING.md").write_text("How to contribute.\n", encoding="utf-8")
    for n in range(0, len(pages), 20):
        (repo / "parts" / f"shared{n // 20}.md").write_text(f"Shared {n}.\n", encoding="utf-8")
    for n, page in enumerate(pages):
        (repo / "parts" / "own" / f"{n}.md").write_text(f"Own part {n}.\n", encoding="utf-8")
        with page.open("a", encoding="utf-8") as out:
            out.write("".join(f"\n{include(rel, macros)}\n" for rel in (
                f"parts/shared{n // 20}.md", f"parts/own/{n}.md", "CONTRIBUTING.md")))
    head = int(C.git(repo, "log", "-1", "--format=%ct").decode())  # after the history
    commit(repo, "include three files on every page", f"@{head + 86_400} +0000")
    for n in range(0, len(pages), 7):  # a later change of some pages' own include
        (repo / "parts" / "own" / f"{n}.md").write_text(f"Own part {n}, edited.\n", encoding="utf-8")
    commit(repo, "edit some includes", f"@{head + 2 * 86_400} +0000")
    return len(pages)


def commit(repo: Path, message: str, date: str) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="B", GIT_AUTHOR_EMAIL="b@example.com",
               GIT_COMMITTER_NAME="B", GIT_COMMITTER_EMAIL="b@example.com",
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, check=True, env=env)


def lastmods(site: Path) -> dict[str, str]:
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    return dict(re.findall(r"<loc>([^<]*)</loc>\s*<lastmod>([^<]*)</lastmod>", text))


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=None)
    p.add_argument("--commits", type=int, default=None)
    p.add_argument("--macros", action="store_true", help="include with mkdocs-macros")
    p.add_argument("--api", action="store_true",
                   help="mkdocstrings API pages: dependencies lines vs files, cold and warm")
    p.add_argument("--modules", type=int, default=None, help="--api: modules (4 pages each)")
    p.add_argument("--no-valgrind", action="store_true", help="--api: no callgrind builds")
    args = p.parse_args()
    if args.api:
        return api_main(args)
    pages = args.pages or (60 if args.quick else 1_000)
    commits = args.commits or (200 if args.quick else 5_000)
    rounds = args.rounds or (2 if args.quick else 5)

    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("dependencies: mkdocs build, dependencies true vs false vs no sitemap-pro",
                   {"pages": pages, "commits": commits, "rounds": rounds, "theme": "mkdocs",
                    "includes per page": 3, "by": "macros" if args.macros else "snippets",
                    "seed": args.seed})
    source, info = C.synthetic_repo(pages, commits, args.seed, work_dir=args.work_dir)
    print(f"   repo: {source.name} (cached: {info['cached']}); {info['commits']} commits")

    with C.ScratchDir() as scratch:
        repo = scratch / "repo"
        subprocess.run(["git", "clone", "-q", str(source), str(repo)], check=True)
        count = add_includes(repo, args.macros)
        print(f"   {count} pages, each including 3 files; repo state: {C.repo_state(repo)}")
        rels = sorted(str(p.relative_to(repo / "docs")) for p in (repo / "docs").rglob("*.md"))
        configs, sites = {}, {}
        macros = ["macros:", f"    include_dir: {repo.as_posix()!r}"] if args.macros else []
        snippets = [] if args.macros else [
            "markdown_extensions:", "  - pymdownx.snippets:",
            f"      base_path: [{repo.as_posix()!r}]", "      check_paths: true"]
        for name, plugin in VARIANTS.items():
            configs[name] = scratch / f"mkdocs-{name}.yml"
            C.write_mkdocs_config(configs[name], "Dependencies bench site", repo / "docs",
                                  rels[:3], macros + plugin, extra=snippets)
            sites[name] = scratch / f"site-{name}"
        cpu: dict[str, list[float]] = {name: [] for name in VARIANTS}

        times = C.alternate(
            [(n, C.mkdocs_builder(configs[n], sites[n], cpu[n], n), C.site_cleaner(sites[n]))
             for n in VARIANTS],
            rounds,
        )
        true, false = lastmods(sites["deps-true"]), lastmods(sites["deps-false"])
        moved = sum(1 for loc, when in true.items() if when != false.get(loc))
        print(f"   deps-true dates {moved} of {len(true)} pages differently from deps-false "
              f"(later, by an included file)")

    m = {k: C.median(v) for k, v in times.items()}
    for name in VARIANTS:
        print(C.fmt_times(f"mkdocs build, {name}", times[name]))
    cpu = {k: v[1:] for k, v in cpu.items()}  # the warm-up build is dropped
    for name in VARIANTS:
        print(C.fmt_times(f"CPU time, {name}", cpu[name]))
    r = m["deps-true"] / m["deps-false"]
    rc = C.median(cpu["deps-true"]) / C.median(cpu["deps-false"])
    lines = [
        C.ratio_line("deps-true / deps-false", r, f"<= {GOAL}x", r <= GOAL,
                     C.paired_ratio(times["deps-true"], times["deps-false"])),
        C.ratio_line("CPU time deps-true / deps-false", rc, f"<= {GOAL}x", rc <= GOAL,
                     C.paired_ratio(cpu["deps-true"], cpu["deps-false"])),
        C.ratio_line("deps-false / no-plugin", m["deps-false"] / m["no-plugin"],
                     paired=C.paired_ratio(times["deps-false"], times["no-plugin"])),
        C.ratio_line("deps-true / no-plugin", m["deps-true"] / m["no-plugin"],
                     paired=C.paired_ratio(times["deps-true"], times["no-plugin"])),
        f"   dependencies add {m['deps-true'] - m['deps-false']:+.2f} s to a "
        f"{m['deps-false']:.2f} s build",
    ]
    C.print_summary(lines)
    return 0


# --------------------------------------------------------------------------- --api

API_GOAL_COLD = 1.10  # lines / files, a build with an empty cache_dir
API_GOAL_WARM = 1.00  # lines / files, a build with nothing changed (within the noise)
WARM_NOISE = 0.02  # "1.00 within noise": |ratio - 1| <= this (wall; instructions: 0.5 %)
API_BUILDER_VERSION = 1  # bump when the API repository's shape changes
API_CLASSES = 4  # per module: one page each
API_METHODS = 6  # per class
API_VARIANTS = ("lines-cold", "files-cold", "lines-warm", "files-warm")
_API_WORDS = ("return value index key entry node cache path name item count limit "
              "buffer record field option default parser stream token result").split()


class _ApiModule:
    """One module's text as pieces that commits edit: docstrings, bodies, signatures and
    private (unrendered) attributes, rendered whole on every change."""

    def __init__(self, number: int, rng: random.Random) -> None:
        self.number, self.rng = number, rng
        self.registry = rng.randrange(1000)
        self.classes: list[dict[str, Any]] = [{
            "doc": self.sentence(), "attr": rng.randrange(100), "label": rng.randrange(100),
            "methods": [{"doc": self.sentence(), "args": rng.randint(0, 3),
                         "body": [self.statement() for _ in range(rng.randint(2, 5))]}
                        for _ in range(API_METHODS)],
        } for _ in range(API_CLASSES)]

    def sentence(self) -> str:
        return " ".join(self.rng.choice(_API_WORDS) for _ in range(self.rng.randint(6, 12)))

    def statement(self) -> str:
        return f"x = x * {self.rng.randint(2, 9)} + len({self.rng.choice(_API_WORDS)!r})"

    def edit(self) -> str:
        """Change one piece at random; what kind of change it was."""
        rng = self.rng
        cls = rng.choice(self.classes)
        method = rng.choice(cls["methods"])
        kind = rng.choices(("docstring", "body", "signature", "attribute", "class-docstring"),
                           (30, 35, 10, 15, 10))[0]
        if kind == "docstring":
            method["doc"] = self.sentence()
        elif kind == "body":
            body = method["body"]
            if rng.random() < 0.3 and len(body) < 7:
                body.insert(rng.randrange(len(body) + 1), self.statement())
            elif rng.random() < 0.3 and len(body) > 1:
                body.pop(rng.randrange(len(body)))
            else:
                body[rng.randrange(len(body))] = self.statement()
        elif kind == "signature":
            method["args"] = (method["args"] + rng.randint(1, 3)) % 4
        elif kind == "attribute":
            if rng.random() < 0.2:
                self.registry = rng.randrange(1000)
            else:
                cls["attr" if rng.random() < 0.5 else "label"] = rng.randrange(100)
        else:
            cls["doc"] = self.sentence()
        return kind

    def text(self) -> bytes:
        out = [f'"""Module {self.number} of the synthetic API."""\n\n',
               "from __future__ import annotations\n\n",
               f"_REGISTRY = {self.registry}  # private: not rendered\n"]
        for k, cls in enumerate(self.classes):
            out.append(f'\n\nclass Class{k}:\n    """Class {k} of module {self.number}.\n\n'
                       f'    {cls["doc"]}.\n    """\n\n'
                       f"    _cache_size = {cls['attr']}  # private: not rendered\n"
                       f"    _label = 'c{k}-{cls['label']}'\n")
            for j, m in enumerate(cls["methods"]):
                params = ", ".join(["self", *(f"arg{i}: int = {i}" for i in range(m["args"]))])
                out.append(f'\n    def method_{j}({params}) -> int:\n'
                           f'        """Method {j}: {m["doc"]}.\n\n'
                           f'        Returns a number.\n        """\n'
                           f"        x = {j}\n")
                out.extend(f"        {line}\n" for line in m["body"])
                out.append("        return x\n")
        return "".join(out).encode("utf-8")


def _api_stream(modules: int, commits: int, seed: int) -> tuple[bytes, dict[str, int]]:
    """A linear history: commit 1 adds the package, its 4 pages per module and the other
    files; every later commit (dates 10 min to 6 h apart, fixed) edits 1-3 modules
    (65 %: 1-2 edits each) or 1-3 other files (35 %: guide pages, README, tests)."""
    rng = random.Random(seed)
    mods = [_ApiModule(n, rng) for n in range(modules)]
    others = ([f"docs/guide/page-{n}.md" for n in range(10)] + ["README.md", "CHANGELOG.md"]
              + [f"tests/test_mod{n:02d}.py" for n in range(modules)])
    other_rev = dict.fromkeys(others, 0)
    clock = int(dt.datetime(2019, 1, 7, 9, 0, tzinfo=dt.timezone.utc).timestamp())
    chunks: list[bytes] = []
    stats = {"commits": 0, "module_edits": 0, "other_edits": 0}

    def entry(path: str, data: bytes) -> bytes:
        return f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"

    def other(path: str) -> bytes:
        other_rev[path] += 1
        return f"{path}, revision {other_rev[path]}.\n".encode()

    def commit(message: str, changes: list[bytes]) -> None:
        nonlocal clock
        clock += rng.randint(600, 6 * 3600)
        who = "Ada Lovelace <ada@example.com>"
        head = (f"commit refs/heads/main\nmark :{stats['commits'] + 1}\n"
                f"author {who} {clock} +0000\ncommitter {who} {clock} +0000\n"
                f"data {len(message)}\n{message}\n")
        chunks.append(head.encode() + b"".join(changes) + b"\n")
        stats["commits"] += 1

    first = [entry("src/pkg/__init__.py", b'"""The synthetic API package."""\n'),
             entry("docs/index.md", b"# Synthetic API\n\nThe reference.\n")]
    first += [entry(f"src/pkg/mod{m.number:02d}.py", m.text()) for m in mods]
    for m in mods:
        for k in range(API_CLASSES):
            page = f"# mod{m.number:02d}.Class{k}\n\n::: pkg.mod{m.number:02d}.Class{k}\n"
            first.append(entry(f"docs/api/mod{m.number:02d}/Class{k}.md", page.encode()))
    first += [entry(p, other(p)) for p in others]
    commit("initial import", first)
    while stats["commits"] < commits:
        if rng.random() < 0.65:
            touched = rng.sample(mods, min(len(mods), rng.randint(1, 3)))
            for m in touched:
                for _ in range(rng.randint(1, 2)):
                    m.edit()
                    stats["module_edits"] += 1
            commit("api work", [entry(f"src/pkg/mod{m.number:02d}.py", m.text()) for m in touched])
        else:
            touched_files = rng.sample(others, rng.randint(1, 3))
            stats["other_edits"] += len(touched_files)
            commit("other work", [entry(p, other(p)) for p in touched_files])
    return b"".join(chunks), stats


def api_repo(modules: int, commits: int, seed: int, work_dir: Path | None) -> tuple[Path, dict]:
    """The API repository, built once with ``git fast-import`` and cached under
    ``bench/.work/`` (like ``_common.synthetic_repo``: packed, no commit-graph)."""
    work_dir = work_dir or C.WORK_DIR
    work_dir.mkdir(parents=True, exist_ok=True)
    repo = work_dir / f"api-{modules}m-{commits}c-v{API_BUILDER_VERSION}-s{seed}"
    info_file = repo / ".git" / "bench-info"
    if info_file.exists():
        info = dict(line.split("=", 1) for line in info_file.read_text().splitlines())
        return repo, {**info, "cached": "yes"}
    stream, stats = _api_stream(modules, commits, seed)
    info = {k: str(v) for k, v in stats.items()}
    C.import_repo(repo, stream, info, work_dir)
    return repo, {**info, "cached": "no"}


class ApiProject:
    """One variant's folder: mkdocs.yml (``cache_dir`` beside it) and its site."""

    def __init__(self, folder: Path, name: str, repo: Path) -> None:
        self.name, self.folder = name, folder
        self.cold = name.endswith("-cold")
        folder.mkdir(parents=True)
        self.config, self.site = folder / "mkdocs.yml", folder / "site"
        self.cache = folder / ".cache" / "plugin" / "sitemap-pro"
        docs = repo / "docs"
        rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
        C.write_mkdocs_config(self.config, "API bench site", docs, rels[:3], [
            "mkdocstrings:", "  handlers:", "    python:",
            f"      paths: [{(repo / 'src').as_posix()!r}]",
            "      options:", "        show_source: false",
            "sitemap-pro:", f"    dependencies: {name.split('-')[0]}",
            "    git_timeout: 7200",  # callgrind's builds: never the whole-file fallback
        ])

    def command(self) -> list[str]:
        return [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(self.config),
                "-d", str(self.site)]

    def prepare(self) -> None:
        """Untimed, before every build: no site; a cold build no ``cache_dir`` either."""
        shutil.rmtree(self.site, ignore_errors=True)
        if self.cold:
            shutil.rmtree(self.cache, ignore_errors=True)

    def build(self, env: dict[str, str] | None = None) -> None:
        res = subprocess.run(self.command(), capture_output=True, text=True,
                             env={**os.environ, **(env or {})})
        if res.returncode != 0:
            raise SystemExit(f"mkdocs build ({self.name}) failed:\n{res.stderr[-3000:]}")

    def git_calls(self, scratch: Path) -> list[str]:
        """The git subcommands of one more build (prepared as every timed one)."""
        calls = GitCalls(scratch / f"git-{self.name}")  # the tests' logging git, first on PATH
        calls.take()
        self.prepare()
        self.build(calls.env)
        return [subcommand(c) for c in calls.take()]

    def instructions(self) -> tuple[int, int, float]:
        """One build under callgrind, prepared as every timed one: (instructions of the
        build's process, of every child it starts (git included), wall seconds).

        Every git runs under its own callgrind (a wrapper first on PATH, which the
        build's callgrind does not trace), dumping every 2,000,000 basic blocks: a walk
        the plugin stops early is killed (SIGKILL), which leaves no total, so its count
        is the sum of its dumps (short of the truth by at most one interval)."""
        self.prepare()
        logs = self.folder / "callgrind-logs"
        shutil.rmtree(logs, ignore_errors=True)
        logs.mkdir()
        wrapper = self.folder / "git-under-callgrind"
        wrapper.mkdir(exist_ok=True)
        real_git = shutil.which("git")
        (wrapper / "git").write_text(
            "#!/bin/sh\nexec valgrind --tool=callgrind --dump-every-bb=2000000 "
            f"--callgrind-out-file={logs}/git.%p --log-file={logs}/git-%p.log "
            f'{real_git} "$@"\n')
        (wrapper / "git").chmod(0o755)
        env = dict(os.environ, PYTHONHASHSEED="0",
                   PATH=f"{wrapper}{os.pathsep}{os.environ['PATH']}")
        t0 = time.perf_counter()
        res = subprocess.run(
            ["valgrind", "--tool=callgrind", "--trace-children=yes",
             f"--trace-children-skip={wrapper}/git",
             f"--callgrind-out-file={self.folder}/callgrind.%p", f"--log-file={logs}/%p.log",
             *self.command()],
            capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t0
        own, children = None, 0
        for log in logs.glob("*.log"):
            text = log.read_text(encoding="utf-8", errors="replace")
            found = re.search(r"Collected\s*:\s*(\d+)", text)
            if found is not None and "-m mkdocs build" in text:
                own = int(found.group(1))
            elif found is not None:
                children += int(found.group(1))
            elif log.name.startswith("git-"):  # killed: its dumps
                pid = log.stem.removeprefix("git-")
                children += sum(int(m) for dump in logs.glob(f"git.{pid}*") for m in
                                re.findall(r"^summary: (\d+)", dump.read_text(), re.M))
        if res.returncode != 0 or own is None:
            raise SystemExit(f"callgrind build ({self.name}) failed:\n{res.stderr[-3000:]}")
        return own, children, wall


def api_main(args: argparse.Namespace) -> int:
    modules = args.modules or (5 if args.quick else 50)
    commits = args.commits or (200 if args.quick else 5_000)
    rounds = args.rounds or (1 if args.quick else 5)
    valgrind = not (args.quick or args.no_valgrind)
    if valgrind and shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind); --no-valgrind skips it",
              file=sys.stderr)
        return 2
    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("dependencies: lines vs files, mkdocstrings API pages, cold and warm",
                   {"modules": modules, "pages": modules * API_CLASSES, "commits": commits,
                    "rounds": rounds, "callgrind": valgrind, "theme": "mkdocs",
                    "seed": args.seed})
    source, info = api_repo(modules, commits, args.seed, args.work_dir)
    print(f"   repo: {source.name} (cached: {info['cached']}); {info['commits']} commits, "
          f"{info['module_edits']} module edits, {info['other_edits']} other files' edits")
    with C.ScratchDir() as scratch:
        repo = scratch / "repo"
        subprocess.run(["git", "clone", "-q", str(source), str(repo)], check=True)
        biggest = max((repo / "src" / "pkg").glob("mod*.py"), key=lambda p: p.stat().st_size)
        t0 = time.perf_counter()
        C.git(repo, "blame", "--porcelain", "--first-parent", "HEAD", "--",
              str(biggest.relative_to(repo)))
        one_blame = time.perf_counter() - t0
        lines_count = biggest.read_text().count("\n")
        print(f"   one git blame --porcelain --first-parent of the largest module "
              f"({biggest.name}, {lines_count} lines): {one_blame:.3f} s; repo state: "
              f"{C.repo_state(repo)}", flush=True)
        projects = {n: ApiProject(scratch / (n[0] + n.split("-")[1][0]), n, repo)
                    for n in API_VARIANTS}  # folder names of one length
        times = C.alternate([(n, p.build, p.prepare) for n, p in projects.items()], rounds)
        by_lines = lastmods(projects["lines-cold"].site)
        by_files = lastmods(projects["files-cold"].site)
        earlier = sum(1 for loc, when in by_lines.items() if when < by_files.get(loc, ""))
        same_warm = lastmods(projects["lines-warm"].site) == by_lines
        calls = {n: p.git_calls(scratch) for n, p in projects.items()}
        counts: dict[str, tuple[int, int, float]] = {}
        if valgrind:
            print("   callgrind: one build per variant, two at a time ...", flush=True)
            with ThreadPoolExecutor(2) as pool:
                jobs = {n: pool.submit(p.instructions) for n, p in projects.items()}
                counts = {n: job.result() for n, job in jobs.items()}
    print(f"   lines dates {earlier} of {len(by_lines)} pages earlier than files (cold); "
          f"lines warm dates every page as lines cold: {same_warm}")
    m = {n: C.median(v) for n, v in times.items()}
    for n in API_VARIANTS:
        print(C.fmt_times(f"mkdocs build, {n}", times[n]))
    for n in API_VARIANTS:
        kinds = {k: calls[n].count(k) for k in sorted(set(calls[n]))}
        print(f"  git processes, {n:<11} {len(calls[n]):>4} ({kinds}; blame "
              f"{calls[n].count('blame')})")
    for n, (own, children, wall) in counts.items():
        print(f"  instructions, {n:<11} {own + children:>16,} (the build's process {own:,}; "
              f"its children, git included, {children:,}; {wall:.0f} s under callgrind)")
    lines = []
    for temp, goal in (("cold", API_GOAL_COLD), ("warm", API_GOAL_WARM)):
        a, b = f"lines-{temp}", f"files-{temp}"
        r = m[a] / m[b]
        met = r <= goal if temp == "cold" else abs(r - 1) <= WARM_NOISE
        want = f"<= {goal}x" if temp == "cold" else f"= 1.00x within {WARM_NOISE:.2f}"
        lines.append(C.ratio_line(f"{temp} lines / files, wall", r, want, met,
                                  C.paired_ratio(times[a], times[b])))
        if counts:
            ri = sum(counts[a][:2]) / sum(counts[b][:2])
            met_i = ri <= goal if temp == "cold" else abs(ri - 1) <= 0.005
            want_i = want if temp == "cold" else "= 1.00x within 0.005"
            lines.append(C.ratio_line(f"{temp} lines / files, instructions", ri, want_i, met_i))
            ro = counts[a][0] / counts[b][0]
            lines.append(C.ratio_line(f"{temp} lines / files, instructions of the build's "
                                      "process alone", ro))
            extra_git = counts[a][1] - counts[b][1]
            lines.append(f"   {temp}: lines adds {sum(counts[a][:2]) - sum(counts[b][:2]):+,} "
                         f"instructions ({(ri - 1) * 100:+.2f} %): the build's process "
                         f"{counts[a][0] - counts[b][0]:+,} ({(ro - 1) * 100:+.2f} %), its "
                         f"children {extra_git:+,}")
        lines.append(f"   {temp}: lines {m[a]:.2f} s, files {m[b]:.2f} s "
                     f"({m[a] - m[b]:+.2f} s); git log processes: lines "
                     f"{calls[a].count('log')}, files {calls[b].count('log')}")
        # Judged on instructions where counted (wall time on these machines varies
        # 15-20 % between identical builds); on wall time only without valgrind.
        verdict = "MET" if (met_i if counts else met) else "MISSED"
        lines.append(f"verdict {temp} (lines / files {want_i if counts else want}, "
                     f"{'instructions' if counts else 'wall'}): {verdict}")
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
