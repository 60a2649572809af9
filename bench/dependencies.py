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
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

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
    args = p.parse_args()
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


if __name__ == "__main__":
    sys.exit(main())
