"""Benchmark: the history map across builds: git processes, commits read, wall time.

The site of ``bench/build.py`` (2,000 pages in a 5,000-commit synthetic repository),
cloned into a scratch folder, built with ``python -m mkdocs build -v`` under a ``git``
first on PATH that logs every call. Each round builds three times in a row:

- cold: no ``cache_dir`` (removed first): one walk of the whole history;
- warm: HEAD unchanged: the map is read from ``cache_dir``, no walk (one
  ``git log --no-walk`` confirms the dates it publishes: counted as ``confirm``);
- forward: after one new commit (a page edited): the kept map is brought forward by
  reading the new commit alone.

Goals (process counts, which do not vary): warm runs no walking ``git log``; forward reads one
commit. Wall times are printed beside, with ``warm / cold`` and ``forward / cold``.

    python bench/history.py            # 2,000 pages, 5,000 commits, 3 rounds
    python bench/history.py --quick    # 60 pages, 300 commits, 1 round
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

_HOW = re.compile(r"git history: (.*)")
_SUBCOMMAND = re.compile(r"(?:^| )(rev-parse|ls-tree|log|cat-file)(?: |$)")
KINDS = ("cold", "warm", "forward")


def _label(subcommand: str, line: str) -> str:
    """A git call's name: a ``log --no-walk`` confirms kept dates, it walks nothing."""
    return "confirm" if subcommand == "log" and "--no-walk" in line else subcommand


def build(config: Path, site: Path, env: dict[str, str]) -> tuple[float, str]:
    """One ``mkdocs build -v``: its wall time and the plugin's line on the history."""
    start = time.perf_counter()
    res = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-v", "-f", str(config), "-d", str(site)],
        capture_output=True, text=True, env=env,
    )
    took = time.perf_counter() - start
    if res.returncode != 0:
        raise SystemExit(f"mkdocs build failed:\n{res.stderr[-3000:]}")
    found = _HOW.search(res.stderr)
    return took, found.group(1) if found else "(no history line)"


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=None)
    p.add_argument("--commits", type=int, default=None)
    args = p.parse_args()
    pages = args.pages or (60 if args.quick else 2_000)
    commits = args.commits or (300 if args.quick else 5_000)
    rounds = args.rounds or (1 if args.quick else 3)
    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("history: cold, warm and brought-forward builds",
                   {"pages": pages, "commits": commits, "rounds": rounds, "seed": args.seed})
    repo, _ = C.synthetic_repo(pages, commits, args.seed, work_dir=args.work_dir)
    with C.ScratchDir() as scratch:
        clone = scratch / "clone"
        C.git(scratch, "clone", "-q", str(repo), str(clone))
        docs = clone / "docs"
        rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
        config = clone / "mkdocs.yml"
        C.write_mkdocs_config(config, "History bench", docs, rels[:3], ["search", "sitemap-pro"])
        log = scratch / "git-calls.log"
        wrapper = scratch / "bin" / "git"
        wrapper.parent.mkdir()
        real = shutil.which("git")
        wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
        wrapper.chmod(0o755)
        env = dict(os.environ, PATH=f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
        times: dict[str, list[float]] = {kind: [] for kind in KINDS}
        calls: dict[str, Counter[str]] = {}
        said: dict[str, str] = {}
        for n in range(rounds):
            shutil.rmtree(clone / ".cache", ignore_errors=True)
            for kind in KINDS:
                if kind == "forward":
                    page = docs / rels[n % len(rels)]
                    page.write_text(page.read_text(encoding="utf-8") + f"\nround {n}\n",
                                    encoding="utf-8")
                    C.git(clone, "-c", "user.name=Bench", "-c", "user.email=bench@example.com",
                          "commit", "-q", "-am", f"round {n}")
                log.write_text("")
                took, said[kind] = build(config, scratch / "site", env)
                times[kind].append(took)
                calls[kind] = Counter(_label(m.group(1), line) for line in log.read_text().splitlines()
                                      if (m := _SUBCOMMAND.search(line)))
                print(f"  round {n + 1} {kind:<8} {took:6.2f} s  git: {dict(calls[kind])}; "
                      f"{said[kind]}", flush=True)
    for kind in KINDS:
        print(C.fmt_times(kind, times[kind]))
    cold = C.median(times["cold"])
    lines = [
        f"git log processes: cold {calls['cold']['log']}, warm {calls['warm']['log']} "
        f"(goal 0: {'met' if calls['warm']['log'] == 0 else 'NOT met'}), forward "
        f"{calls['forward']['log']}",
        f"forward: {said['forward']}",
        C.ratio_line("wall warm / cold", C.median(times["warm"]) / cold),
        C.ratio_line("wall forward / cold", C.median(times["forward"]) / cold),
    ]
    C.print_summary(lines)
    return 0 if calls["warm"]["log"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
