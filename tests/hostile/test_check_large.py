"""Issue 54, item 9: a large sitemap under ``check``.

A 60 MB sitemap took 357 s and ~2 GB, with nothing printed until the end: each listed
page was resolved through ``os.path.realpath`` and ``Path.parents``, and the file was
held as a tree, plus a copy of it for the schema. Now it is read streaming
(``tests/core/check/test_streamed.py``), a line on stderr says how far a long check
has got, and a file over the protocol's limits is a finding like any other.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.entry import Alternate, SitemapEntry
from mkdocs_sitemap_pro.core.protocol import MAX_URLS, SITEMAP_NS
from mkdocs_sitemap_pro.core.writer import WriteOptions, write_sitemaps
from tests.core.check.tree_files import SITE, valid_files, write_tree

LANGS = ["en", "fr", "de", "es", "it", "pt", "nl", "pl", "ja", "zh"]


def i18n_site(folder: Path, pages: int) -> Path:
    """``pages`` pages in ten languages, each naming the other nine: the project's own
    writer, as a translated site is written (about 1 KB a URL)."""
    entries = []
    for page in range(pages):
        group = {lang: f"{SITE}{lang}/section-{page // 500}/page-{page % 500}/" for lang in LANGS}
        alternates = tuple(Alternate(lang, loc) for lang, loc in group.items())
        entries += [SitemapEntry(loc, dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
                                 + dt.timedelta(minutes=page), alternates=alternates)
                    for loc in group.values()]
    write_sitemaps(entries, folder, SITE, WriteOptions(gzip=False))
    return folder


def test_a_long_check_says_how_far_it_has_got(tmp_path, capsys):
    site = i18n_site(tmp_path, 2_000)  # 20,000 URLs in one file, no page built
    target = [str(site / "sitemap.xml"), "--site-url", SITE]
    assert main(["check", *target, "--progress", "0"]) == 1
    quiet = capsys.readouterr()
    assert quiet.err == ""
    assert main(["check", *target, "--progress", "0.000001"]) == 1
    told = capsys.readouterr()
    assert told.out == quiet.out  # the report is the same
    lines = told.err.splitlines()
    assert "mkdocs-sitemap-pro check: reading sitemap.xml: 10,000 elements, " in told.err, lines
    assert "mkdocs-sitemap-pro check: checking the pages: 19,000 of 20,000 listed URLs" \
        in lines, lines
    # a quick check, at the default interval, says nothing more
    tree = write_tree(tmp_path / "small", valid_files())
    assert main(["check", str(tree), "--site-url", SITE, "--progress", "5"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "soon"])
def test_a_bad_progress_interval_is_an_error_naming_it(value, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["check", ".", "--progress", value])
    assert exit_.value.code == 2
    assert "argument --progress: " in capsys.readouterr().err


def test_a_file_over_the_limits_is_a_finding(tmp_path, capsys):
    count = MAX_URLS + 10_000
    body = "".join(f"<url><loc>{SITE}p{i}/</loc><lastmod>2024-01-02</lastmod></url>\n"
                   for i in range(count))
    (tmp_path / "sitemap.xml").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n{body}</urlset>\n')
    status = main(["check", str(tmp_path / "sitemap.xml"), "--site-url", SITE, "--json"])
    out = capsys.readouterr().out
    assert status == 1
    assert f'"urls": {count}' in out
    assert f"{count:,} URLs, more than the protocol's {MAX_URLS:,}" in out


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM from /proc")
def test_a_50_mb_sitemap_is_checked_in_a_minute_and_500_mb(tmp_path):
    site = i18n_site(tmp_path, 4_990)  # 49,900 URLs, one file of ~51 MB
    size = (site / "sitemap.xml").stat().st_size
    assert 50_000_000 < size <= 52_428_800, size
    # The peak of the checking process itself (VmHWM: a forked child's own counters
    # start from its parent's).
    code = ("import sys; from mkdocs_sitemap_pro.cli.main import main; s = main(sys.argv[1:]); "
            "print(open('/proc/self/status').read(), file=sys.stderr); sys.exit(s)")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code, "check", str(site / "sitemap.xml"),
                           "--site-url", SITE], capture_output=True, text=True, timeout=300,
                          env=os.environ.copy())
    took = time.monotonic() - start
    assert done.returncode == 1, done.stderr  # no page is built: page-missing
    assert "49,900 URLs" in done.stdout.splitlines()[0]
    peak = next(int(line.split()[1]) for line in done.stderr.splitlines()
                if line.startswith("VmHWM:"))  # kB
    assert took < 60, took
    assert peak < 500 * 1024, peak
