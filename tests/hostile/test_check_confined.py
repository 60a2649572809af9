"""``check`` on a hostile site folder never reads outside it (issue 42, experiments 1-4).

Each test keeps a sentinel outside the folder that would change the report if it were
read: a page that says noindex (``page-noindex``), an indexable page (``page-unlisted``),
a sitemap listing URLs (``url_count``), a differing ``.gz`` twin (``gz-twin``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.check import CheckOptions, Report, check
from tests.core.check.tree_files import NOW, PAGE, index, pages, rules, url, urlset, write_tree

SITE = "https://example.com/docs/"
NOINDEX = PAGE.format(head='<meta name="robots" content="noindex">')
OUTSIDE = "loc-outside-site"


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    """The site folder checked, and a folder beside it holding the sentinels."""
    site, outside = tmp_path / "site", tmp_path / "outside"
    write_tree(outside, {
        "secret/index.html": NOINDEX,
        "secret.html": NOINDEX,
        "indexable.html": PAGE.format(head=""),
        "sitemap.xml": urlset(url(SITE + "leak-1/"), url(SITE + "leak-2/")),
        "sitemap.xml.gz": urlset(url(SITE + "leak-3/")),
        "robots.txt": f"Sitemap: {SITE}leak.xml\n",
    })
    write_tree(site, pages("", "a/"))
    return site, outside


def _check(site: Path, count_unlisted: bool = False) -> Report:
    return check(str(site), CheckOptions(site_url=SITE, now=NOW, count_unlisted=count_unlisted))


def _absolute(outside: Path, rest: str, slash: str) -> str:
    """A loc under SITE whose path, unescaped, is the absolute path ``outside/rest``."""
    return SITE + slash + outside.as_posix().lstrip("/") + "/" + rest


LOC_FORMS = {"double slash": "/", "escaped slash": "%2F", "escaped slash, lower": "%2f"}


@pytest.mark.parametrize("slash", LOC_FORMS.values(), ids=LOC_FORMS.keys())
def test_a_loc_naming_an_absolute_path_is_a_finding_not_a_file_read(tmp_path, slash):
    """Experiment 1: ``…/docs//etc/passwd`` and ``…/docs/%2Froot/.bashrc``."""
    site, outside = _folders(tmp_path)
    locs = [_absolute(outside, "secret/", slash), _absolute(outside, "secret.html", slash)]
    write_tree(site, {"sitemap.xml": urlset(url(SITE), url(SITE + "a/"), *map(url, locs))})
    report = _check(site)
    assert "page-noindex" not in rules(report)  # the sentinels were not read
    outside_found = [f for f in report.findings if f.rule == OUTSIDE]
    assert sorted(f.url for f in outside_found) == sorted(locs)
    assert all(f.severity == "error" for f in outside_found)
    assert report.status() == 1


def test_escaped_dot_segments_lead_outside_too(tmp_path):
    site, _ = _folders(tmp_path)
    loc = SITE + "%2E%2E/outside/secret/"
    write_tree(site, {"sitemap.xml": urlset(url(SITE), url(loc))})
    report = _check(site)
    assert "page-noindex" not in rules(report)
    assert [f.url for f in report.findings if f.rule == OUTSIDE] == [loc]


@pytest.mark.parametrize("slash", LOC_FORMS.values(), ids=LOC_FORMS.keys())
def test_a_loc_naming_a_missing_file_outside_is_a_finding_not_a_traceback(tmp_path, slash):
    """Experiment 2: a missing file (``ValueError … is not in the subpath`` before)."""
    site, outside = _folders(tmp_path)
    loc = _absolute(outside, "no-such-page/", slash)
    write_tree(site, {"sitemap.xml": urlset(url(SITE), url(loc))})
    report = _check(site)
    assert [f.url for f in report.findings if f.rule == OUTSIDE] == [loc]
    assert "page-missing" not in rules(report)  # not looked for: it is not in the site


@pytest.mark.parametrize("slash", LOC_FORMS.values(), ids=LOC_FORMS.keys())
def test_index_children_outside_are_findings_and_not_read(tmp_path, slash):
    """Experiment 2, in an index: a missing child (a traceback before) and one that
    exists outside (read and counted before)."""
    site, outside = _folders(tmp_path)
    missing, present = _absolute(outside, "none.xml", slash), _absolute(outside, "sitemap.xml", slash)
    write_tree(site, {
        "sitemap.xml": index((SITE + "sitemap-1.xml", None), (missing, None), (present, None)),
        "sitemap-1.xml": urlset(url(SITE), url(SITE + "a/")),
    })
    report = _check(site)
    assert report.url_count == 2  # only sitemap-1.xml's: leak-1/ and leak-2/ were not read
    assert len(report.files) == 2
    found = [f for f in report.findings if f.rule == OUTSIDE]
    assert sorted(f.url for f in found) == sorted([missing, present])
    assert not any("leak" in f.message for f in report.findings)


def test_a_symlinked_sitemap_leading_outside_is_not_read(tmp_path):
    """Experiment 3: ``sitemap.xml`` -> a file outside."""
    site, outside = _folders(tmp_path)
    (site / "sitemap.xml").symlink_to(outside / "sitemap.xml")
    report = _check(site)
    assert report.url_count == 0 and report.files == []
    assert OUTSIDE in rules(report) and report.status() == 1
    # Given as a file, the same.
    direct = check(str(site / "sitemap.xml"), CheckOptions(site_url=SITE, now=NOW))
    assert direct.url_count == 0 and OUTSIDE in rules(direct)


def test_a_symlinked_twin_and_robots_txt_leading_outside_are_not_read(tmp_path):
    site, outside = _folders(tmp_path)
    write_tree(site, {"sitemap.xml": urlset(url(SITE), url(SITE + "a/")),
                      "leak.xml": urlset(url(SITE + "leak-4/"))})
    (site / "sitemap.xml.gz").symlink_to(outside / "sitemap.xml.gz")
    (site / "robots.txt").symlink_to(outside / "robots.txt")
    report = _check(site)
    assert report.files == ["sitemap.xml"]  # not leak.xml, which only the outside robots.txt names
    assert "gz-twin" not in rules(report)  # the outside twin was not compared
    assert sorted(f.file for f in report.findings if f.rule == OUTSIDE) == [
        "robots.txt", "sitemap.xml.gz"]


def test_a_symlinked_directory_or_page_leading_outside_is_not_a_page(tmp_path):
    """Experiment 3: a directory symlink made a page outside count as present (and read)."""
    site, outside = _folders(tmp_path)
    (site / "sub").symlink_to(outside / "secret", target_is_directory=True)
    (site / "p.html").symlink_to(outside / "secret.html")
    (site / "u.html").symlink_to(outside / "indexable.html")  # not listed
    write_tree(site, {"sitemap.xml": urlset(url(SITE), url(SITE + "a/"), url(SITE + "sub/"),
                                            url(SITE + "p.html"))})
    report = _check(site, count_unlisted=True)
    assert "page-noindex" not in rules(report)
    assert "page-unlisted" not in rules(report)  # u.html was not read as a page of the site
    assert sorted(f.url for f in report.findings if f.rule == OUTSIDE) == [
        SITE + "p.html", SITE + "sub/"]


def test_symlinks_inside_the_folder_are_followed(tmp_path):
    site, _ = _folders(tmp_path)
    write_tree(site, {"real/sitemap.xml": urlset(url(SITE), url(SITE + "a/"), url(SITE + "b/"))})
    (site / "sitemap.xml").symlink_to(Path("real") / "sitemap.xml")
    (site / "b").symlink_to(site / "a", target_is_directory=True)
    report = _check(site)
    assert report.findings == [] and report.url_count == 3


FIFOS = {
    "sitemap.xml": "sitemap.xml",
    "its .gz twin": "sitemap.xml.gz",
    "robots.txt": "robots.txt",
    "an unlisted page": "b.html",
    "versions.json": "versions.json",
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", FIFOS.values(), ids=FIFOS.keys())
def test_a_fifo_does_not_hang_check(tmp_path, name):
    """Experiment 4: opening a FIFO for reading blocks until a writer comes, forever."""
    site, _ = _folders(tmp_path)
    files = {"robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
             "sitemap.xml": urlset(url(SITE), url(SITE + "a/"))}
    files.pop(name, None)
    write_tree(site, files)
    os.mkfifo(site / name)
    command = [sys.executable, "-m", "mkdocs_sitemap_pro", "check", str(site)]
    if name == "sitemap.xml":
        command += ["--site-url", SITE]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"check hung on a FIFO named {name}")
    assert "Traceback" not in done.stderr, done.stderr
    if name == "sitemap.xml":
        assert done.returncode == 2 and "not a regular file" in done.stderr, done
    elif name == "robots.txt":  # the URL cannot be read from it
        assert done.returncode == 2 and "--site-url" in done.stderr, done
    else:
        assert done.returncode == 0, done


def test_over_http_nothing_local_is_read(tmp_path):
    """Over HTTP the same locs are only URLs: no local page is looked at."""
    from tests.support.browser import serve

    site, outside = _folders(tmp_path)
    write_tree(site, {"sitemap.xml": "placeholder"})
    with serve(site) as base:
        locs = [base + outside.as_posix() + "/secret/",
                base + "%2F" + outside.as_posix().lstrip("/") + "/secret.html"]
        write_tree(site, {"sitemap.xml": urlset(url(base), *map(url, locs))})
        report = check(base + "sitemap.xml", CheckOptions(now=NOW, timeout=5))
    assert report.url_count == 3
    assert not rules(report) & {"page-noindex", "page-missing", OUTSIDE}
