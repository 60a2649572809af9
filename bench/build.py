"""Benchmark: what the plugin adds to a whole ``mkdocs build``.

A synthetic site of 2,000 Markdown pages (nested folders) inside a synthetic git
repository of 5,000 commits (the same ``git fast-import`` builder as
``bench/git_dates.py``, cached under ``bench/.work/``), built with a short navigation
(three pages; the rest are simply not in the nav) and the default ``mkdocs`` theme,
three ways, alternated in the same run, each build a fresh subprocess
(``python -m mkdocs build -q -f <config> -d <fresh site_dir>``):

- plain: plugins ``[search]``; MkDocs writes its own sitemap (lastmod = build date);
- sitemap-pro: plugins ``[search, sitemap-pro]`` (defaults: git dates, first-parent,
  dependencies observed, html_view pages);
- no-view: the same with ``html_view: false`` (what the view pages cost);
- no-deps: the same with ``dependencies: false`` (what observing reads costs);
- git-revision-date: plugins ``[search, git-revision-date-localized]`` (its defaults),
  the usual way to get git dates into MkDocs pages; a bench-only dependency.

Wall time is the measure (goal: sitemap-pro <= 1.05x plain, ratio of medians over at
least 7 rounds); CPU time of each build
(user + sys, the git processes included) is printed too, as it is less disturbed by
other work on a shared machine.

    python bench/build.py            # 2,000 pages, 5,000 commits, 7 rounds
    python bench/build.py --quick    # 100 pages, 300 commits, 2 rounds
    python bench/build.py --pair --rounds 21   # plain and sitemap-pro only, side by side
    python bench/build.py --split --rounds 15  # one option off at a time (where the cost is)

``--split`` builds plain, ``enabled: false`` (the plugin loaded, nothing done),
``lastmod: none`` (pages and writer, no git), ``dependencies: false`` (git, no
observation) and the defaults, and prints each against plain.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

GOAL = 1.05


def have_plugin(name: str) -> bool:
    from importlib.metadata import entry_points

    return any(ep.name == name for ep in entry_points(group="mkdocs.plugins"))


def sitemap_summary(site: Path) -> str:
    sm = site / "sitemap.xml"
    if not sm.exists():
        return "no sitemap.xml"
    text = sm.read_text(encoding="utf-8")
    if "<sitemapindex" in text:
        return "sitemap.xml is an index"
    urls = text.count("<url>")
    lastmods = len(re.findall(r"<lastmod>([^<]*)</lastmod>", text))
    distinct = len(set(re.findall(r"<lastmod>([^<]*)</lastmod>", text)))
    return f"{urls} URLs, {lastmods} with lastmod ({distinct} distinct values)"


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=None)
    p.add_argument("--commits", type=int, default=None)
    p.add_argument("--skip-grd", action="store_true", help="leave out git-revision-date-localized")
    p.add_argument("--pair", action="store_true",
                   help="only plain and sitemap-pro: each round's two builds follow each other, "
                        "so the per-round ratio is the least disturbed by a drifting machine")
    p.add_argument("--split", action="store_true",
                   help="plain, enabled: false, lastmod: none, dependencies: false and the "
                        "defaults: what each part of the plugin adds")
    args = p.parse_args()
    pages = args.pages or (100 if args.quick else 2_000)
    commits = args.commits or (300 if args.quick else 5_000)
    rounds = args.rounds or (2 if args.quick else 7)

    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("build: mkdocs build plain vs + sitemap-pro vs + git-revision-date-localized",
                   {"pages": pages, "commits": commits, "rounds": rounds, "theme": "mkdocs",
                    "seed": args.seed})
    repo, info = C.synthetic_repo(pages, commits, args.seed, work_dir=args.work_dir)
    print(f"   repo: {repo.name} (cached: {info['cached']}); {info['commits']} commits "
          f"({info['merges']} merges), {info['files']} pages")
    print(f"   repo state: {C.repo_state(repo)}")
    docs = repo / "docs"
    rels = sorted(
        r[len("docs/"):]
        for r in C.git(repo, "ls-files", "-z", "--", "docs").decode("utf-8").split("\0") if r
    )
    nav = rels[:3]

    variants = [
        ("plain", ["search"]),
        ("sitemap-pro", ["search", "sitemap-pro"]),
    ]
    if args.split:
        variants += [
            ("off", ["search", "sitemap-pro:", "  enabled: false"]),
            ("no-git", ["search", "sitemap-pro:", "  lastmod: none"]),
            ("no-deps", ["search", "sitemap-pro:", "  dependencies: false"]),
        ]
    elif not args.pair:
        variants += [
            ("no-view", ["search", "sitemap-pro:", "  html_view: false"]),
            ("no-deps", ["search", "sitemap-pro:", "  dependencies: false"]),
        ]
    if args.skip_grd or args.pair or args.split:
        pass
    elif have_plugin("git-revision-date-localized"):
        variants.append(("git-revision-date", ["search", "git-revision-date-localized"]))
    else:
        print("   git-revision-date-localized is not installed (pip install -e '.[bench]'): skipped")

    with C.ScratchDir() as scratch:
        configs = {}
        for name, plugins in variants:
            cfg = scratch / f"mkdocs-{name}.yml"
            C.write_mkdocs_config(cfg, "Synthetic bench site", docs, nav, plugins)
            configs[name] = cfg
        sites = {name: scratch / f"site-{name}" for name, _ in variants}

        cpu: dict[str, list[float]] = {name: [] for name, _ in variants}

        times = C.alternate(
            [(n, C.mkdocs_builder(configs[n], sites[n], cpu[n], n), C.site_cleaner(sites[n]))
             for n, _ in variants],
            rounds,
        )
        for name, _ in variants:
            print(f"   {name}: {sitemap_summary(sites[name])}")

    m = {k: C.median(v) for k, v in times.items()}
    for name, _ in variants:
        print(C.fmt_times(f"mkdocs build, {name}", times[name]))
    # CPU time (user + sys of the build and the git processes it ran) is less disturbed
    # than wall time by other work on a shared machine; the warm-up build is dropped.
    cpu = {k: v[1:] for k, v in cpu.items()}
    for name, _ in variants:
        print(C.fmt_times(f"CPU time, {name}", cpu[name]))
    r = m["sitemap-pro"] / m["plain"]
    lines = [C.ratio_line("sitemap-pro / plain", r, f"<= {GOAL}x", r <= GOAL,
                          C.paired_ratio(times["sitemap-pro"], times["plain"]))]
    rc = C.median(cpu["sitemap-pro"]) / C.median(cpu["plain"])
    lines.append(C.ratio_line("CPU time sitemap-pro / plain", rc, f"<= {GOAL}x", rc <= GOAL,
                              C.paired_ratio(cpu["sitemap-pro"], cpu["plain"])))
    lines.append(f"   sitemap-pro adds {m['sitemap-pro'] - m['plain']:+.2f} s to a {m['plain']:.2f} s build")

    def versus(a: str, b: str = "plain") -> str:
        return C.ratio_line(f"{a} / {b}", m[a] / m[b], paired=C.paired_ratio(times[a], times[b]))

    for name, what in (("no-view", "html_view pages"), ("no-deps", "observing dependencies")):
        if name not in m:
            continue
        lines.append(versus(name))
        lines.append(f"   {what} cost {m['sitemap-pro'] - m[name]:+.2f} s "
                     f"(sitemap-pro minus {name}, medians)")
    lines += [versus(name) for name in ("off", "no-git") if name in m]
    if "git-revision-date" in m:
        lines += [versus("git-revision-date"), versus("git-revision-date", "sitemap-pro")]
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
