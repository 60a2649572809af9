"""The checker on hand-written files, each breaking one rule of a single file."""

from __future__ import annotations

from mkdocs_sitemap_pro.core.protocol import MAX_BYTES, MAX_LOC_LENGTH, MAX_URLS
from tests.core.check.tree_files import (
    HEAD,
    SITE,
    index,
    pages,
    rules,
    run,
    url,
    urlset,
    valid_files,
)


def test_a_correct_tree_has_no_finding(tmp_path):
    report = run(tmp_path, valid_files())
    assert report.findings == []
    assert report.status() == 0
    assert report.files == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"]
    assert report.url_count == 4


def one_file(tmp_path, text, **pages_kw):
    return run(tmp_path, {"sitemap.xml": text, **pages("", "a/", "b/", **pages_kw)},
               target="sitemap.xml", count_unlisted=False)


def test_schema_invalid_changefreq(tmp_path):
    report = one_file(tmp_path, urlset(url(SITE, extra="<changefreq>sometimes</changefreq>")))
    assert rules(report) == {"schema"}
    assert "sometimes" in report.findings[0].message
    assert report.status() == 1


def test_schema_wrong_namespace(tmp_path):
    text = HEAD + '<urlset xmlns="http://example.com/ns">' + url(SITE) + "</urlset>"
    assert "schema" in rules(one_file(tmp_path, text))


def test_schema_extension_elements_are_set_aside(tmp_path):
    image = ('<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
             f"<image:loc>{SITE}a.png</image:loc></image:image>")
    assert one_file(tmp_path, urlset(url(SITE, extra=image))).findings == []


def test_not_well_formed(tmp_path):
    report = one_file(tmp_path, urlset(url(SITE)).replace("</urlset>", ""))
    assert rules(report) == {"xml"}
    assert report.status() == 1


def test_url_limit(tmp_path):
    text = urlset(*(url(f"{SITE}p{n}") for n in range(MAX_URLS + 1)))
    report = run(tmp_path, {"sitemap.xml": text}, target="sitemap.xml")
    assert "url-limit" in rules(report)
    assert f"{MAX_URLS + 1:,} URLs" in next(f.message for f in report.findings if f.rule == "url-limit")


def test_byte_limit_counts_uncompressed_bytes(tmp_path):
    # Fits easily once gzipped; the protocol's limit is on the uncompressed size.
    # Padding in comments of 1 MiB each (the parser refuses any single node over 10 MB).
    padding = ("<!--" + " " * (1 << 20) + "-->\n") * (MAX_BYTES // (1 << 20) + 1)
    text = urlset(url(SITE)).replace("</urlset>", padding + "</urlset>")
    report = run(tmp_path, {"sitemap.xml.gz": text, **pages("")}, target="sitemap.xml.gz")
    assert rules(report) == {"byte-limit"}


def test_nested_index(tmp_path):
    files = {
        "sitemap.xml": index((SITE + "inner.xml", None)),
        "inner.xml": index((SITE + "sitemap-1.xml", None)),
        "sitemap-1.xml": urlset(url(SITE)),
        **pages(""),
    }
    report = run(tmp_path, files, target="sitemap.xml")
    assert rules(report) == {"nested-index"}
    assert report.files == ["sitemap.xml", "inner.xml"]  # what the inner index lists is not followed


def test_loc_not_absolute(tmp_path):
    assert "loc-absolute" in rules(one_file(tmp_path, urlset(url("/relative/page/"))))


def test_loc_too_long(tmp_path):
    long = SITE + "a" * (MAX_LOC_LENGTH - len(SITE) + 1)
    assert "loc-length" in rules(one_file(tmp_path, urlset(url(long))))
    ok = SITE + "a" * (MAX_LOC_LENGTH - len(SITE))
    assert "loc-length" not in rules(one_file(tmp_path, urlset(url(ok))))


def test_loc_raw_non_ascii_and_space(tmp_path):
    report = one_file(tmp_path, urlset(url(SITE + "été/"), url(SITE + "a b/")))
    found = [f for f in report.findings if f.rule == "loc-escaping"]
    assert len(found) == 2
    assert "write https://example.com/%C3%A9t%C3%A9/" in found[0].message


def test_loc_raw_apostrophe_is_not_entity_escaped(tmp_path):
    report = one_file(tmp_path, urlset(url(SITE + "it's/")), )
    assert "loc-entities" in rules(report)
    escaped = one_file(tmp_path, urlset(url(SITE + "it&apos;s/")))
    assert "loc-entities" not in rules(escaped)


def test_loc_on_another_site(tmp_path):
    assert rules(one_file(tmp_path, urlset(url(SITE), url("https://other.example/a/")))) == {"loc-site"}


def test_loc_outside_the_sitemaps_folder(tmp_path):
    files = {"docs/sitemap.xml": urlset(url(SITE + "docs/"), url(SITE + "blog/")),
             "robots.txt": f"Sitemap: {SITE}docs/sitemap.xml\n", **pages("docs/", "blog/")}
    report = run(tmp_path, files)
    assert rules(report) == {"loc-folder"}
    assert SITE + "blog/" in report.findings[0].message


def test_lastmod_not_w3c(tmp_path):
    # xsd:dateTime accepts a time without a zone; W3C Datetime does not.
    report = one_file(tmp_path, urlset(url(SITE, "2024-02-29T13:05:00")))
    assert "lastmod-format" in rules(report)


def test_lastmod_in_the_future(tmp_path):
    report = one_file(tmp_path, urlset(url(SITE, "2024-06-03"), url(SITE + "a/", "2024-06-02")))
    assert [f.rule for f in report.findings] == ["lastmod-future"]  # NOW is 2024-06-01 12:00
    assert "2024-06-03" in report.findings[0].message


def test_many_findings_of_one_rule_are_summed_up_and_all_counted(tmp_path):
    # Seven bad locs, the fourth of them dated in the future: two rules interleaved.
    locs = [url(f"{SITE}é{n}/", "2024-06-09" if n == 3 else None) for n in range(7)]
    report = one_file(tmp_path, urlset(*locs))
    every = [f for f in report.findings if f.rule == "loc-escaping"]
    # Every finding is kept and counted: 7 escapes, 1 future date, 7 pages missing.
    assert len(every) == 7 and len(report.errors) == 15
    assert [f.url for f in every] == [f"{SITE}é{n}/" for n in range(7)]
    shown = [(f.rule, f.message) for f in report.shown()]
    assert [rule for rule, _ in shown] == [
        "loc-escaping", "loc-escaping", "loc-escaping", "loc-escaping", "lastmod-future",
        "loc-escaping", "loc-escaping", *["page-missing"] * 6]
    # The count of the rest follows the fifth line of its own rule, not the end.
    assert shown[6] == ("loc-escaping", "2 more like the above")
    assert shown[-1] == ("page-missing", "2 more like the above")
