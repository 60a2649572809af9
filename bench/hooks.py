"""Benchmark: where the plugin's share of a ``mkdocs build`` goes, hook by hook.

Generated sites as in ``scale.py`` (3 commits; theme ``mkdocs``, a nav of three pages),
by default 1,000 and 20,000 pages. Each build runs in a fresh child process (this script
with ``--child``) that calls MkDocs as ``mkdocs build -q`` does, after wrapping, in that
process only, each of the plugin's hook methods (``SitemapProPlugin.on_config`` ..
``on_post_build``'s two parts, and ``load_config``: its options checked) in a counter of
calls, wall time and the main thread's CPU time (less what counting costs, measured in
the same process) (``time.thread_time``: the git thread
runs beside the hooks and is counted apart). Also measured in the child: importing the
package; the history thread (``BuildHistory._walk``, its own CPU time); the git
processes (their user + sys, from ``RUSAGE_CHILDREN``, and their commands); Python's
cyclic collector (wall time of every collection, by ``gc.callbacks``: a plugin that
keeps more objects makes MkDocs' own collections longer); the whole process's user and
sys. Contenders per size, alternated over ``--rounds``: plain (``plugins: []``), cold
(``cache_dir`` removed before the build) and warm (kept; primed once, untimed); the
lowest of each figure is printed, and per hook the CPU per page. The package is the one
Python imports (``PYTHONPATH``); nothing in it is changed.

``--no-gc``: the cyclic collector off in every build (``gc.disable``): a collection is
counted in whichever hook allocates when it falls due, so this shows each hook's own
cost, and with the collector on the difference is what collections add.

``--profile``: one more warm build per size under pyinstrument (sampling every 0.2 ms),
and, per hook, its call tree below the hook (the frames that took at least 2 % of it).

    python bench/hooks.py                      # 1,000 and 20,000 pages, 3 rounds (~8 min)
    python bench/hooks.py --pages 1000 --profile
    python bench/hooks.py --quick              # 100 pages, 1 round
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import logging
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

_CHILD = "--child"
HOOKS = ("load_config", "on_config", "on_pre_page", "on_page_content", "on_page_context",
         "on_env", "on_post_page", "_pages_written", "_write", "on_shutdown")
#: Steps inside the hooks, each counted apart (module, owner or None, function): shown
#: under the hook they run in; one not found (the code moved) is left out.
STEPS = {
    "on_pre_page": [("plugin.dependencies.tracker", "Tracker", "open")],
    "on_page_content": [("plugin.dependencies.tracker", "Tracker", "close"),
                        ("plugin.pages", "PageCollector", "note_markdown")],
    "on_page_context": [("plugin.build", None, "fingerprint"),
                        ("plugin.pages", "PageCollector", "candidate"),
                        ("core.dating|plugin.dating", "Dater", "date"),
                        ("plugin.output.date_on_page", "PageDates", "put_in_meta")],
    "on_env": [("plugin.build", "Build", "history_read")],
    "on_post_page": [("plugin.build", None, "read_head"),
                     ("plugin.pages", "PageCollector", "record")],
    "_write": [("plugin.build", "Build", "finish"), ("plugin.pipeline", "Build", "rendered_pages"),
               ("plugin.pipeline", None, "_gather"), ("plugin.pipeline", None, "write_once"),
               ("plugin.pipeline", None, "view_titles"),
               ("plugin.pipeline", "deploys", "write_manifest")],
}


# --------------------------------------------------------------------------- the child


def _timed(name: str, fn: Callable[..., Any], acc: dict[str, list[float]],
           clock: Callable[[], float] = time.thread_time) -> Callable[..., Any]:
    """``fn`` counted into ``acc[name]``: [calls, wall s, CPU s of the calling thread].
    ``functools.wraps`` keeps MkDocs' priority attribute."""
    cell = acc.setdefault(name, [0, 0.0, 0.0])

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), clock()
        try:
            return fn(*args, **kwargs)
        finally:
            cell[0] += 1
            cell[1] += time.perf_counter() - wall
            cell[2] += clock() - cpu
    return wrapper


def _wrap_plugin(acc: dict[str, list[float]]) -> None:
    """The plugin class's hooks, and the history thread, wrapped in counters."""
    from mkdocs.plugins import CombinedEvent

    from mkdocs_sitemap_pro.plugin import history as build_history, plugin

    cls = plugin.SitemapProPlugin
    for name in HOOKS:
        if name in cls.__dict__ and name not in ("_pages_written", "_write"):
            setattr(cls, name, _timed(name, cls.__dict__[name], acc))
    if "load_config" not in cls.__dict__:
        cls.load_config = _timed("load_config", cls.load_config, acc)  # BasePlugin's
    first, last = cls.__dict__["on_post_build"].methods
    cls.on_post_build = CombinedEvent(_timed("_pages_written", first, acc),
                                      _timed("_write", last, acc))
    import importlib

    for steps in STEPS.values():
        for module, owner, name in steps:
            where: Any = None
            for path in module.split("|"):  # where it is, or where it was
                try:
                    where = importlib.import_module(f"mkdocs_sitemap_pro.{path}")
                    break
                except ModuleNotFoundError:
                    continue
            if where is not None and owner is not None:
                where = getattr(where, owner, None)
            if where is None or not hasattr(where, name):  # moved: its row stays empty
                continue
            setattr(where, name, _timed(f"{owner or module.split('.')[-1]}.{name}",
                                        getattr(where, name), acc))
    history = build_history.BuildHistory
    history._walk = _timed("git thread", history._walk, acc)


def _count_git(commands: list[str]) -> None:
    """Every process the build starts, by its program and command (git's options left out)."""
    original = subprocess.Popen.__init__

    def init(self: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        words = [str(w) for w in ([args] if isinstance(args, (str, bytes)) else args)]
        named = [w for i, w in enumerate(words[1:], 1)
                 if not w.startswith("-") and words[i - 1] not in ("-c", "-C")]
        commands.append(" ".join([os.path.basename(words[0]), *named[:1]]))
        original(self, args, *rest, **kwargs)

    subprocess.Popen.__init__ = init  # type: ignore[method-assign]


def child(config_file: str, site: str, out: str, profile: bool, no_gc: bool) -> int:
    """One build, measured (see the module's docstring); the figures as JSON in ``out``."""
    import mkdocs.commands.build
    import mkdocs.config
    import mkdocs.plugins  # noqa: F401 (MkDocs' own, before the package's import is timed)

    logging.getLogger("mkdocs").setLevel(logging.ERROR)  # as ``-q``
    acc: dict[str, list[float]] = {}
    with_plugin = "sitemap-pro" in Path(config_file).read_text(encoding="utf-8")
    if with_plugin:
        acc["import"] = [1, time.perf_counter(), time.thread_time()]
        import mkdocs_sitemap_pro.plugin.plugin  # noqa: F401
        acc["import"][1] = time.perf_counter() - acc["import"][1]
        acc["import"][2] = time.thread_time() - acc["import"][2]
        _wrap_plugin(acc)
    # What counting costs a call (two clocks read per wrapper), outside and in.
    probe: dict[str, list[float]] = {}
    inner = _timed("probe", lambda: None, probe)
    outer = _timed("probe", inner, {})
    start = time.thread_time()
    for _ in range(2000):
        outer()
    acc["counting"] = [2000, 0.0, (time.thread_time() - start) / 2000 - probe["probe"][2] / 2000]
    commands: list[str] = []
    _count_git(commands)
    cells = [acc.setdefault(f"gc {generation}", [0, 0.0, 0.0]) for generation in range(3)]
    started: list[tuple[float, float]] = []

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append((time.perf_counter(), time.thread_time()))
        elif started:
            wall, cpu = started.pop()
            cell = cells[info["generation"]]
            cell[0] += 1
            cell[1] += time.perf_counter() - wall
            cell[2] += time.thread_time() - cpu

    gc.callbacks.append(on_gc)
    if no_gc:
        gc.disable()
    profiler = None
    if profile:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0002)
        profiler.start()
    wall = time.perf_counter()
    cfg = mkdocs.config.load_config(config_file=config_file, site_dir=site)
    cfg.plugins.on_startup(command="build", dirty=False)
    try:
        mkdocs.commands.build.build(cfg, dirty=False)
    finally:
        cfg.plugins.on_shutdown()
    wall = time.perf_counter() - wall
    gc.callbacks.remove(on_gc)
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    result: dict[str, Any] = {
        "hooks": acc, "wall": wall, "user": own.ru_utime, "sys": own.ru_stime,
        "git": kids.ru_utime + kids.ru_stime, "commands": commands,
        "rss": own.ru_maxrss * 1024,
    }
    if profiler is not None:
        profiler.stop()
        result["profile"] = _hook_trees(profiler.last_session)
    Path(out).write_text(json.dumps(result), encoding="utf-8")
    return 0


def _hook_trees(session: Any) -> str:
    """Per hook, the call tree below it (every call merged): frames of at least 2 % of
    the hook's time."""
    root = session.root_frame()
    trees: dict[str, dict[str, Any]] = {}

    def merge(into: dict[str, Any], frame: Any) -> None:
        into["time"] = into.get("time", 0.0) + frame.time
        kids = into.setdefault("kids", {})
        for each in frame.children:
            key = f"{each.function}  {Path(each.file_path or '?').name}:{each.line_no}"
            merge(kids.setdefault(key, {}), each)

    def visit(frame: Any) -> None:
        if frame.function in HOOKS and "mkdocs_sitemap_pro" in (frame.file_path or ""):
            merge(trees.setdefault(frame.function, {}), frame)
            return
        for each in frame.children:
            visit(each)

    if root is not None:
        visit(root)
    lines: list[str] = []

    def show(node: dict[str, Any], total: float, depth: int) -> None:
        for key, each in sorted(node.get("kids", {}).items(), key=lambda kv: -kv[1]["time"]):
            if each["time"] >= 0.02 * total and depth <= 8:
                lines.append(f"{'  ' * depth}{each['time'] * 1000:8.1f} ms  {key}")
                show(each, total, depth + 1)

    for name in HOOKS:
        if name in trees:
            lines.append(f"{name}: {trees[name]['time'] * 1000:.1f} ms sampled")
            show(trees[name], trees[name]["time"], 1)
    return "\n".join(lines)


# --------------------------------------------------------------------------- the parent


class Contender:
    """One variant's folder and mkdocs.yml (its ``cache_dir`` beside it), its site."""

    def __init__(self, folder: Path, sites: Path, name: str, docs: Path, nav: list[str],
                 plugins: list[str]) -> None:
        self.name = name
        folder.mkdir(parents=True)
        self.config, self.site = folder / "mkdocs.yml", sites / f"{folder.parent.name}-{name}"
        self.cache = folder / ".cache"
        C.write_mkdocs_config(self.config, f"Bench site {name}", docs, nav, plugins)
        self.runs: list[dict[str, Any]] = []
        self.no_gc = False

    def build(self, profile: bool = False) -> dict[str, Any]:
        shutil.rmtree(self.site, ignore_errors=True)
        if self.name == "cold":
            shutil.rmtree(self.cache, ignore_errors=True)
        out = self.config.with_suffix(".json")
        cmd = [sys.executable, os.path.abspath(__file__), _CHILD, str(self.config),
               str(self.site), str(out), *(["--profile"] if profile else []),
               *(["--no-gc"] if self.no_gc else [])]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit(f"{self.name}: the build failed:\n{res.stderr[-3000:]}")
        return json.loads(out.read_text(encoding="utf-8"))


def _low(runs: list[dict[str, Any]], key: str) -> float:
    return min(run[key] for run in runs)


def _low_hook(runs: list[dict[str, Any]], hook: str, field: int) -> float:
    return min(run["hooks"].get(hook, [0, 0.0, 0.0])[field] for run in runs)


def table(pages: int, by: dict[str, Contender]) -> list[str]:
    """The per-hook table of one size: lowest of the rounds, cold and warm."""
    plain = by["plain"].runs
    base = _low(plain, "user") + _low(plain, "sys")
    collector = ", ".join(f"{_low_hook(plain, f'gc {g}', 0):.0f} of generation {g} "
                          f"{_low_hook(plain, f'gc {g}', 2) * 1000:.0f} ms" for g in range(3))
    lines = [f"-- {pages:,} pages: plain {base:.2f} s CPU (user {_low(plain, 'user'):.2f}, "
             f"sys {_low(plain, 'sys'):.2f}); its collections: {collector}",
             f"   counting a call costs about {_low_hook(by['warm'].runs, 'counting', 2) * 1e6:.1f}"
             " us of CPU, taken off each row (steps are indented under their hook)",
             f"   {'hook':<28}{'calls':>7}{'cold ms':>10}{'us/page':>9}{'% plain':>9}"
             f"{'warm ms':>10}{'us/page':>9}{'% plain':>9}"]
    # A collection's time is counted in the hook it interrupts as well; the rows of the
    # collector are what the plugin's build spends in them more than plain's.
    rows = ["import", *HOOKS, "git thread", "gc 0", "gc 1", "gc 2"]
    rows = [row for hook in rows
            for row in (hook, *(f"  {owner or module.split('.')[-1]}.{name}"
                                for module, owner, name in STEPS.get(hook, ())))]
    overhead = _low_hook(by["warm"].runs, "counting", 2)
    for row in rows:
        cells = []
        for name in ("cold", "warm"):
            runs = by[name].runs
            cpu = _low_hook(runs, row.strip(), 2)
            if not row.startswith("gc"):  # less what counting its calls and steps cost
                counted = [row.strip(), *(f"{owner or module.split('.')[-1]}.{name}"
                                          for module, owner, name in STEPS.get(row, ()))]
                cpu -= overhead * sum(_low_hook(runs, each, 0) for each in counted)
            else:
                cpu -= _low_hook(plain, row, 2)
            cells.append(f"{cpu * 1000:>10.1f}{cpu / pages * 1e6:>9.1f}{cpu / base * 100:>8.2f}%")
        calls = _low_hook(by["warm"].runs, row.strip(), 0)
        label = f"{row} (added)" if row.startswith("gc") else row
        lines.append(f"   {label:<28}{calls:>7.0f}{''.join(cells)}")
    for name in ("cold", "warm"):
        runs = by[name].runs
        user, sys_ = _low(runs, "user"), _low(runs, "sys")
        git = _low(runs, "git")
        total = user + sys_ + git
        hooks = sum(_low_hook(runs, h, 2) for h in ("import", *HOOKS))
        r = total / (base + _low(plain, "git"))
        lines.append(C.ratio_line(f"{pages}p {name} / plain, CPU (process + git)", r))
        lines.append(f"   {name}: user {user:.2f} s ({user - _low(plain, 'user'):+.2f}), sys "
                     f"{sys_:.2f} s ({sys_ - _low(plain, 'sys'):+.2f}), git {git:.2f} s; "
                     f"in hooks and import {hooks:.2f} s; peak "
                     f"{_low(runs, 'rss') / 2**20:.0f} MB against {_low(plain, 'rss') / 2**20:.0f}")
        commands: dict[str, int] = {}
        for command in runs[-1]["commands"]:
            commands[command] = commands.get(command, 0) + 1
        lines.append(f"   {name} processes: " + (", ".join(
            f"{n} x {c}" for c, n in sorted(commands.items())) or "none"))
    return lines


def run_size(pages: int, rounds: int, args: argparse.Namespace, scratch: Path,
             sites: Path) -> list[str]:
    repo, info = C.synthetic_repo(pages * 5 // 4, 3, args.seed, work_dir=args.work_dir)
    docs = repo / "docs"
    rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
    print(f"\n== {len(rels):,} pages: repo {repo.name} (cached: {info['cached']})", flush=True)
    folder = scratch / str(pages)
    contenders = [Contender(folder / n, sites, n, docs, rels[:3], p)
                  for n, p in (("plain", []), ("cold", ["sitemap-pro"]),
                               ("warm", ["sitemap-pro"]))]
    by = {c.name: c for c in contenders}
    for c in contenders:
        c.no_gc = args.no_gc
    by["plain"].build()  # bytecode of MkDocs' side
    by["warm"].build()  # the warm contender's cache_dir
    for r in range(rounds):
        order = contenders if r % 2 == 0 else contenders[::-1]
        for c in order:
            c.runs.append(c.build())
        print(f"  round {r + 1}/{rounds}: " + "  ".join(
            f"{c.name}={c.runs[-1]['user'] + c.runs[-1]['sys'] + c.runs[-1]['git']:.2f}s"
            for c in contenders), flush=True)
    lines = table(len(rels), by)
    for line in lines:
        print(line)
    if args.profile:
        print(f"\n-- {len(rels):,} pages, warm, under pyinstrument:\n"
              + by["warm"].build(profile=True)["profile"], flush=True)
    shutil.rmtree(folder, ignore_errors=True)
    return lines


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == _CHILD:
        return child(sys.argv[2], sys.argv[3], sys.argv[4], "--profile" in sys.argv[5:],
                     "--no-gc" in sys.argv[5:])
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", default=None, help="site sizes, comma-separated "
                   "(default 1000,20000)")
    p.add_argument("--profile", action="store_true",
                   help="also a warm build under pyinstrument: the call tree below each hook")
    p.add_argument("--no-gc", action="store_true",
                   help="the cyclic collector off in every build: each hook's own cost, "
                        "without the collections that fall in it")
    args = p.parse_args()
    sizes = [int(n) for n in (args.pages or ("100" if args.quick else "1000,20000")).split(",")]
    rounds = args.rounds or (1 if args.quick else 3)
    C.isolate_git_env()
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    C.print_header("hooks: the plugin's CPU per hook in a mkdocs build (plain vs cold and warm)",
                   {"pages": ",".join(map(str, sizes)), "rounds": rounds, "theme": "mkdocs",
                    "seed": args.seed})
    lines: list[str] = []
    with C.ScratchDir() as scratch, C.ScratchDir(memory=True) as sites:
        for pages in sizes:
            lines += run_size(pages, rounds, args, scratch, sites)
    C.print_summary(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
