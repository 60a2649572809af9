"""Benchmark: a ``mkdocs serve --dirty`` rebuild after saving a page, with and without the plugin.

A site of 1,000 pages in a synthetic git repository of 20,000 commits (the same builder
as ``bench/build.py``, cached under ``bench/.work/``), cloned into a scratch folder;
theme ``mkdocs``, a nav of three pages. Each contender is one long-lived process that
runs a serve session as ``mkdocs.commands.serve`` does (``on_startup`` once, the first
build, then ``build(config, serve_url=..., dirty=True)`` with a freshly loaded config
for every rebuild, the same plugin instance throughout), driven over a pipe:

- no-plugin: plugins ``[search]`` (MkDocs' own sitemap);
- warm: ``[search, sitemap-pro]``; the plugin keeps its history map across rebuilds;
- cold: the same, with everything the plugin keeps in memory forgotten before each
  rebuild (the map then comes from ``cache_dir``, as in a new process).

Before each timed rebuild one page is saved (a line appended; not committed), so each
rebuild renders one page, as after a save in an editor. Goal: warm <= 1.05x no-plugin
(wall time of the rebuild: loading the config and building). A ``git`` wrapper first on
PATH counts the git processes of every rebuild (all contenders run under it alike). The
CPU time of each rebuild (the driver's, all threads, and that of the processes it ran,
from ``getrusage``) is printed too: other work on a shared machine disturbs it less.

    python bench/serve.py            # 1,000 pages, 20,000 commits, 7 rounds
    python bench/serve.py --quick    # 60 pages, 300 commits, 2 rounds
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

GOAL = 1.05
SERVE_URL = "http://127.0.0.1:8000/docs/"
VARIANTS = {"no-plugin": ["search"], "warm": ["search", "sitemap-pro"],
            "cold": ["search", "sitemap-pro"]}


def driver(config_file: str, site_dir: str, cold: bool) -> int:
    """One serve session: the first build, then a rebuild per ``rebuild`` line on stdin."""
    import logging
    import resource

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    def cpu() -> float:
        """This process (every thread) and the children it waited for (git)."""
        own, children = (resource.getrusage(who) for who in
                         (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    logging.getLogger("mkdocs").setLevel(logging.ERROR)  # not the --dirty advice

    def get_config():  # as mkdocs.commands.serve does it
        config = load_config(config_file=config_file, site_dir=site_dir)
        config.site_url = SERVE_URL
        return config

    config = get_config()
    config.plugins.on_startup(command="serve", dirty=True)
    build(config, serve_url=SERVE_URL, dirty=True)
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "rebuild":
            break
        config = get_config()
        plugin = config.plugins.get("sitemap-pro")
        start = cpu()
        if cold and plugin is not None:
            plugin.forget()  # what the plugin keeps across builds
        build(config, serve_url=SERVE_URL, dirty=True)
        print(f"built {cpu() - start:.6f}", flush=True)
    get_config().plugins.on_shutdown()
    return 0


class Session:
    """A driver process of one contender, its git-call log and its rebuild count."""

    def __init__(self, name: str, config: Path, site: Path, bin_dir: Path) -> None:
        self.name = name
        self.log = bin_dir / "calls.log"
        env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        args = [sys.executable, __file__, "--driver", str(config), str(site)]
        if name == "cold":
            args.append("--cold")
        self.errors = bin_dir / "stderr.txt"  # MkDocs' --dirty advice, and any trouble
        with self.errors.open("w") as errors:
            self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=errors, text=True, env=env)
        self._expect("ready")
        self.git_calls: list[list[str]] = []
        self.cpu: list[float] = []  # CPU seconds of each rebuild

    def rebuild(self) -> None:
        before = self._calls()
        assert self.proc.stdin is not None
        self.proc.stdin.write("rebuild\n")
        self.proc.stdin.flush()
        self.cpu.append(float(self._expect("built")))
        self.git_calls.append(self._calls()[len(before):])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)

    def _calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def _expect(self, word: str) -> str:
        """The rest of the driver's next line, which must start with ``word``."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        said, _, rest = line.partition(" ")
        if said != word:
            self.proc.kill()
            raise SystemExit(f"{self.name}: the serve session failed (said {line!r}):\n"
                             + self.errors.read_text()[-3000:])
        return rest


def git_wrapper(folder: Path) -> Path:
    folder.mkdir(parents=True)
    real = shutil.which("git")
    assert real, "git is not on PATH"
    script = folder / "git"
    script.write_text(f'#!/bin/sh\necho "$*" >> "{folder / "calls.log"}"\nexec "{real}" "$@"\n')
    script.chmod(0o755)
    return folder


def subcommands(calls: list[str]) -> str:
    words = []
    for call in calls:
        parts = call.split()
        i = 0
        while i < len(parts) and (parts[i] == "-c" or parts[i].startswith("-")):
            i += 2 if parts[i] == "-c" else 1
        words.append(parts[i] if i < len(parts) else "?")
    return " ".join(words) or "none"


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        return driver(sys.argv[2], sys.argv[3], "--cold" in sys.argv[4:])
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=None)
    p.add_argument("--commits", type=int, default=None)
    args = p.parse_args()
    pages = args.pages or (60 if args.quick else 1_000)
    commits = args.commits or (300 if args.quick else 20_000)
    rounds = args.rounds or (2 if args.quick else 7)

    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("serve: a mkdocs serve --dirty rebuild after a save, with and without sitemap-pro",
                   {"pages": pages, "commits": commits, "rounds": rounds, "theme": "mkdocs",
                    "seed": args.seed})
    source, info = C.synthetic_repo(pages, commits, args.seed, work_dir=args.work_dir)
    print(f"   repo: {source.name} (cached: {info['cached']}); {info['commits']} commits "
          f"({info['merges']} merges), {info['files']} pages")
    with C.ScratchDir() as scratch:
        repo = scratch / "repo"
        subprocess.run(["git", "clone", "-q", str(source), str(repo)], check=True)
        print(f"   repo state: {C.repo_state(repo)}")
        docs = repo / "docs"
        rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
        sessions: dict[str, Session] = {}
        try:
            for name, plugins in VARIANTS.items():
                config = scratch / f"mkdocs-{name}.yml"
                C.write_mkdocs_config(config, "Serve bench site", docs, rels[:3], plugins)
                bin_dir = git_wrapper(scratch / f"bin-{name}")
                sessions[name] = Session(name, config, scratch / f"site-{name}", bin_dir)
            saves = iter(range(10**6))

            def save() -> None:  # untimed: one page saved before each rebuild
                page = docs / rels[3 + next(saves) % (len(rels) - 3)]
                with page.open("a", encoding="utf-8") as out:
                    out.write("\nSaved while serving.\n")

            times = C.alternate([(n, s.rebuild, save) for n, s in sessions.items()], rounds)
        finally:
            for session in sessions.values():
                session.close()

    m = {k: C.median(v) for k, v in times.items()}
    cpu = {name: session.cpu[1:] for name, session in sessions.items()}  # less the warm-up
    for name in VARIANTS:
        print(C.fmt_times(f"rebuild, {name}", times[name]))
    for name in VARIANTS:
        print(C.fmt_times(f"rebuild CPU, {name}", cpu[name]))
    for name, session in sessions.items():
        counts = [len(c) for c in session.git_calls[1:]]  # the warm-up rebuild is dropped
        print(f"   git processes per rebuild, {name}: {counts} "
              f"(last: {subcommands(session.git_calls[-1])})")
    r = m["warm"] / m["no-plugin"]
    lines = [
        C.ratio_line("warm / no-plugin", r, f"<= {GOAL}x", r <= GOAL,
                     C.paired_ratio(times["warm"], times["no-plugin"])),
        C.ratio_line("CPU time, warm / no-plugin",
                     C.median(cpu["warm"]) / C.median(cpu["no-plugin"]),
                     paired=C.paired_ratio(cpu["warm"], cpu["no-plugin"])),
        C.ratio_line("cold / no-plugin", m["cold"] / m["no-plugin"],
                     paired=C.paired_ratio(times["cold"], times["no-plugin"])),
        C.ratio_line("cold / warm", m["cold"] / m["warm"],
                     paired=C.paired_ratio(times["cold"], times["warm"])),
        f"   a warm rebuild adds {m['warm'] - m['no-plugin']:+.3f} s to a "
        f"{m['no-plugin']:.3f} s rebuild; a cold one {m['cold'] - m['no-plugin']:+.3f} s",
    ]
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
