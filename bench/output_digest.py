"""Output digest: a sha256 of every file the plugin and the writer produce, to show that a
change leaves the output byte-identical.

Three parts, each written into a scratch folder, every build with a fixed
``SOURCE_DATE_EPOCH`` (2030-01-01: later than every commit, so no date is refused):

- ``a``: ``mkdocs build`` of ``example_site/``, in a ``git clone --shared`` of this
  repository at the last commit that touched ``example_site/``, so its pages carry the
  repository's own commit dates whatever is checked out.
- ``b``: a generated site of 10,000 pages over 3 commits (``_common.synthetic_repo``,
  cached in ``bench/.work/`` as ``scale.py`` does), theme ``mkdocs``, ``[sitemap-pro]``.
- ``c``: ``write_sitemaps`` alone on 3,000 deterministic entries: escaping, non-ASCII,
  duplicates, refused locs, every kind of lastmod (none, date, UTC, other offsets,
  fractions, future), changefreq, priority, alternates, images, entries too big for a
  file; written four ways (an index by ``max_urls`` with gzip, view pages and a feed;
  ``date`` lastmods split by ``max_bytes`` with ``index="always"``; one file written
  over a copy of the first tree, which removes its stale files; one file without gzip). Each
  ``WriteReport`` is digested as ``report.txt`` beside its files.

It imports whatever ``mkdocs_sitemap_pro`` is on the path, builds included, so
``PYTHONPATH=/other/tree python bench/output_digest.py`` digests that tree's output with
this script's inputs. Prints ``<sha256>  <part>/<relative path>`` for every file, sorted,
then ``combined <sha256>`` over those lines. Nothing is timed.

    python bench/output_digest.py            # 10,000 pages, 3,000 entries
    python bench/output_digest.py --quick    # 100 pages, 300 entries
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

# The package on the path (PYTHONPATH, else the installed one), found before _common puts
# this tree first; the builds are given the same one.
import mkdocs_sitemap_pro  # noqa: E402

PACKAGE_ROOT = str(Path(mkdocs_sitemap_pro.__file__).resolve().parent.parent)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402

SOURCE_DATE_EPOCH = 1_893_456_000  # 2030-01-01T00:00:00Z
BASE_URL = "https://example.com/docs/"
UTC = dt.timezone.utc


def build(config: Path, site: Path, cwd: Path) -> None:
    """``mkdocs build`` of ``config`` into ``site``, at the fixed build time."""
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(SOURCE_DATE_EPOCH), NO_MKDOCS_2_WARNING="1",
               PYTHONPATH=PACKAGE_ROOT)
    # -P: the folder it runs in (a clone of this tree) is not put on the path.
    res = subprocess.run([sys.executable, "-P", "-m", "mkdocs", "build", "-q", "-f", str(config),
                          "-d", str(site)], cwd=cwd, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"mkdocs build {config} failed:\n{res.stdout}\n{res.stderr}")


def example_site(scratch: Path) -> Path:
    """Part a: example_site/ built from a clone at its last commit."""
    commit = C.git(C.REPO_ROOT, "rev-list", "-1", "HEAD", "--", "example_site").decode().strip()
    common = C.git(C.REPO_ROOT, "rev-parse", "--path-format=absolute", "--git-common-dir")
    clone = scratch / "clone"
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout",
                    common.decode().strip(), str(clone)], check=True)
    C.git(clone, "checkout", "-q", "--detach", commit)
    site = scratch / "a"
    build(clone / "example_site" / "mkdocs.yml", site, clone)
    return site


def generated_site(scratch: Path, pages: int, seed: int, work_dir: Path | None) -> Path:
    """Part b: a generated site of ``pages`` pages over 3 commits (as ``scale.py``)."""
    repo, _ = C.synthetic_repo(pages * 5 // 4, 3, seed, work_dir=work_dir)
    docs = repo / "docs"
    rels = sorted(str(p.relative_to(docs)) for p in docs.rglob("*.md"))
    config = scratch / "b-project" / "mkdocs.yml"
    config.parent.mkdir()
    C.write_mkdocs_config(config, "Digest site", docs, rels[:3], ["sitemap-pro"])
    site = scratch / "b"
    build(config, site, config.parent)
    return site


def _loc(i: int) -> str:
    """The loc of entry ``i``: mostly plain, some needing escaping, a few refused."""
    section, page = divmod(i, 97)
    kind = i % 41
    if kind == 1:
        return f"{BASE_URL}s{section}/café-{page}/"
    if kind == 2:
        return f"{BASE_URL}s{section}/日本 {page}/"
    if kind == 3:
        return f"{BASE_URL}s{section}/q&a'{page}/?x=1&y=<{page}>#top"
    if kind == 4:
        return f"{BASE_URL}s{section}/pct%41%zz{page}/"
    if kind == 5:
        return f"https://elsewhere.example/{page}/"  # not under the site: dropped
    if kind == 6:
        return f"{BASE_URL}{'x' * 2100}{page}"  # too long: dropped
    if kind == 7:
        return f"{BASE_URL}s{section}/page-{page - 10}/"  # mostly a duplicate of another
    return f"{BASE_URL}s{section}/page-{page}/"


def _lastmod(i: int) -> dt.date | dt.datetime | None:
    """Every kind of lastmod, in turn."""
    seconds = 1_600_000_000 + i * 7_919
    kind = i % 9
    if kind == 0:
        return None
    if kind == 1:
        return dt.date(2020, 1, 1) + dt.timedelta(days=i % 1_500)
    if kind == 2:
        return dt.datetime.fromtimestamp(seconds, dt.timezone(dt.timedelta(hours=2)))
    if kind == 3:
        return dt.datetime.fromtimestamp(seconds, dt.timezone(dt.timedelta(hours=-5, minutes=-30)))
    if kind == 4:
        return dt.datetime.fromtimestamp(seconds + 0.25, UTC)
    if kind == 5:
        return dt.datetime(2031, 1, 1, tzinfo=UTC)  # after the build time: dropped
    return dt.datetime.fromtimestamp(seconds - seconds % 3_600 * (i % 2), UTC)


def writer_entries(n: int) -> list:
    """``n`` deterministic ``SitemapEntry`` values (see the module docstring)."""
    from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry

    changefreqs = (None, "daily", "weekly", None, "never")
    priorities = (None, 0.5, 1, 0.0, 0.8, None, 0.25)
    entries = []
    for i in range(n):
        loc = _loc(i)
        alternates: tuple = ()
        if i % 13 == 0 and i // 500 % 2 == 0:  # in every other stretch of 500
            alternates = (Alternate("fr", loc.replace("/docs/", "/docs/fr/")),
                          Alternate("x-default", loc))
        images: tuple = ()
        if 1_200 <= i < 1_500 and i % 3 == 0:
            images = tuple(f"{BASE_URL}img/{i}-{k}.png" for k in range(1 + i % 4)) + (
                f"{BASE_URL}img/ü {i}.png",)
        if i % 997 == 500:  # too big for a file of a few kB
            images = tuple(f"{BASE_URL}img/big-{i}-{k}.png" for k in range(300))
        entries.append(SitemapEntry(loc, _lastmod(i), changefreqs[i % 5], priorities[i % 7],
                                    alternates, images))
    return entries


def writer_alone(scratch: Path, n: int) -> Path:
    """Part c: ``write_sitemaps`` on ``n`` entries, four ways (see the module docstring)."""
    from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps
    from mkdocs_sitemap_pro.core.writer.feed import FeedSettings

    entries = writer_entries(n)
    titles = {e.loc: f"Page <{i}> & ‘title’" for i, e in enumerate(entries) if i % 3}
    when = dt.datetime.fromtimestamp(SOURCE_DATE_EPOCH, UTC)
    feed = FeedSettings(size=15, title="Digest", author="Bench", title_of=titles.get)
    shards = WriteOptions(max_urls=max(1, n // 6), html_view=True, title="Digest",
                          build_time=when, feed=feed)
    runs = (
        ("index", shards),
        ("bytes", WriteOptions(max_bytes=12_000, index="always", lastmod_format="date",
                               build_time=when)),
        ("over", shards),
        ("over", WriteOptions(build_time=when)),  # over the shards: the stale ones removed
        ("plain", WriteOptions(filename="map.xml", gzip=False, build_time=when)),
    )
    out = scratch / "c"
    for k, (folder, options) in enumerate(runs, 1):
        report = write_sitemaps(entries, out / folder, BASE_URL, options, titles)
        (out / f"report-{k}-{folder}.txt").write_text(repr(report) + "\n", encoding="utf-8")
    return out


def digests(part: str, folder: Path) -> Iterator[str]:
    """``<sha256>  <part>/<path>`` for every file under ``folder``, by path."""
    files = sorted((p.relative_to(folder).as_posix(), p) for p in folder.rglob("*") if p.is_file())
    for rel, path in files:
        yield f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {part}/{rel}"


def main() -> int:
    p = C.base_parser(__doc__.split("\n\n")[0])
    p.add_argument("--pages", type=int, default=None, help="pages of part b (default 10,000)")
    p.add_argument("--entries", type=int, default=None, help="entries of part c (default 3,000)")
    args = p.parse_args()
    pages = args.pages or (100 if args.quick else 10_000)
    n = args.entries or (300 if args.quick else 3_000)
    C.isolate_git_env()
    print(f"# {PACKAGE_ROOT}; pages={pages:,} entries={n:,} seed={args.seed}",
          file=sys.stderr, flush=True)
    combined = hashlib.sha256()
    with C.ScratchDir() as scratch:
        parts = (("a", lambda: example_site(scratch)),
                 ("b", lambda: generated_site(scratch, pages, args.seed, args.work_dir)),
                 ("c", lambda: writer_alone(scratch, n)))
        for part, make in parts:
            for line in digests(part, make()):
                print(line)
                combined.update(line.encode("utf-8") + b"\n")
    print(f"combined {combined.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
