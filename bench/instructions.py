"""Benchmark: what the plugin adds to a whole ``mkdocs build``, in instructions executed.

The same site as ``bench/build.py`` (2,000 pages in a 5,000-commit synthetic repository,
theme ``mkdocs``, a nav of three pages), built once per variant under
``valgrind --tool=callgrind``, which counts the instructions the ``mkdocs`` process
executes (every thread of it: the history walk's included), and those of any Python
child it starts, counted apart and in the total. Unlike wall or CPU time, the count is
the same on a busy machine as on an idle one, so a ratio of 1.03x means 3 % more work
whatever else ran; it does not see waiting (git, the disk) nor the git processes
themselves.

Variants: plain (``[search]``), sitemap-pro (defaults: the history map and dependency
records in ``cache_dir``, as in every build after the first), cold (``cache: false``:
the whole history walked and parsed in the build), and with ``--all`` also no-view
(``html_view: false``), no-deps (``dependencies: false``) and no-manifest (``manifest:
false``: no fingerprint of what pages render either), and with ``--dates``
dates-on (``show_date`` and ``meta_modified_time``: the same goal). Each is built once natively
first (bytecode and caches in place, as in a second build), then once under callgrind;
two run at a time. Counts move with the lengths of the paths a build handles (CPython's
method cache), so every variant is built in folders of one length, in ``--layouts``
layouts of different lengths (3; 1 with ``--quick``), and the ratio is the median over
layouts. Goal: sitemap-pro / plain <= 1.03x.

With ``--serve``: one ``mkdocs serve --dirty`` rebuild after a page save, in
instructions, with and without the plugin. The site of ``bench/serve.py`` (1,000 pages,
20,000 commits) and its driver (``serve.driver``: a long-lived process doing
``on_startup(command="serve", dirty=True)``, the first build, then per rebuild a config
loaded afresh and ``build(config, serve_url=..., dirty=True)``), run under callgrind and
fed over a pipe; before each rebuild this process appends a line to one page (not
committed). Callgrind counts a whole process, so each variant runs two sessions, the
first build plus ``1`` rebuild and plus ``1 + K`` rebuilds, and a rebuild costs the
difference / K (the first rebuild, unlike the later ones, still fills what the plugin
keeps, so it is in both). Each session has its own clone and project folder, of names of
one length, and is run natively first with no rebuild (bytecode, ``cache_dir`` filled:
the first build reads the history map from it). Variants: no-plugin (``[search]``) and
sitemap-pro (``[search, sitemap-pro]``). Goal: sitemap-pro / no-plugin <= 1.02x per rebuild.

    python bench/instructions.py          # 2,000 pages, 5,000 commits, 3 layouts: ~25 min
    python bench/instructions.py --quick  # 60 pages, 300 commits: ~1 min
    python bench/instructions.py --serve  # 1,000 pages, 20,000 commits, K=5: ~10 min
    python bench/instructions.py --serve --quick  # 60 pages, 300 commits, K=2: ~2 min
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

GOAL = 1.03
SERVE_GOAL = 1.02
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_BUILD_COMMAND = "-m mkdocs build"  # in the log of the build's own process
_DRIVER_FLAG = "--serve-driver"  # in the log of the serve session's own process
_CALLGRIND = ["valgrind", "--tool=callgrind", "--trace-children=yes",
              "--trace-children-skip=*/git,git"]


def collected(logs: Path, marker: str) -> tuple[int | None, int]:
    """Instructions in callgrind's logs (one per process): the process whose log names
    ``marker`` (its command line), and, summed, every other (Python children)."""
    own, children = None, 0
    for log in logs.iterdir():
        text = log.read_text(encoding="utf-8", errors="replace")
        found = _COLLECTED.search(text)
        if found is None:
            continue
        if marker in text:
            own = int(found.group(1))
        else:
            children += int(found.group(1))
    return own, children


def counted_build(config: Path, site: Path, out: Path) -> tuple[int, int]:
    """Instructions of one ``mkdocs build`` under callgrind (after a native warm-up): the
    build's process and, apart, its Python children (none today); git is not traced."""
    build = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    # One hash seed for every build: with random ones, dict and set layouts (and with
    # them the counts) differ from run to run, by up to ±0.7 % seen here.
    env = dict(os.environ, PYTHONHASHSEED="0")
    warm = subprocess.run(build, capture_output=True, text=True, env=env)
    if warm.returncode != 0:
        raise SystemExit(f"mkdocs build failed ({config.name}):\n{warm.stderr[-3000:]}")
    shutil.rmtree(site, ignore_errors=True)
    logs = out.parent / f"{out.name}.logs"
    logs.mkdir()
    res = subprocess.run(
        [*_CALLGRIND, f"--callgrind-out-file={out}.%p", f"--log-file={logs}/%p.log", *build],
        capture_output=True, text=True, env=env,
    )
    own, children = collected(logs, _BUILD_COMMAND)
    if res.returncode != 0 or own is None:
        raise SystemExit(f"callgrind run failed ({config.name}):\n{res.stderr[-3000:]}")
    return own, children


# --------------------------------------------------------------------------- serve


def serve_driver(config_file: str, site_dir: str) -> int:
    """The serve session counted: ``bench/serve.py``'s driver, after one line naming the
    package it will import (the plugin is found by entry point, on the same path)."""
    import importlib.util

    import serve  # bench/serve.py, beside this file

    spec = importlib.util.find_spec("mkdocs_sitemap_pro")  # found, not imported
    print(f"package {spec.origin if spec else None}", flush=True)
    return serve.driver(config_file, site_dir, cold=False)


class ServeSession:
    """One serve session in its own folder: a clone of the repository, mkdocs.yml (its
    ``cache_dir`` beside it), the site; run natively with no rebuild, then counted."""

    def __init__(self, folder: Path, source: Path, plugins: list[str], page: int) -> None:
        self.folder = folder
        folder.mkdir()
        self.repo = folder / "repo"
        subprocess.run(["git", "clone", "-q", str(source), str(self.repo)], check=True)
        docs = self.repo / "docs"
        rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
        self.page = docs / rels[page]  # the page saved before every rebuild
        self.config = folder / "mkdocs.yml"
        C.write_mkdocs_config(self.config, "Serve bench site", docs, rels[:3], plugins)
        self.site = folder / "site"
        self.package = "?"

    def run(self, rebuilds: int, counted: bool) -> tuple[int, int, float]:
        """The first build and ``rebuilds`` rebuilds, a page saved before each:
        (instructions of the driver, of its Python children, wall seconds)."""
        shutil.rmtree(self.site, ignore_errors=True)  # a serve session starts with none
        driver = [sys.executable, os.path.abspath(__file__), _DRIVER_FLAG,
                  str(self.config), str(self.site)]
        logs = self.folder / "logs"
        if counted:
            logs.mkdir()
            driver = [*_CALLGRIND, f"--callgrind-out-file={self.folder}/callgrind.%p",
                      f"--log-file={logs}/%p.log", *driver]
        env = dict(os.environ, PYTHONHASHSEED="0")
        errors_file = self.folder / ("stderr-counted.txt" if counted else "stderr.txt")
        start = time.perf_counter()
        with errors_file.open("w") as errors:
            proc = subprocess.Popen(driver, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=errors, text=True, env=env)
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None

        def expect(word: str) -> str:
            line = stdout.readline().strip()
            said, _, rest = line.partition(" ")
            if said != word:
                proc.kill()
                raise SystemExit(f"{self.folder.name}: the serve session failed "
                                 f"(said {line!r}):\n{errors_file.read_text()[-3000:]}")
            return rest

        self.package = expect("package")
        expect("ready")
        for _ in range(rebuilds):
            with self.page.open("a", encoding="utf-8") as out:  # a save in an editor
                out.write("\nSaved while serving.\n")
            stdin.write("rebuild\n")
            stdin.flush()
            expect("built")
        stdin.close()
        code = proc.wait()
        wall = time.perf_counter() - start
        if code != 0:
            raise SystemExit(f"{self.folder.name}: the driver exited {code}:\n"
                             f"{errors_file.read_text()[-3000:]}")
        if not counted:
            return 0, 0, wall
        own, children = collected(logs, _DRIVER_FLAG)
        if own is None:
            raise SystemExit(f"{self.folder.name}: no callgrind count:\n"
                             f"{errors_file.read_text()[-3000:]}")
        return own, children, wall


def counted_session(session: ServeSession, rebuilds: int) -> tuple[int, float]:
    """Instructions (driver and Python children) and wall seconds of one counted session,
    after a native one with no rebuild."""
    session.run(0, counted=False)
    own, children, wall = session.run(rebuilds, counted=True)
    return own + children, wall


def serve_main(args: argparse.Namespace) -> int:
    pages = args.pages or (60 if args.quick else 1_000)
    commits = args.commits or (300 if args.quick else 20_000)
    k = args.rebuilds or (2 if args.quick else 5)
    low, high = 1, 1 + k  # rebuilds per session: the first rebuild is in both
    C.print_header("instructions: a mkdocs serve --dirty rebuild after a save, without and "
                   "with sitemap-pro, counted by callgrind",
                   {"pages": pages, "commits": commits, "rebuilds": f"{high} - {low}",
                    "theme": "mkdocs", "seed": args.seed})
    source, info = C.synthetic_repo(pages, commits, args.seed, work_dir=args.work_dir)
    print(f"   repo: {source.name} (cached: {info['cached']}); {info['commits']} commits, "
          f"{info['files']} pages", flush=True)
    variants = [("no-plugin", ["search"]), ("sitemap-pro", ["search", "sitemap-pro"])]
    counts: dict[tuple[str, int], tuple[int, float]] = {}
    with C.ScratchDir() as scratch:
        jobs = {}
        with ThreadPoolExecutor(2) as pool:  # one session per core, the longest first
            for n in (high, low):
                for name, plugins in variants:
                    # Folder names of one length within a variant: paths cost alike.
                    session = ServeSession(scratch / f"{name}-{n:03d}", source, plugins, 3)
                    jobs[name, n] = (session, pool.submit(counted_session, session, n))
            counts = {key: job.result() for key, (_, job) in jobs.items()}
        packages = sorted({session.package for session, _ in jobs.values()})
    print(f"   package imported by the sessions: {', '.join(packages)}")
    per: dict[str, float] = {}
    for name, _ in variants:
        (c_low, w_low), (c_high, w_high) = counts[name, low], counts[name, high]
        per[name] = (c_high - c_low) / k
        print(f"  {name:<12} first build + {low} rebuild: {c_low:>16,} instructions "
              f"({w_low:.0f} s under callgrind)")
        print(f"  {name:<12} first build + {high} rebuilds: {c_high:>15,} instructions "
              f"({w_high:.0f} s under callgrind)")
        print(f"  {name:<12} per rebuild: {per[name]:>16,.0f} instructions; the rest "
              f"(start, first build, the first rebuild's extra) {c_low - low * per[name]:,.0f}")
    r = per["sitemap-pro"] / per["no-plugin"]
    lines = [
        C.ratio_line("instructions per rebuild, sitemap-pro / no-plugin", r,
                     f"<= {SERVE_GOAL}x", r <= SERVE_GOAL),
        f"   sitemap-pro adds {per['sitemap-pro'] - per['no-plugin']:+,.0f} instructions "
        f"to a {per['no-plugin']:,.0f}-instruction rebuild ({(r - 1) * 100:+.2f} %)",
    ]
    C.print_summary(lines)
    return 0


# --------------------------------------------------------------------------- main


def _padding(layout: int) -> str:
    """The folder that gives a layout its path lengths: 1, 6, 11, ... characters."""
    return "p" * (1 + 5 * layout)


def count_layouts(scratch: Path, layouts: int, variants: list[tuple[str, list[str]]],
                  docs: Path, nav: list[str]) -> list[dict[str, int]]:
    """Every variant counted once per layout: ``counts[layout][variant]``.

    Callgrind's counts move with the lengths of the paths a build handles (CPython's
    method cache is indexed by object addresses, which string sizes shift): by up to
    ±0.5 % for one build between folder names. In a layout every variant's folder is
    ``v<i>`` under the layout's padding folder, so no variant gets a luckier name than
    another, and the goal is judged on the median over layouts of different lengths."""
    jobs: list[dict[str, Any]] = [{} for _ in range(layouts)]
    with ThreadPoolExecutor(2) as pool:  # one build per core
        for layout in range(layouts):
            for index, (name, plugins) in enumerate(variants):
                project = scratch / _padding(layout) / f"v{index}"  # its own cache_dir
                project.mkdir(parents=True)
                config = project / "mkdocs.yml"
                C.write_mkdocs_config(config, "Synthetic bench site", docs, nav, plugins)
                jobs[layout][name] = pool.submit(counted_build, config, project / "site",
                                                 project.parent / f"{name}.callgrind")
    counts = []
    for layout, row in enumerate(jobs):
        counts.append({})
        for name, job in row.items():
            own, child = job.result()
            counts[-1][name] = own + child
            print(f"  layout {layout} {name:<14} {own + child:>16,} instructions "
                  f"(the build's process {own:,}; Python children {child:,})")
    return counts


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == _DRIVER_FLAG:
        return serve_driver(sys.argv[2], sys.argv[3])
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=None)
    p.add_argument("--commits", type=int, default=None)
    p.add_argument("--all", action="store_true", help="also no-view and no-deps")
    p.add_argument("--dates", action="store_true",
                   help="also dates-on: show_date and meta_modified_time (issue 23)")
    p.add_argument("--serve", action="store_true",
                   help="a mkdocs serve --dirty rebuild after a save, not a build")
    p.add_argument("--layouts", type=int, default=None,
                   help="path-length layouts the build ratio is the median of "
                        "(default 3; 1 with --quick)")
    p.add_argument("--rebuilds", type=int, default=None,
                   help="--serve: K, the rebuilds a rebuild's count is the mean of")
    args = p.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    if args.serve:
        return serve_main(args)
    pages = args.pages or (60 if args.quick else 2_000)
    commits = args.commits or (300 if args.quick else 5_000)
    C.print_header("instructions: mkdocs build plain vs + sitemap-pro, counted by callgrind",
                   {"pages": pages, "commits": commits, "theme": "mkdocs", "seed": args.seed})
    repo, info = C.synthetic_repo(pages, commits, args.seed, work_dir=args.work_dir)
    print(f"   repo: {repo.name} (cached: {info['cached']}); {info['commits']} commits, "
          f"{info['files']} pages", flush=True)
    docs = repo / "docs"
    rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
    variants = [("plain", ["search"]), ("sitemap-pro", ["search", "sitemap-pro"]),
                ("cold", ["search", "sitemap-pro:", "  cache: false"])]
    if args.all:
        variants += [("no-view", ["search", "sitemap-pro:", "  html_view: false"]),
                     ("no-deps", ["search", "sitemap-pro:", "  dependencies: false"]),
                     ("no-manifest", ["search", "sitemap-pro:", "  manifest: false"])]
    if args.dates:
        variants += [("dates-on", ["search", "sitemap-pro:", "  show_date: true",
                                   "  meta_modified_time: true"])]
    layouts = args.layouts or (1 if args.quick else 3)
    with C.ScratchDir() as scratch:
        counts = count_layouts(scratch, layouts, variants, docs, rels[:3])
    names = [name for name, _ in variants]
    lines = []
    for name in names[1:]:
        ratios = sorted(row[name] / row["plain"] for row in counts)
        r = statistics.median(ratios)
        goal = ((f"<= {GOAL}x", r <= GOAL) if name in ("sitemap-pro", "dates-on")
                else (None, None))
        lines.append(C.ratio_line(f"instructions {name} / plain", r, *goal))
        spread = ", ".join(f"{(x - 1) * 100:+.2f} %" for x in ratios)
        lines.append(f"   {name} adds {(r - 1) * 100:+.2f} % (median of {layouts} "
                     f"layout{'s' if layouts > 1 else ''}: {spread})")
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
