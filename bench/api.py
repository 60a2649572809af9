"""Benchmark: a whole ``mkdocs build`` of an API reference with the plugin, cold and warm.

The repository of ``dependencies.py --api`` (cached under ``bench/.work/``): a package
of 50 modules of 4 classes (docstrings, 6 methods each with bodies, private attributes),
a mkdocstrings page per class (``::: pkg.modNN.ClassK``: 200 pages), 5,000 linear
commits of which 65 % edit 1-3 modules. Three contenders, each a fresh
``python -m mkdocs build`` in its own folder (mkdocstrings-python, ``show_source:
false``, theme ``mkdocs``):

- plain: ``plugins: [mkdocstrings]``;
- cold: ``[mkdocstrings, sitemap-pro]`` with ``dependencies: lines`` (each API page dated
  by the lines of the module it shows: ``git blame``), ``cache_dir`` removed first;
- warm: the same, ``cache_dir`` kept (primed once, untimed).

Measured as ``scale.py``: CPU of the process tree (git included; user time beside) and
peak RSS, sites written in memory where possible, alternate rounds, the lowest judged. Goals: cold <= 1.06x, warm <= 1.03x plain CPU; memory
<= 1.20x.

    python bench/api.py                  # 50 modules, 5,000 commits, 3 rounds
    python bench/api.py --quick          # 5 modules, 200 commits, 1 round
"""

from __future__ import annotations

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402
from dependencies import api_repo  # noqa: E402
from scale import Contender, compare, git_log_floor, report  # noqa: E402


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--modules", type=int, default=None, help="modules (4 pages each)")
    p.add_argument("--commits", type=int, default=None)
    args = p.parse_args()
    modules = args.modules or (5 if args.quick else 50)
    commits = args.commits or (200 if args.quick else 5_000)
    rounds = args.rounds or (1 if args.quick else 3)
    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("api: mkdocstrings pages, plain vs sitemap-pro (dependencies: lines) cold "
                   "and warm", {"modules": modules, "pages": modules * 4, "commits": commits,
                                "rounds": rounds, "seed": args.seed})
    source, info = api_repo(modules, commits, args.seed, args.work_dir)
    print(f"   repo: {source.name} (cached: {info['cached']}); {info['commits']} commits, "
          f"{info['module_edits']} module edits")
    with C.ScratchDir() as scratch, C.ScratchDir(memory=True) as sites:
        repo = scratch / "repo"
        subprocess.run(["git", "clone", "-q", str(source), str(repo)], check=True)
        docs = repo / "docs"
        rels = sorted(str(q.relative_to(docs)) for q in docs.rglob("*.md"))
        strings = ["mkdocstrings:", "  handlers:", "    python:",
                   f"      paths: [{(repo / 'src').as_posix()!r}]",
                   "      options:", "        show_source: false"]
        ours = ["sitemap-pro:", "    dependencies: lines"]
        contenders = [Contender(scratch / n, sites, n, docs, rels[:3], plugins)
                      for n, plugins in (("plain", strings), ("cold", strings + ours),
                                         ("warm", strings + ours))]
        compare(contenders, rounds)
        for c in contenders:
            print(f"  {c.name:<6} CPU s {' '.join(f'{v:.2f}' for v in c.cpu)} "
                  f"(user {' '.join(f'{v:.2f}' for v in c.user)}); "
                  f"peak MB {' '.join(f'{v / 1048576:.0f}' for v in c.rss)}")
        lines = report("api", contenders, len(rels), commits, git_log_floor(repo, rounds))
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
