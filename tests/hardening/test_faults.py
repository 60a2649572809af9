"""Hardening, faults: failed writes, read-only output, stale files, repeated and --dirty builds.

Every case runs the real ``mkdocs build`` (``Site``) and then reads back every file in
site_dir: nothing invalid written, nothing lost, no temporary file left. The one thing
patched is the lowest-level open in ``atomic`` to inject a full disk.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.dates import D1, D2, D3
from tests.support.faults import fail_writes
from tests.support.files import temporaries, tree
from tests.support.git import git_env
from tests.support.schemas import NS, parse_sitemap, urls_of
from tests.support.sites import SITE_URL, Site


def sitemap_tree(folder: Path) -> dict[str, bytes]:
    """The files a sitemap build owns or touches in the root of site_dir."""
    return {
        p.name: p.read_bytes()
        for p in sorted(folder.iterdir())
        if p.is_file() and (p.name.startswith("sitemap") or p.name == "robots.txt")
    }


def check_tree(site_dir: Path) -> list[str]:
    """Validate every sitemap file in site_dir against the schema; return the locs listed.

    The entry file may be a urlset or an index; an index's children must exist (with
    their ``.gz``) and every ``.gz`` must hold the same entries as its ``.xml``.
    """
    root = parse_sitemap(site_dir / "sitemap.xml")
    if root.tag == f"{{{NS}}}urlset":
        shards = ["sitemap.xml"]
    else:
        shards = [c["loc"].removeprefix(SITE_URL) for c in urls_of(root)]
        gz_children = urls_of(parse_sitemap(site_dir / "sitemap.xml.gz"))
        assert [c["loc"] for c in gz_children] == [SITE_URL + s + ".gz" for s in shards]
    locs: list[str] = []
    for name in shards:
        urls = urls_of(parse_sitemap(site_dir / name))
        assert urls_of(parse_sitemap(site_dir / (name + ".gz"))) == urls
        locs += [u["loc"] for u in urls]
    assert locs == sorted(locs) and len(set(locs)) == len(locs)
    return locs


def test_disk_full_on_the_third_shard_keeps_the_previous_tree(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(7):
        site.page(f"p{i}.md", f"# P{i}\n")
    site.commit("first", D1)
    site.set_options(max_urls=2)
    first = site.build()
    assert first.error is None, first.messages()
    before = tree(first.site_dir)
    assert sorted(sitemap_tree(first.site_dir)) == sorted([
        "robots.txt", *(f"sitemap-{n}.xml{gz}" for n in (1, 2, 3, 4) for gz in ("", ".gz")),
        "sitemap.xml", "sitemap.xml.gz", *(f"sitemap-{n}.html" for n in (1, 2, 3, 4)),
        "sitemap.html", "sitemap.manifest.json",
    ])

    # Something new to write: one page changed, one added (5 shards this time).
    site.page("p0.md", "# P0\nchanged\n")
    site.page("p9.md", "# P9\n")
    site.commit("second", D2)
    opened = fail_writes(monkeypatch, lambda name: name.startswith(".sitemap-3.xml.tmp-"), 64)
    built = site.build(dirty=True)  # a normal build would empty site_dir first

    assert any(name.startswith(".sitemap-3.xml.tmp-") for name in opened), opened
    assert built.error is not None
    errors = built.messages()
    assert any(
        "could not write the sitemap" in m
        and "No space left on device" in m
        and "the previous sitemap files were left as they were" in m
        for m in errors
    ), errors
    after = tree(built.site_dir)
    assert temporaries(built.site_dir) == []
    # Nothing lost: every earlier file is still there, the sitemap files byte for byte;
    # the only new file is the page MkDocs rendered before the sitemap step.
    assert set(after) - set(before) == {"p9/index.html"}
    assert sitemap_tree(built.site_dir) == {
        k: v for k, v in before.items() if k.startswith(("sitemap", "robots"))
    }
    check_tree(built.site_dir)

    # The disk has room again: the next --dirty build writes the new tree.
    monkeypatch.undo()
    again = site.build(dirty=True)
    assert again.error is None, again.messages()
    assert len(check_tree(again.site_dir)) == 8
    assert temporaries(again.site_dir) == []


# -- a site_dir that cannot be written ---------------------------------------------------


def _chmod_stops_writes(folder: Path) -> bool:
    """Whether mode 0o555 really stops this process creating files (root ignores it)."""
    probe = folder / "probe"
    probe.mkdir()
    probe.chmod(0o555)
    try:
        (probe / "x").write_bytes(b"")
    except PermissionError:
        return True
    finally:
        probe.chmod(0o755)
        shutil.rmtree(probe)
    return False


def _without_root_override() -> list[str]:
    """A command prefix under which directory modes bind this process, or skip the test.

    Root passes every mode check through the CAP_DAC_OVERRIDE capability, so as root the
    build runs with that capability (and its kin) dropped from the bounding set: still
    root, still owning every file, but the kernel's own permission check now applies.
    """
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("root, and no setpriv (util-linux) to drop CAP_DAC_OVERRIDE with")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]


def test_read_only_site_dir_fails_clearly_and_keeps_the_previous_tree(site: Site) -> None:
    """Mode 0o555 on site_dir, then ``mkdocs build --dirty`` with the real CLI."""
    for i in range(3):
        site.page(f"p{i}.md", f"# P{i}\n")
    site.commit("first", D1)
    site.set_options(max_urls=2)
    first = site.build()
    assert first.error is None, first.messages()
    # Change a page, not add one: MkDocs itself cannot create a new page's folder there.
    site.page("p2.md", "# P2\nchanged\n")
    site.commit("second", D2)

    prefix = [] if _chmod_stops_writes(site.root) else _without_root_override()
    before = tree(first.site_dir)
    first.site_dir.chmod(0o555)
    try:
        proc = subprocess.run(
            [*prefix, sys.executable, "-m", "mkdocs", "build", "--dirty"],
            cwd=site.root, env=git_env(), capture_output=True, text=True,
        )
        # The fault is real: this very command prefix cannot create a file there.
        probe = subprocess.run([*prefix, "touch", str(first.site_dir / "probe")],
                               capture_output=True)
        assert probe.returncode != 0
    finally:
        first.site_dir.chmod(0o755)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert f"could not write the sitemap into {first.site_dir}" in proc.stderr, proc.stderr
    assert "Permission denied" in proc.stderr, proc.stderr
    assert "the previous sitemap files were left as they were" in proc.stderr
    after = tree(first.site_dir)
    assert temporaries(first.site_dir) == []
    assert {k: after[k] for k in before if k.startswith(("sitemap", "robots"))} == {
        k: v for k, v in before.items() if k.startswith(("sitemap", "robots"))
    }
    check_tree(first.site_dir)


def test_robots_txt_that_is_a_folder_is_a_warning_and_the_sitemap_is_written(site: Site) -> None:
    site.page("index.md")
    site.page("a.md")
    site.commit("first", D1)
    first = site.build()
    assert first.error is None, first.messages()
    (first.site_dir / "robots.txt").unlink()
    (first.site_dir / "robots.txt").mkdir()
    site.page("a.md", "# A\nchanged\n")
    site.commit("second", D2)
    built = site.build(dirty=True)
    assert built.error is None
    warnings = [  # MkDocs itself warns that a --dirty build may have stale links
        r for r in built.records
        if r.levelno >= logging.WARNING and r.name != "mkdocs.commands.build"
    ]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert warnings[0].levelno == logging.WARNING
    message = warnings[0].getMessage()
    assert f"{built.site_dir / 'robots.txt'}" in message and "the sitemap was written" in message
    assert built.sitemap()[SITE_URL + "a/"]["lastmod"] == "2024-02-21T04:30:00+00:00"
    assert (built.site_dir / "robots.txt").is_dir()
    assert temporaries(built.site_dir) == []


# -- stale files and repeated builds ---------------------------------------------------


def test_stale_shards_removed_and_a_users_own_sitemap_files_kept(site: Site) -> None:
    for i in range(9):
        site.page(f"p{i}.md", f"# P{i}\n")
    site.commit("first", D1)
    site.set_options(max_urls=1)
    first = site.build()
    assert first.error is None, first.messages()
    index = urls_of(parse_sitemap(first.site_dir / "sitemap.xml"))
    assert [c["loc"] for c in index] == [f"{SITE_URL}sitemap-{n}.xml" for n in range(1, 10)]
    notes = b'<?xml version="1.0"?>\n<notes>mine</notes>\n'
    (first.site_dir / "sitemap-notes.xml").write_bytes(notes)
    (first.site_dir / "sitemap-10.xml").write_bytes(notes)  # not listed by our index

    (site.root / "docs" / "p8.md").unlink()
    site.commit("drop p8", D2)
    built = site.build(dirty=True)
    assert built.error is None, built.messages()
    names = sorted(p.name for p in built.site_dir.iterdir() if p.name.startswith("sitemap"))
    assert names == sorted(
        ["sitemap.xml", "sitemap.xml.gz", "sitemap-notes.xml", "sitemap-10.xml", "sitemap.html",
         "sitemap.manifest.json"]
        + [f"sitemap-{n}.xml{gz}" for n in range(1, 9) for gz in ("", ".gz")]
        + [f"sitemap-{n}.html" for n in range(1, 9)]  # html_view: sitemap-9.html went too
    )
    assert (built.site_dir / "sitemap-notes.xml").read_bytes() == notes
    assert (built.site_dir / "sitemap-10.xml").read_bytes() == notes
    locs = check_tree(built.site_dir)
    assert locs == [f"{SITE_URL}p{i}/" for i in range(8)]
    assert temporaries(built.site_dir) == []


def test_repeated_builds_are_identical_and_a_deleted_page_leaves_the_sitemap(site: Site) -> None:
    for name in ("index.md", "a.md", "b.md", "c.md", "d.md"):
        site.page(name, f"---\ntitle: {name}\n---\n# {name}\n")
    site.commit("first", D1)
    site.page("b.md", "# B\nchanged\n")
    site.commit("second", D2)
    site.set_options(max_urls=2)
    first = site.build()
    assert first.error is None, first.messages()
    snapshot = sitemap_tree(first.site_dir)
    second = site.build()
    assert second.error is None
    assert sitemap_tree(second.site_dir) == snapshot
    dirty = site.build(dirty=True)  # no page rendered: every page read back from disk
    assert dirty.error is None, dirty.messages()
    assert sitemap_tree(dirty.site_dir) == snapshot
    assert (dirty.site_dir / "robots.txt").read_text() == f"Sitemap: {SITE_URL}sitemap.xml\n"

    (site.root / "docs" / "c.md").unlink()
    site.commit("remove c", D3)
    gone = site.build(dirty=True)
    assert gone.error is None, gone.messages()
    assert (gone.site_dir / "c" / "index.html").exists()  # --dirty never removes output
    locs = check_tree(gone.site_dir)
    assert locs == [SITE_URL, f"{SITE_URL}a/", f"{SITE_URL}b/", f"{SITE_URL}d/"]
    assert sorted(p.name for p in gone.site_dir.glob("sitemap*")) == [
        "sitemap-1.html", "sitemap-1.xml", "sitemap-1.xml.gz", "sitemap-2.html",
        "sitemap-2.xml", "sitemap-2.xml.gz", "sitemap.html", "sitemap.manifest.json",
        "sitemap.xml", "sitemap.xml.gz",
    ]
    assert temporaries(gone.site_dir) == []


_KILLED_WRITER = """
import datetime as dt, sys
from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps
when = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
entries = [SitemapEntry(f"{sys.argv[2]}big/{i:07d}/", when) for i in range(400_000)]
print("writing", flush=True)
write_sitemaps(entries, sys.argv[1], sys.argv[2], WriteOptions(max_urls=1000))
"""


def test_a_build_killed_while_writing_leaves_nothing_after_the_next_build(site: Site) -> None:
    """SIGKILL gives no chance to clean up; the next build must not keep (and publish)
    the killed writer's temporary files. MkDocs' clean step skips hidden files, so
    nothing else would ever remove them."""
    import signal
    import time

    site.page("index.md")
    site.page("a.md")
    site.commit("first", D1)
    first = site.build()
    assert first.error is None, first.messages()
    before = sitemap_tree(first.site_dir)
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(first.site_dir), SITE_URL],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "writing\n"
        deadline = time.monotonic() + 60
        while not temporaries(first.site_dir):
            assert proc.poll() is None, "the writer finished before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.001)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    left = temporaries(first.site_dir)
    assert left and all(".tmp-" in name for name in left), left
    assert sitemap_tree(first.site_dir) == before  # the kill itself lost nothing

    for dirty in (True, False):  # mkdocs' own clean step keeps hidden files
        built = site.build(dirty=dirty)
        assert built.error is None, built.messages()
        assert temporaries(built.site_dir) == [], (dirty, temporaries(built.site_dir))
        assert len(check_tree(built.site_dir)) == 2


# -- scale ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_million_entries_make_twenty_full_files_and_an_index(tmp_path: Path) -> None:
    """The generator alone (no MkDocs): 1,000,000 URLs at the protocol's limits."""
    import datetime as dt

    from mkdocs_sitemap_pro.core.entry import SitemapEntry
    from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps

    base = "https://example.com/"
    start = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    # Given in reverse order, with one duplicate in a hundred: sorted and merged on write.
    entries = [
        SitemapEntry(f"{base}p/{i:07d}/", start + dt.timedelta(seconds=i) if i % 3 else None)
        for i in range(999_999, -1, -1)
    ]
    entries += entries[::100]
    build_time = dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc)
    report = write_sitemaps(entries, tmp_path, base, WriteOptions(build_time=build_time))
    del entries
    shards = [f"sitemap-{n}.xml" for n in range(1, 21)]
    assert report.is_index and report.files == ("sitemap.xml", *shards)
    assert report.url_count == 1_000_000 and report.dropped == ()
    assert len(report.duplicates) == 10_000
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(report.files + report.gz_files)

    index = urls_of(parse_sitemap(tmp_path / "sitemap.xml"))
    assert [c["loc"] for c in index] == [base + name for name in shards]
    gz_index = urls_of(parse_sitemap(tmp_path / "sitemap.xml.gz"))
    assert [c["loc"] for c in gz_index] == [base + name + ".gz" for name in shards]
    expected = iter(f"{base}p/{i:07d}/" for i in range(1_000_000))
    for k, name in enumerate(shards):
        path = tmp_path / name
        assert path.stat().st_size <= 52_428_800
        urls = urls_of(parse_sitemap(path))  # every file against the official schema
        assert len(urls) == 50_000
        assert [u["loc"] for u in urls] == [next(expected) for _ in range(50_000)]
        newest = max(u["lastmod"] for u in urls if "lastmod" in u)
        assert index[k]["lastmod"] == gz_index[k]["lastmod"] == newest
        assert urls_of(parse_sitemap(tmp_path / (name + ".gz"))) == urls
    assert next(expected, None) is None  # every URL exactly once, in order
