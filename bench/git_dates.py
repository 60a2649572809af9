"""Benchmark: dating every page from git history in one pass.

Compares the build's route, ``GitHistory(read_map(docs, HistoryOptions(rule)))`` (the
history map of every tracked file), against, in the same run,
alternating, for each rule (``first-parent``, ``all``):

- the floor: one bare ``git log --first-parent --name-only -z --format=%H`` (or
  ``git log -m --name-only -z --format=%H`` for ``all``) over the same history, its
  output drained through a pipe; no parsing at all;
- the per-file approach: one ``git log -1 [--first-parent] --format=... -- <path>`` per
  file (what most date plugins do), timed on a sample of files and extrapolated.

Every file in the per-file samples is also a correctness check: the commit and date our
one pass gives must equal what ``git log -1`` says for that file. ``--verify-all`` checks
every file.

The repository is synthetic and reproducible (see ``bench/_common.py``): built with
``git fast-import``, fully packed, no commit-graph, cached under ``bench/.work/``.

    python bench/git_dates.py            # 10,000 files, 20,000 commits, 5 rounds
    python bench/git_dates.py --quick    # 1,000 files, 2,000 commits, 3 rounds
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

GOALS = {"first-parent": 1.3, "all": 1.5}
SPEEDUP_GOAL = 100.0


def floor_cmd(repo: Path, rule: str) -> list[str]:
    walk = ["--first-parent"] if rule == "first-parent" else ["-m"]
    return ["git", "-C", str(repo), "log", *walk, "--name-only", "-z", "--format=%H"]


def per_file_answer(repo: Path, rel: str, rule: str) -> tuple[str, str] | None:
    """(commit, committer ISO date) of ``git log -1 [--first-parent] -- rel``; None if none."""
    walk = ["--first-parent"] if rule == "first-parent" else []
    out = subprocess.run(
        ["git", "-C", str(repo), "--literal-pathspecs", "log", "-1", *walk,
         "--format=%H %cI", "--", rel],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    if not out:
        return None
    sha, iso = out.split(" ", 1)
    return sha, iso


def check(history, repo: Path, answers: dict[str, tuple[str, str] | None]) -> list[str]:
    """Mismatches between our pass and the per-file answers, as readable lines."""
    from mkdocs_sitemap_pro.core.git import Known

    bad: list[str] = []
    for rel, want in answers.items():
        got = history.last_changed(repo / rel)
        if want is None:
            if isinstance(got, Known):
                bad.append(f"{rel}: git log -1 finds nothing, ours says {got}")
            continue
        sha, iso = want
        if not isinstance(got, Known):
            bad.append(f"{rel}: git log -1 says {sha[:10]} {iso}, ours says {got}")
        elif got.when != dt.datetime.fromisoformat(iso) or not sha.startswith(got.commit):
            bad.append(
                f"{rel}: git log -1 says {sha[:10]} {iso}, ours says "
                f"{got.commit[:10]} {got.when.isoformat()}"
            )
    return bad


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--files", type=int, default=None)
    p.add_argument("--commits", type=int, default=None)
    p.add_argument("--sample", type=int, default=None,
                   help="files per round for the per-file approach")
    p.add_argument("--verify-all", action="store_true",
                   help="check every file against git log -1 (slow: one git per file)")
    p.add_argument("--rules", default="first-parent,all")
    args = p.parse_args()
    n_files = args.files or (1_000 if args.quick else 10_000)
    n_commits = args.commits or (2_000 if args.quick else 20_000)
    rounds = args.rounds or (3 if args.quick else 5)
    sample = args.sample or (50 if args.quick else 200)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]

    C.isolate_git_env()
    from mkdocs_sitemap_pro.core.git import GitHistory, read_map
    from mkdocs_sitemap_pro.core.git.answers import HistoryOptions

    C.print_header("git_dates: the history map vs bare git log vs git log per file",
                   {"files": n_files, "commits": n_commits, "rounds": rounds,
                    "per-file sample/round": sample, "seed": args.seed})
    repo, info = C.synthetic_repo(n_files, n_commits, args.seed, work_dir=args.work_dir)
    print(f"   repo: {repo.name} (cached: {info['cached']}, built in {info['build_seconds']} s); "
          f"{info['commits']} commits ({info['merges']} merges, {info['side_commits']} on side "
          f"branches), {info['file_changes']} file changes, {info['files']} files")
    print(f"   repo state: {C.repo_state(repo)}")
    docs = repo / "docs"
    rels = [
        r for r in C.git(repo, "ls-files", "-z", "--", "docs").decode("utf-8", "surrogateescape").split("\0") if r
    ]
    print(f"   {len(rels)} tracked files under docs/", flush=True)

    failures = 0
    summary: list[str] = []
    for rule in rules:
        print(f"\n-- rule {rule}", flush=True)
        cmd = floor_cmd(repo, rule)
        floor_bytes = 0
        last: dict[str, object] = {}
        answers: dict[str, tuple[str, str] | None] = {}
        order = list(rels)
        random.Random(args.seed + len(rule)).shuffle(order)
        cursor = 0
        sizes: list[int] = []

        def floor() -> None:
            nonlocal floor_bytes
            res = subprocess.run(cmd, stdout=subprocess.PIPE, check=True)
            floor_bytes = len(res.stdout)

        def ours() -> None:
            last["h"] = GitHistory(read_map(docs, HistoryOptions(rule)))

        def per_file() -> None:
            nonlocal cursor
            chunk = order[cursor:cursor + sample]
            if len(chunk) < sample:  # wrapped around: start over (already checked)
                cursor = 0
                chunk = order[:sample]
            cursor += len(chunk)
            for rel in chunk:
                answers[rel] = per_file_answer(repo, rel, rule)
            sizes.append(len(chunk))

        times = C.alternate([("ours", ours), ("floor", floor), ("per-file sample", per_file)],
                            rounds)
        h = last["h"]
        # per-file: each round timed a fresh sample; extrapolate each round to all files
        timed_sizes = sizes[1:]  # sizes[0] was the warm-up
        per_file_full = [t / n * len(rels) for t, n in zip(times["per-file sample"], timed_sizes)]
        m_ours, m_floor, m_pf = (C.median(times["ours"]), C.median(times["floor"]),
                                 C.median(per_file_full))
        print(C.fmt_times("ours: the history map", times["ours"]))
        print(C.fmt_times("floor: bare git log", times["floor"]))
        print(C.fmt_times(f"per-file, {sample} files", times["per-file sample"]))
        print(C.fmt_times(f"per-file, extrapolated to {len(rels)}", per_file_full))
        print(f"   floor command: {' '.join(cmd[3:])}  ({floor_bytes / 1e6:.1f} MB of output)")
        print(f"   ours: commits_read={h.map.commits_read}, "
              f"warnings={len(getattr(h, 'warnings', ()))}")
        r_floor = m_ours / m_floor
        speedup = m_pf / m_ours
        goal = GOALS.get(rule, 1.5)
        line1 = C.ratio_line(f"{rule} ours/floor", r_floor, f"<= {goal}x", r_floor <= goal,
                             C.paired_ratio(times["ours"], times["floor"]))
        line2 = C.ratio_line(
            f"{rule} per-file(extrapolated from {sample}/round)/ours", speedup,
            f">= {SPEEDUP_GOAL:.0f}x", speedup >= SPEEDUP_GOAL,
            C.paired_ratio(per_file_full, times["ours"]))
        print(line1)
        print(line2)
        summary += [line1, line2]

        if args.verify_all:
            todo = [r for r in rels if r not in answers]
            t0 = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
                for rel, ans in zip(todo, pool.map(lambda r: per_file_answer(repo, r, rule), todo)):
                    answers[rel] = ans
            print(f"   --verify-all: asked git log -1 for {len(todo)} more files "
                  f"({time.perf_counter() - t0:.1f} s)")
        bad = check(h, repo, answers)
        print(f"   verified against git log -1: {len(answers)} of {len(rels)} files, "
              f"{len(bad)} mismatches")
        for line in bad[:10]:
            print(f"     MISMATCH {line}")
        if bad:
            failures += 1
            summary.append(f"{rule}: {len(bad)} of {len(answers)} verified files differ from git log -1")

    print("\n== summary")
    for line in summary:
        print(line)
    if failures:
        print("FAILED: dates differ from git log -1 (see MISMATCH lines)")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
