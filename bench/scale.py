"""Benchmark: what a whole ``mkdocs build`` costs with the plugin, by site size and history.

Generated sites (the ``git fast-import`` builder of ``_common``, cached under
``bench/.work/``; theme ``mkdocs``, a nav of three pages) in these shapes by default:
1,000, 10,000 and 60,000 pages over 3 commits, and 2,000 pages over 20,000 commits.
Per shape three contenders, each a fresh ``python -m mkdocs build`` in its own folder:

- plain: ``plugins: []`` (MkDocs alone, its own sitemap.xml);
- cold: ``plugins: [sitemap-pro]``, ``cache_dir`` removed before every build (a CI run
  that keeps nothing);
- warm: the same, ``cache_dir`` kept from its previous build (primed once, untimed).

Measures: CPU seconds of the whole process tree (``os.wait4``: user + sys, the git
processes included; user time alone printed beside) and peak RSS (``ru_maxrss``), each
site written to a memory file system where there is one (``/dev/shm``: on a disk, the
system time of writing 10,000 folders is the file system's and swings several-fold from
one build to the next); rounds alternate the order (A B C, C B A, ...) and the lowest of
each contender is judged (the ratio of the medians printed beside). Goals: cold <= 1.06x
plain CPU, warm <= 1.03x, peak memory <= 1.20x. Also printed: what the plugin publishes
beside the sitemap (largest view page, manifest) and keeps in ``cache_dir``, the cost per
page and per commit, and ``git log --name-only`` of the same repository (the floor of a
history walk).

    python bench/scale.py                          # all four shapes, 3 rounds (~1 h CPU)
    python bench/scale.py --shapes 1000:3,10000:3  # pages:commits, comma-separated
    python bench/scale.py --quick                  # 100:3 and 200:500, 1 round
    python bench/scale.py --shapes 20000:3 --base ../main  # also main's package, alternated
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

GOAL_COLD, GOAL_WARM, GOAL_RSS = 1.06, 1.03, 1.20
MB = 1024 * 1024


class Contender:
    """One variant's folder: its mkdocs.yml (``cache_dir`` beside it); its site in
    ``sites`` (a memory file system where there is one: ``_common.ScratchDir``)."""

    def __init__(self, folder: Path, sites: Path, name: str, docs: Path, nav: list[str],
                 plugins: list[str], extra: Sequence[str] = (),
                 env: dict[str, str] | None = None) -> None:
        self.name, self.cold, self.env = name, name.startswith("cold"), env
        folder.mkdir(parents=True)
        self.config, self.site = folder / "mkdocs.yml", sites / f"{folder.parent.name}-{name}"
        self.cache = folder / ".cache"
        C.write_mkdocs_config(self.config, f"Bench site {name}", docs, nav, plugins, extra)
        self.cpu: list[float] = []
        self.user: list[float] = []
        self.rss: list[int] = []

    def prepare(self) -> None:
        """Untimed, before every build: no site; a cold build no ``cache_dir`` either."""
        shutil.rmtree(self.site, ignore_errors=True)
        if self.cold:
            shutil.rmtree(self.cache, ignore_errors=True)

    def build(self) -> C.Measured:
        cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(self.config),
               "-d", str(self.site)]
        return C.measured_run(cmd, env=self.env)


def compare(contenders: list[Contender], rounds: int) -> None:
    """Alternate the contenders ``rounds`` times (order flipped each round); a warm
    contender is primed first by one untimed build."""
    for c in contenders:
        if not c.cold and c.name != "plain":
            c.prepare()
            c.build()
    for r in range(rounds):
        order = contenders if r % 2 == 0 else contenders[::-1]
        for c in order:
            c.prepare()
            run = c.build()
            c.cpu.append(run.cpu)
            c.user.append(run.user)
            c.rss.append(run.rss)
        print(f"  round {r + 1}/{rounds}: " + "  ".join(
            f"{c.name}={c.cpu[-1]:.2f}s/{c.rss[-1] / MB:.0f}MB" for c in contenders), flush=True)


def folder_bytes(path: Path, pattern: str = "*") -> tuple[int, int, str]:
    """(total bytes, largest file's bytes, its name) of the files matching ``pattern``."""
    files = [p for p in path.rglob(pattern) if p.is_file()] if path.exists() else []
    if not files:
        return 0, 0, "-"
    big = max(files, key=lambda p: p.stat().st_size)
    return sum(p.stat().st_size for p in files), big.stat().st_size, big.name


def publication(c: Contender) -> str:
    """What the plugin wrote beside the pages, and what it keeps in ``cache_dir``."""
    xml = folder_bytes(c.site, "sitemap*.xml")
    html = folder_bytes(c.site, "sitemap*.html")
    manifest = folder_bytes(c.site, "*.manifest.json")
    cache = folder_bytes(c.cache)
    return (f"sitemaps {xml[0] / MB:.2f} MB; view pages {html[0] / MB:.2f} MB "
            f"(largest {html[2]} {html[1] / MB:.2f} MB); manifest {manifest[1] / MB:.2f} MB; "
            f"cache_dir {cache[0] / MB:.2f} MB")


def git_log_floor(repo: Path, rounds: int) -> float:
    """Lowest CPU of ``git log --name-only`` over the whole history (the floor of a walk)."""
    cmd = ["git", "-C", str(repo), "log", "--name-only", "-z", "--format=%H %cI"]
    return min(C.measured_run(cmd).cpu for _ in range(max(1, rounds)))


def report(label: str, contenders: list[Contender], pages: int, commits: int,
           floor: float | None) -> list[str]:
    """The summary lines of one shape: ratios of the lowest, and growth per page/commit."""
    by = {c.name: c for c in contenders}
    plain = min(by["plain"].cpu)
    plain_user = min(by["plain"].user)
    plain_rss = min(by["plain"].rss)
    lines = [f"-- {label}: {pages:,} pages, {commits:,} commits; plain {plain:.2f} s CPU, "
             f"{plain_rss / MB:.0f} MB peak"]
    for name, goal in (("cold", GOAL_COLD), ("warm", GOAL_WARM), ("cold-base", GOAL_COLD),
                       ("warm-base", GOAL_WARM)):
        if name not in by:
            continue
        c = by[name]
        cpu, rss = min(c.cpu), min(c.rss)
        r, rr = cpu / plain, rss / plain_rss
        lines.append(C.ratio_line(f"{label} {name} / plain, CPU", r, f"<= {goal}x", r <= goal))
        lines.append(f"   {name} / plain, user time alone: {min(c.user) / plain_user:.2f}x; "
                     f"medians: {statistics.median(c.cpu) / statistics.median(by['plain'].cpu):.2f}x "
                     f"(a check on the machine's spread)")
        lines.append(C.ratio_line(f"{label} {name} / plain, peak RSS", rr, f"<= {GOAL_RSS}x",
                                  rr <= GOAL_RSS))
        # Per commit only where the history is the shape's size (not 3 commits).
        per_commit = (f", {(cpu - plain) / commits * 1e6:+.1f} us per commit"
                      if commits >= pages else "")
        lines.append(f"   {name}: {cpu:.2f} s CPU ({cpu - plain:+.2f} s: "
                     f"{(cpu - plain) / pages * 1000:+.3f} ms per page{per_commit}), "
                     f"{rss / MB:.0f} MB ({(rss - plain_rss) / pages:+,.0f} B per page)")
    if floor is not None:
        extra = min(by["cold"].cpu) - min(by["warm"].cpu)
        times = f" = {extra / floor:.2f}x it" if floor >= 0.01 else ""
        lines.append(f"   git log --name-only (whole history): {floor:.2f} s CPU; cold minus "
                     f"warm {extra:+.2f} s{times}")
    lines.append(f"   published (cold): {publication(by['cold'])}")
    return lines


def run_shape(pages: int, commits: int, rounds: int, args: argparse.Namespace,
              scratch: Path, sites: Path) -> list[str]:
    # Few commits add only 80 % of the files (the rest come in along the way): ask for more.
    n_files = pages * 5 // 4 if commits < pages else pages
    repo, info = C.synthetic_repo(n_files, commits, args.seed, work_dir=args.work_dir)
    docs = repo / "docs"
    rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
    label = f"{len(rels)}p/{commits}c"
    print(f"\n== shape {label}: repo {repo.name} (cached: {info['cached']}); "
          f"{C.repo_state(repo)}", flush=True)
    folder = scratch / f"{pages}-{commits}"
    contenders = [Contender(folder / n, sites, n, docs, rels[:3], p)
                  for n, p in (("plain", []), ("cold", ["sitemap-pro"]),
                               ("warm", ["sitemap-pro"]))]
    if args.base is not None:  # the same two, the package imported from another tree
        env = dict(os.environ, PYTHONPATH=str(args.base))
        contenders += [Contender(folder / n, sites, n, docs, rels[:3], ["sitemap-pro"],
                                 env=env) for n in ("cold-base", "warm-base")]
    compare(contenders, rounds)
    for c in contenders:
        print(f"  {c.name:<6} CPU s {' '.join(f'{v:.2f}' for v in c.cpu)} "
              f"(user {' '.join(f'{v:.2f}' for v in c.user)}); peak MB {' '.join(f'{v / MB:.0f}' for v in c.rss)}")
    lines = report(label, contenders, len(rels), commits, git_log_floor(repo, rounds))
    shutil.rmtree(folder, ignore_errors=True)
    for c in contenders:
        shutil.rmtree(c.site, ignore_errors=True)
    return lines


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--shapes", default=None,
                   help="pages:commits, comma-separated (default 1000:3,10000:3,60000:3,"
                        "2000:20000)")
    p.add_argument("--base", type=Path, default=None,
                   help="a tree whose package is built too (cold-base, warm-base), in "
                        "the same rounds: before and after a change, alike in the machine's "
                        "swings")
    args = p.parse_args()
    if args.base is not None:
        import compileall

        compileall.compile_dir(str(args.base / "mkdocs_sitemap_pro"), quiet=1)
    default = "100:3,200:500" if args.quick else "1000:3,10000:3,60000:3,2000:20000"
    shapes = [tuple(int(n) for n in s.split(":")) for s in (args.shapes or default).split(",")]
    rounds = args.rounds or (1 if args.quick else 3)
    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("scale: mkdocs build, plain vs sitemap-pro cold and warm (CPU of the "
                   "process tree, peak RSS)",
                   {"shapes": ",".join(f"{a}:{b}" for a, b in shapes), "rounds": rounds,
                    "theme": "mkdocs", "seed": args.seed})
    lines: list[str] = []
    with C.ScratchDir() as scratch, C.ScratchDir(memory=True) as sites:
        print(f"   sites written in {sites.parent}", flush=True)
        for pages, commits in shapes:
            lines += run_shape(pages, commits, rounds, args, scratch, sites)
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
