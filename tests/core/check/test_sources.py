"""Reading untrusted trees: over HTTP from 127.0.0.1, with caps, with a safe parser."""

from __future__ import annotations

import gzip

import pytest

from mkdocs_sitemap_pro.core.check import CheckError, CheckOptions, check
from tests.core.check.tree_files import HEAD, NOW, SITE, URLSET, rules, run, url, urlset, write_tree
from tests.support.browser import serve


def test_a_gz_that_expands_past_the_cap_is_not_expanded(tmp_path):
    bomb = gzip.compress(b"<" + b" " * 10_000_000, mtime=0)  # 10 MB from about 10 kB
    assert len(bomb) < 20_000
    report = run(tmp_path, {"sitemap.xml.gz": bomb}, target="sitemap.xml.gz", max_bytes=1_000_000)
    assert rules(report) == {"xml"}
    assert "expands to more than 1,000,000 bytes" in report.findings[0].message


def test_a_file_larger_than_the_cap_is_not_read(tmp_path):
    big = urlset(*(url(f"{SITE}p{n}/") for n in range(20_000)))
    report = run(tmp_path, {"sitemap.xml": big}, target="sitemap.xml", max_bytes=100_000)
    assert rules(report) == {"byte-limit"}


def test_no_entity_is_expanded_and_no_file_is_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    text = (HEAD + f'<!DOCTYPE urlset [<!ENTITY x SYSTEM "file://{secret}">'
            '<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            + URLSET + url(SITE + "&x;&b;") + "</urlset>")
    report = run(tmp_path, {"sitemap.xml": text}, target="sitemap.xml")
    assert report.findings  # the loc is not a URL the rules accept
    assert not any("TOP-SECRET" in f.message or "aaaaaaaaaa" in f.message for f in report.findings)


def test_url_mode_over_http(tmp_path):
    write_tree(tmp_path, {"sitemap.xml": "placeholder"})
    with serve(tmp_path) as base:
        files = {
            "robots.txt": f"Sitemap: {base}sitemap.xml\n",
            "sitemap.xml": urlset(url(base, "2024-01-01"), url(base + "é/")),
            "sitemap.xml.gz": urlset(url(base, "2024-01-02"), url(base + "é/")),
        }
        write_tree(tmp_path, files)
        report = check(base, CheckOptions(now=NOW, timeout=5))
    assert report.files == [base + "sitemap.xml"]
    assert rules(report) == {"loc-escaping", "gz-twin"}
    assert report.url_count == 2


def test_url_mode_a_missing_sitemap_cannot_be_checked(tmp_path):
    with serve(tmp_path) as base:
        with pytest.raises(CheckError, match="no sitemap could be read"):
            check(base, CheckOptions(timeout=5))


def test_url_mode_an_unreachable_host_cannot_be_checked():
    with pytest.raises(CheckError, match="cannot fetch"):
        check("http://127.0.0.1:9/sitemap.xml", CheckOptions(timeout=2))


def test_a_local_folder_needs_its_site_url(tmp_path):
    write_tree(tmp_path, {"sitemap.xml": urlset(url(SITE))})
    with pytest.raises(CheckError, match="--site-url"):
        check(str(tmp_path))
    with pytest.raises(CheckError, match="does not exist"):
        check(str(tmp_path / "nothing"), CheckOptions(site_url=SITE))
