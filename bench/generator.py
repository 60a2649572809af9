"""Benchmark: writing a million-URL sitemap tree with ``write_sitemaps``.

Contenders, alternated in the same run, with gzip off and on:

- ours: ``write_sitemaps(entries, ...)`` with default limits (1,000,000 URLs -> 20
  files of 50,000 + an index) over raw entries in page order (not sorted): most URLs are
  already escaped, about 2 % hold raw non-ASCII (``é``, ``日本``) and 1 % a ``&``;
  lastmods are aware datetimes (95 % UTC, 5 % +02:00). While it runs, the module's
  internal stages are timed by wrapping the module's functions (``_collect``: normalise +
  check; ``_sort_and_merge``: sort by loc + merge duplicates; ``_write_shards``:
  serialise + write + gzip of every shard; ``_write_index``; the rest: setup, renames,
  freeing memory). Stages whose function is missing are skipped; without
  ``_write_shards`` only the whole pipeline is reported.
- naive: the floor for pure Python. The same entries, their locs already normalised
  (outside the timing), written with plain f-strings: no escaping, no sorting, no
  checks, a new file every 50,000 URLs, an index; gzip at the same level as ours.
- jinja: MkDocs' own ``sitemap.xml`` template (read from the installed mkdocs package)
  rendered with Jinja2 over objects that mimic what it reads (``file.page.is_link``,
  ``abs_url``, ``canonical_url``, ``update_date``), built outside the timing from the
  normalised locs and preformatted dates; one render per 50,000 URLs, plus an index
  (f-strings); gzip at the same level as ours.
- zlib (with gzip only): the yardstick. zlib alone, at the same level, compressing the
  very bytes of the ``.xml`` files ours writes (read into memory outside the timing):
  what gzip costs whatever writes the text. Goal: ours whole pipeline <= 2x.

Memory: each size runs ``write_sitemaps`` in a fresh subprocess that builds the entries,
records its RSS, resets the peak (Linux ``clear_refs``), writes, and reads the peak RSS
(``VmHWM``; see ``_common.peak_rss_bytes`` for why not ``ru_maxrss``); the difference is
what writing costs beyond holding the entries.

    python bench/generator.py            # 1,000,000 entries, 5 rounds
    python bench/generator.py --quick    # 20,000 entries, 3 rounds
"""

from __future__ import annotations

import datetime as dt
import gzip as gzip_module
import json
import os
import random
import shutil
import subprocess
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

BASE_URL = "https://example.com/docs/"
SHARD = 50_000
UTC = dt.timezone.utc
PLUS2 = dt.timezone(dt.timedelta(hours=2))


def make_entries(n: int, seed: int) -> list:
    """``n`` SitemapEntry values in page order (shuffled, as a nav gives them)."""
    from mkdocs_sitemap_pro.core.entry import SitemapEntry

    rng = random.Random(seed)
    start = int(dt.datetime(2018, 1, 1, tzinfo=UTC).timestamp())
    span = 6 * 365 * 86400
    out = []
    for i in range(n):
        section, page = divmod(i, 1000)
        roll = rng.random()
        if roll < 0.01:
            loc = f"{BASE_URL}section-{section}/café-{page}/"
        elif roll < 0.02:
            loc = f"{BASE_URL}section-{section}/日本-{page}/"
        elif roll < 0.03:
            loc = f"{BASE_URL}section-{section}/q&a-{page}/"
        else:
            loc = f"{BASE_URL}section-{section}/page-{page}/"
        ts = start + rng.randrange(span)
        tz = PLUS2 if rng.random() < 0.05 else UTC
        out.append(SitemapEntry(loc, dt.datetime.fromtimestamp(ts, tz)))
    rng.shuffle(out)
    return out


def gzip_level() -> tuple[int, str]:
    """The generator's gzip level and where it was found."""
    from mkdocs_sitemap_pro.core import atomic

    return int(atomic.GZIP_LEVEL), "mkdocs_sitemap_pro.core.atomic.GZIP_LEVEL"


def _write_pair(path: Path, data: bytes, gz: bool, level: int) -> None:
    path.write_bytes(data)
    if gz:
        with open(str(path) + ".gz", "wb") as raw, gzip_module.GzipFile(
            filename="", mode="wb", fileobj=raw, compresslevel=level, mtime=0
        ) as stream:
            stream.write(data)


def _index(names: list[str], out: Path, gz: bool, level: int) -> None:
    body = "".join(f"<sitemap><loc>{BASE_URL}{n}</loc></sitemap>\n" for n in names)
    data = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{body}</sitemapindex>\n"
    ).encode("utf-8")
    _write_pair(out / "sitemap.xml", data, gz, level)


def naive_writer(rows: list[tuple[str, str]], out: Path, gz: bool, level: int) -> None:
    """rows: (normalised loc, lastmod text). f-strings, no escaping, no checks."""
    names = []
    for k in range(0, len(rows), SHARD):
        body = "".join(
            [f"<url><loc>{loc}</loc><lastmod>{lm}</lastmod></url>\n" for loc, lm in rows[k:k + SHARD]]
        )
        data = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{body}</urlset>\n"
        ).encode("utf-8")
        name = f"sitemap-{k // SHARD + 1}.xml"
        _write_pair(out / name, data, gz, level)
        names.append(name)
    _index(names, out, gz, level)


class _Page:
    __slots__ = ("is_link", "abs_url", "canonical_url", "update_date")

    def __init__(self, url: str, date: str) -> None:
        self.is_link = False
        self.abs_url = url
        self.canonical_url = url
        self.update_date = date


class _File:
    __slots__ = ("page",)

    def __init__(self, page: _Page) -> None:
        self.page = page


def jinja_template():
    import jinja2
    import mkdocs

    text = (Path(mkdocs.__file__).parent / "templates" / "sitemap.xml").read_text(encoding="utf-8")
    env = jinja2.Environment(auto_reload=False)  # as mkdocs.theme.Theme.get_env
    return env.from_string(text)


def jinja_writer(template, files: list[_File], out: Path, gz: bool, level: int) -> None:
    names = []
    for k in range(0, len(files), SHARD):
        data = template.render(pages=files[k:k + SHARD]).encode("utf-8")
        name = f"sitemap-{k // SHARD + 1}.xml"
        _write_pair(out / name, data, gz, level)
        names.append(name)
    _index(names, out, gz, level)


def zlib_alone(datas: list[bytes], level: int) -> None:
    """Compress each of ``datas`` in the gzip format (wbits 31) at ``level``, as zlib alone."""
    for data in datas:
        stream = zlib.compressobj(level, zlib.DEFLATED, 31)
        stream.compress(data)
        stream.flush()


class StageTimer:
    """Wraps the generator's internal stages while it runs (see the module docstring).

    Each stage function found in the module is replaced, for the duration of one call,
    by a wrapper that adds up its wall time; ``rest`` is the whole call minus them.
    """

    STAGES = (
        ("collect", "normalise+check"),
        ("sort_and_merge", "sort+merge"),
        ("write_shards", "serialise+write shards"),
        ("write_index", "index"),
    )

    def __init__(self) -> None:
        from mkdocs_sitemap_pro.core.writer import write as pipeline

        self.gen = pipeline
        self.names = [(n, label) for n, label in self.STAGES if callable(getattr(pipeline, n, None))]
        self.ok = any(n == "write_shards" for n, _ in self.names)
        self.times: dict[str, list[float]] = {label: [] for _, label in self.names}
        self.total: list[float] = []
        self._current: dict[str, float] = {}

    def _wrap(self, label: str, fn):
        def wrapper(*a, **kw):
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self._current[label] = self._current.get(label, 0.0) + time.perf_counter() - t0

        return wrapper

    def run(self, fn) -> None:
        g = self.gen
        saved = {n: getattr(g, n) for n, _ in self.names}
        for n, label in self.names:
            setattr(g, n, self._wrap(label, saved[n]))
        self._current = {}
        t0 = time.perf_counter()
        try:
            fn()
        finally:
            self.total.append(time.perf_counter() - t0)
            for n, f in saved.items():
                setattr(g, n, f)
        for label in self.times:
            self.times[label].append(self._current.get(label, 0.0))

    def drop_warmup(self) -> None:
        for label in self.times:
            self.times[label] = self.times[label][1:]
        self.total = self.total[1:]

    def rest(self) -> list[float]:
        return [t - sum(v[i] for v in self.times.values()) for i, t in enumerate(self.total)]


def fresh(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def tree_bytes(folder: Path, suffix: str) -> int:
    return sum(p.stat().st_size for p in folder.iterdir() if p.name.endswith(suffix))


def memory_child(n: int, gz: bool, seed: int, out: str) -> None:
    """Subprocess body: RSS holding the entries vs peak RSS while writing them."""
    import gc

    from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps

    entries = make_entries(n, seed)
    gc.collect()
    rss_entries = C.rss_bytes()
    reset = C.reset_peak_rss()
    peak_before = C.peak_rss_bytes()
    t0 = time.perf_counter()
    options = WriteOptions(gzip=gz, build_time=dt.datetime(2025, 1, 1, tzinfo=UTC))
    report = write_sitemaps(entries, out, BASE_URL, options)
    seconds = time.perf_counter() - t0
    peak = C.peak_rss_bytes()
    print(json.dumps({
        "n": n, "gzip": gz, "rss_entries": rss_entries, "peak": peak, "reset": reset,
        "peak_before": peak_before, "seconds": seconds, "files": len(report.files),
        "urls": report.url_count,
    }))


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--entries", type=int, default=None)
    p.add_argument("--no-memory", action="store_true", help="skip the memory subprocesses")
    p.add_argument("--memory-child", nargs=3, metavar=("N", "GZIP", "OUT"), help=argparse_hidden())
    args = p.parse_args()
    if args.memory_child:
        n, gz, out = args.memory_child
        memory_child(int(n), gz == "1", args.seed, out)
        return 0

    n = args.entries or (20_000 if args.quick else 1_000_000)
    rounds = args.rounds or (3 if args.quick else 5)
    level, level_src = gzip_level()
    C.print_header("generator: write_sitemaps vs naive f-string writer vs MkDocs' Jinja template",
                   {"entries": f"{n:,}", "rounds": rounds, "gzip level": f"{level} ({level_src})",
                    "seed": args.seed})

    from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps
    from mkdocs_sitemap_pro.core.urls import normalise_loc

    t0 = time.perf_counter()
    entries = make_entries(n, args.seed)
    t_make = time.perf_counter() - t0
    # baselines' input, prepared outside the timing: normalised locs, formatted dates
    rows = [(normalise_loc(e.loc), e.lastmod.isoformat()) for e in entries]
    files = [_File(_Page(loc, lm)) for loc, lm in rows]
    template = jinja_template()
    print(f"   built {n:,} entries in {t_make:.1f} s (+ baseline inputs)", flush=True)
    build_time = dt.datetime(2025, 1, 1, tzinfo=UTC)

    summary: list[str] = []
    with C.ScratchDir() as scratch:
        for gz in (False, True):
            label = "gzip" if gz else "no gzip"
            print(f"\n-- {label}", flush=True)
            stages = StageTimer()
            d_ours, d_naive, d_jinja = scratch / "ours", scratch / "naive", scratch / "jinja"
            report_box = {}

            def ours() -> None:
                stages.run(lambda: report_box.update(
                    r=write_sitemaps(entries, d_ours, BASE_URL,
                                     WriteOptions(gzip=gz, build_time=build_time))))

            def naive() -> None:
                naive_writer(rows, d_naive, gz, level)

            def jinja() -> None:
                jinja_writer(template, files, d_jinja, gz, level)

            contenders = [("ours", ours, lambda: fresh(d_ours)),
                          ("naive", naive, lambda: fresh(d_naive)),
                          ("jinja", jinja, lambda: fresh(d_jinja))]
            if gz:  # the yardstick: zlib alone on the bytes ours writes, read untimed
                same = fresh(scratch / "same")
                write_sitemaps(entries, same, BASE_URL, WriteOptions(build_time=build_time))
                datas = [path.read_bytes() for path in sorted(same.glob("*.xml"))]
                contenders.append(("zlib", lambda: zlib_alone(datas, level)))
            # each run writes into an empty folder, emptied untimed before it
            times = C.alternate(contenders, rounds)
            rep = report_box["r"]
            stages.drop_warmup()
            xml_bytes = tree_bytes(d_ours, ".xml")
            gz_bytes = tree_bytes(d_ours, ".gz")
            print(f"   ours wrote {len(rep.files)} .xml files ({'index' if rep.is_index else 'urlset'}), "
                  f"{rep.url_count:,} URLs, {xml_bytes / 1e6:.1f} MB xml"
                  + (f", {gz_bytes / 1e6:.1f} MB gz" if gz else "")
                  + f"; dropped {len(rep.dropped)}")
            print(f"   naive wrote {tree_bytes(d_naive, '.xml') / 1e6:.1f} MB xml, "
                  f"jinja {tree_bytes(d_jinja, '.xml') / 1e6:.1f} MB xml")
            m = {k: C.median(v) for k, v in times.items()}
            for k in ("ours", "naive", "jinja"):
                print(C.fmt_times(k, times[k]) + f"   {n / m[k] / 1e3:8.0f} k URLs/s  "
                      f"{xml_bytes / m[k] / 1e6:6.1f} MB/s")
            if stages.ok:
                for stage, runs in stages.times.items():
                    extra = ""
                    if stage == "serialise+write shards":
                        extra = f"   {xml_bytes / C.median(runs) / 1e6:6.1f} MB/s"
                    print(C.fmt_times(f"  ours: {stage}", runs) + extra)
                print(C.fmt_times("  ours: rest (setup, renames, frees)", stages.rest()))
                sw = C.median(stages.times["serialise+write shards"])
                what = "serialise+write (ours' _write_shards stage)"
            else:
                sw = m["ours"]
                what = "serialise+write (whole pipeline: stages not measurable)"
            sw_runs = stages.times["serialise+write shards"] if stages.ok else times["ours"]
            if gz:
                m["zlib"] = C.median(times["zlib"])
                print(C.fmt_times("zlib alone, same bytes", times["zlib"])
                      + f"   ours {m['ours'] / n * 1e6:.2f} µs a URL, zlib {m['zlib'] / n * 1e6:.2f}")
                r0 = m["ours"] / m["zlib"]
                summary.append(C.ratio_line(
                    "gzip: ours whole pipeline / zlib alone on the same bytes", r0, "<= 2x",
                    r0 <= 2, C.paired_ratio(times["ours"], times["zlib"])))
                print(summary[-1])
            r1 = sw / m["naive"]
            r2 = m["jinja"] / m["ours"]
            lines = [
                C.ratio_line(f"{label}: {what} / naive writer", r1, "<= 1.5x", r1 <= 1.5,
                             C.paired_ratio(sw_runs, times["naive"])),
                C.ratio_line(f"{label}: jinja template / ours whole pipeline", r2, ">= 2x", r2 >= 2,
                             C.paired_ratio(times["jinja"], times["ours"])),
                C.ratio_line(f"{label}: ours whole pipeline / naive writer", m["ours"] / m["naive"],
                             paired=C.paired_ratio(times["ours"], times["naive"])),
            ]
            for line in lines:
                print(line)
            summary += lines

        if not args.no_memory:
            print("\n-- memory (one subprocess per size; peak RSS while writing minus RSS holding the entries)",
                  flush=True)
            sizes = (max(1, n // 10), n)
            per_entry = {}
            for size in sizes:
                out = fresh(scratch / f"mem-{size}")
                res = subprocess.run(
                    [sys.executable, __file__, "--memory-child", str(size), "1", str(out),
                     "--seed", str(args.seed)],
                    check=True, capture_output=True, text=True,
                )
                d = json.loads(res.stdout.strip().splitlines()[-1])
                extra = d["peak"] - d["rss_entries"]
                per_entry[size] = extra / size
                print(f"   {size:>9,} entries (gzip): RSS holding entries {d['rss_entries'] / 2**20:7.1f} MiB, "
                      f"peak while writing {d['peak'] / 2**20:7.1f} MiB, extra {extra / 2**20:7.1f} MiB "
                      f"= {extra / size:5.0f} B/entry"
                      + ("" if d["reset"] else "  (peak reset unavailable: peak includes building)"))
                shutil.rmtree(out, ignore_errors=True)
            small, big = sizes
            growth = per_entry[big] / per_entry[small] if per_entry[small] > 0 else float("inf")
            line = C.ratio_line(
                f"memory: extra bytes/entry at {big:,} vs {small:,}", growth,
                "<= 1.5x (bounded per entry)", growth <= 1.5)
            print(line)
            summary.append(line)

    print("\n== summary")
    for line in summary:
        print(line)
    return 0


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    sys.exit(main())
