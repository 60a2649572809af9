"""The checker on hand-written trees breaking the rules across files, robots.txt and hreflang."""

from __future__ import annotations

from tests.core.check.tree_files import (
    SITE,
    index,
    pages,
    rules,
    run,
    url,
    urlset,
    valid_files,
    write_tree,
)


def test_duplicate_across_files(tmp_path):
    files = valid_files()
    files["sitemap-2.xml"] = files["sitemap-2.xml.gz"] = urlset(url(SITE + "b/"), url(SITE + "a/"))
    report = run(tmp_path, files)
    assert rules(report) == {"duplicate"}
    assert "sitemap-1.xml, sitemap-2.xml" in report.findings[0].message


def test_index_lastmod_older_than_its_file(tmp_path):
    files = valid_files()
    files["sitemap.xml"] = index((SITE + "sitemap-1.xml", "2024-01-01"),
                                 (SITE + "sitemap-2.xml", "2024-03-04"))
    report = run(tmp_path, files)
    assert rules(report) == {"index-lastmod"}
    assert "sitemap-1.xml" in report.findings[0].message


def test_index_lastmod_newer_than_its_file_is_fine(tmp_path):
    files = valid_files()
    files["sitemap.xml"] = index((SITE + "sitemap-1.xml", "2024-05-01"),
                                 (SITE + "sitemap-2.xml", "2024-03-04"))
    assert run(tmp_path, files).findings == []


def test_gz_twin_differs(tmp_path):
    files = valid_files()
    files["sitemap-2.xml.gz"] = urlset(url(SITE + "b/", "2024-03-05"), url(SITE + "c/"))
    report = run(tmp_path, files)
    assert rules(report) == {"gz-twin"}
    assert report.findings[0].file == "sitemap-2.xml.gz"


def test_gz_index_may_list_the_gz_files(tmp_path):
    files = valid_files()
    files["sitemap.xml.gz"] = index((SITE + "sitemap-1.xml.gz", "2024-02-03T10:00:00+00:00"),
                                    (SITE + "sitemap-2.xml.gz", "2024-03-04"))
    assert run(tmp_path, files).findings == []
    files["sitemap.xml.gz"] = index((SITE + "sitemap-1.xml.gz", "2024-02-03T10:00:00+00:00"))
    assert rules(run(tmp_path, files)) == {"gz-twin"}


def test_a_gz_name_on_plain_xml_and_gzip_under_an_xml_name_are_errors(tmp_path):
    import gzip

    files = valid_files()
    files["sitemap-2.xml"] = gzip.compress(str(files["sitemap-2.xml"]).encode(), mtime=0)
    write_tree(tmp_path, files)
    # The same XML as sitemap-1.xml, not compressed, under the .gz name.
    (tmp_path / "sitemap-1.xml.gz").write_bytes((tmp_path / "sitemap-1.xml").read_bytes())
    report = run(tmp_path, {})
    assert rules(report) == {"gz-not-gzip", "xml-gzipped"}
    assert all(f.severity == "error" for f in report.findings)
    by_rule = {f.rule: f for f in report.findings}
    assert by_rule["gz-not-gzip"].file == "sitemap-1.xml.gz"
    assert "drop .gz from its name" in by_rule["gz-not-gzip"].message
    assert by_rule["xml-gzipped"].file == "sitemap-2.xml"
    assert "name it .xml.gz" in by_rule["xml-gzipped"].message


def test_missing_file_listed_by_the_index(tmp_path):
    files = valid_files()
    files["sitemap.xml"] = index((SITE + "sitemap-1.xml", None), (SITE + "sitemap-9.xml", None),
                                 (SITE + "sitemap-2.xml", None))
    report = run(tmp_path, files)
    assert rules(report) == {"missing"}
    assert "sitemap-9.xml does not exist, listed by sitemap.xml" in report.findings[0].message


def test_robots_relative_and_duplicate_sitemap_lines(tmp_path):
    files = valid_files()
    files["robots.txt"] = (f"Sitemap: {SITE}sitemap.xml\nSitemap: /sitemap.xml\n"
                           f"sitemap: {SITE}sitemap.xml\n")
    report = run(tmp_path, files)
    assert {(f.rule, f.severity) for f in report.findings} == {
        ("robots-relative", "error"), ("robots-duplicate", "warning")}
    assert report.files[0] == "sitemap.xml"  # the absolute line is still followed


def test_robots_without_sitemap_line_falls_back_to_sitemap_xml(tmp_path):
    files = valid_files()
    files["robots.txt"] = "User-agent: *\nDisallow:\n"
    report = run(tmp_path, files)
    assert rules(report) == {"robots-no-sitemap"}
    assert report.status() == 0 and report.status(strict=True) == 1
    assert report.url_count == 4


def test_every_lastmod_on_the_build_day(tmp_path):
    import datetime as dt

    locs = [f"p{n}/" for n in range(20)]
    (tmp_path / "sitemap.xml").write_text("")
    today = dt.datetime.fromtimestamp((tmp_path / "sitemap.xml").stat().st_mtime,
                                      dt.timezone.utc).date().isoformat()
    stamped = urlset(*(url(SITE + p, today) for p in locs))
    now = dt.datetime.now(dt.timezone.utc)  # the lastmods are today's: not in the future
    report = run(tmp_path, {"sitemap.xml": stamped, **pages(*locs)}, target="sitemap.xml", now=now)
    assert [(f.rule, f.severity) for f in report.findings] == [("lastmod-same-day", "error")]
    assert f"all 20 lastmods fall on {today}, the day the sitemap was built" in report.findings[0].message
    # Fewer URLs, or one day that is not the build's (a site committed at once): fine.
    fewer = urlset(*(url(SITE + p, today) for p in locs[:19]))
    assert run(tmp_path, {"sitemap.xml": fewer}, target="sitemap.xml", now=now).findings == []
    history = urlset(*(url(SITE + p, f"2024-05-01T{n % 24:02d}:00:00+00:00") for n, p in enumerate(locs)))
    assert run(tmp_path, {"sitemap.xml": history}, target="sitemap.xml").findings == []


def test_file_cap(tmp_path):
    report = run(tmp_path, valid_files(), max_files=2)
    assert rules(report) == {"file-cap"}
    assert report.files == ["sitemap.xml", "sitemap-1.xml"]


def alt(hreflang, href):
    return f'<xhtml:link rel="alternate" hreflang="{hreflang}" href="{href}"/>'


EN, DE = SITE + "en/", SITE + "de/"


def lang_tree(tmp_path, en_alts, de_alts):
    text = urlset(url(EN, extra="".join(en_alts)), url(DE, extra="".join(de_alts)), xhtml=True)
    return run(tmp_path, {"sitemap.xml": text, **pages("en/", "de/")}, target="sitemap.xml")


def test_hreflang_correct_set(tmp_path):
    both = [alt("en", EN), alt("de", DE), alt("x-default", EN)]
    assert lang_tree(tmp_path, both, both).findings == []


def test_hreflang_not_reciprocal(tmp_path):
    report = lang_tree(tmp_path, [alt("en", EN), alt("de", DE)], [alt("de", DE)])
    assert rules(report) == {"hreflang-reciprocal"}
    assert report.findings[0].message.startswith(f"{EN} names {DE} (de)")


def test_hreflang_set_without_the_url_itself(tmp_path):
    report = lang_tree(tmp_path, [alt("de", DE)], [alt("de", DE), alt("en", EN)])
    assert "hreflang-self" in rules(report)


def test_hreflang_x_default_twice(tmp_path):
    alts = [alt("en", EN), alt("de", DE), alt("x-default", EN), alt("x-default", DE)]
    assert rules(lang_tree(tmp_path, alts, alts)) == {"hreflang-x-default"}


def test_hreflang_bad_code(tmp_path):
    alts = [alt("en", EN), alt("de_DE", DE)]
    report = lang_tree(tmp_path, alts, alts)
    assert rules(report) == {"hreflang-code"}
    assert "de_DE" in report.findings[0].message


def test_hreflang_alternate_not_listed(tmp_path):
    alts = [alt("en", EN), alt("de", DE), alt("fr", SITE + "fr/")]
    report = lang_tree(tmp_path, alts, alts)
    assert {(f.rule, f.severity) for f in report.findings} == {("hreflang-unlisted", "warning")}
