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
(``html_view: false``) and no-deps (``dependencies: false``). Each is built once natively
first (bytecode and caches in place, as in a second build), then once under callgrind;
two run at a time. Goal: sitemap-pro / plain <= 1.03x.

    python bench/instructions.py          # 2,000 pages, 5,000 commits: ~6 min per pair
    python bench/instructions.py --quick  # 60 pages, 300 commits: ~1 min
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

GOAL = 1.03
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_BUILD_COMMAND = "-m mkdocs build"  # in the log of the build's own process


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
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p",
         f"--log-file={logs}/%p.log", "--trace-children=yes", "--trace-children-skip=*/git,git",
         *build],
        capture_output=True, text=True, env=env,
    )
    own, children = None, 0
    for log in logs.iterdir():  # one per process: the build's, and its Python children
        text = log.read_text(encoding="utf-8", errors="replace")
        found = _COLLECTED.search(text)
        if found is None:
            continue
        if _BUILD_COMMAND in text:
            own = int(found.group(1))
        else:
            children += int(found.group(1))
    if res.returncode != 0 or own is None:
        raise SystemExit(f"callgrind run failed ({config.name}):\n{res.stderr[-3000:]}")
    return own, children


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=None)
    p.add_argument("--commits", type=int, default=None)
    p.add_argument("--all", action="store_true", help="also no-view and no-deps")
    args = p.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    pages = args.pages or (60 if args.quick else 2_000)
    commits = args.commits or (300 if args.quick else 5_000)

    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
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
                     ("no-deps", ["search", "sitemap-pro:", "  dependencies: false"])]
    with C.ScratchDir() as scratch:
        jobs = {}
        with ThreadPoolExecutor(2) as pool:  # one build per core
            for name, plugins in variants:
                project = scratch / name  # its own folder: its own cache_dir
                project.mkdir()
                config = project / "mkdocs.yml"
                C.write_mkdocs_config(config, "Synthetic bench site", docs, rels[:3], plugins)
                jobs[name] = pool.submit(counted_build, config, project / "site",
                                         scratch / f"{name}.callgrind")
        parts = {name: job.result() for name, job in jobs.items()}
    counts = {name: own + child for name, (own, child) in parts.items()}
    for name, (own, child) in parts.items():
        print(f"  {name:<14} {own + child:>16,} instructions "
              f"(the build's process {own:,}; Python children {child:,})")
    plain = counts["plain"]
    lines = []
    for name in counts:
        if name == "plain":
            continue
        r = counts[name] / plain
        goal = (f"<= {GOAL}x", r <= GOAL) if name == "sitemap-pro" else (None, None)
        lines.append(C.ratio_line(f"instructions {name} / plain", r, *goal))
        lines.append(f"   {name} adds {counts[name] - plain:+,} instructions "
                     f"({(r - 1) * 100:+.2f} %)")
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
