"""Hostile content through a real `mkdocs build`: names, URLs, front matter, robots.txt.

Each case ends in a correct sitemap or one clear message, never an invalid file.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.support.dates import D1
from tests.support.sites import SITE_URL

HOSTILE_NAMES = [
    "a&b", "it's", 'say "hi"', "x<y>z", "hash#tag", "what?", "100%", "%41", "two words",
    "tab\there", "emoji-😀", "שלום-עולם", "مرحبا",
    unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café"),
]


@pytest.mark.parametrize("directory_urls", [True, False])
def test_hostile_file_names_give_valid_escaped_locs(site, directory_urls):
    site.page("index.md")
    for name in HOSTILE_NAMES:
        site.page(f"{name}.md", f"# {name}\n")
    site.commit("names", D1)
    site.config["use_directory_urls"] = directory_urls
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert len(urls) == len(HOSTILE_NAMES) + 1  # NFC and NFD are two pages, two URLs
    suffix = "/" if directory_urls else ".html"
    decoded = {unquote(loc, errors="strict") for loc in urls}
    for name in HOSTILE_NAMES:
        assert SITE_URL + name + suffix in decoded, name
    for loc, fields in urls.items():
        assert loc.isascii() and " " not in loc and "\t" not in loc
        assert fields["lastmod"] == "2024-01-10T07:00:00+00:00", loc  # every page dated by git
    # In the file itself every loc is RFC 3986 characters, and the XML specials are entities.
    raw = (built.site_dir / "sitemap.xml").read_text(encoding="utf-8")
    raw_locs = re.findall(r"<loc>(.*?)</loc>", raw)
    assert len(raw_locs) == len(urls)
    for raw_loc in raw_locs:
        assert re.fullmatch(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$()*+,;=%]|&(?:amp|apos|quot|lt|gt);)+", raw_loc), raw_loc


def test_very_long_url_is_left_out_with_a_warning_naming_the_page(site):
    site.page("index.md")
    long_dir = "/".join(["d" * 200] * 11)  # about 2,200 characters of path
    site.page(f"{long_dir}/page.md")
    site.page("short.md")
    site.commit("long", D1)
    built = site.build()
    assert built.error is None
    assert sorted(built.sitemap()) == [SITE_URL, SITE_URL + "short/"]
    assert any(f"page '{long_dir}/page.md'" in m and "2,047" in m for m in built.messages()), built.messages()
    assert site.build(strict=True).error is not None


@pytest.mark.parametrize(
    ("site_url", "expected_prefix", "robots_line"),
    [
        ("https://example.com", "https://example.com/", "Sitemap: https://example.com/sitemap.xml"),
        ("https://example.com/docs", "https://example.com/docs/", "Sitemap: https://example.com/docs/sitemap.xml"),
        ("http://localhost:8080/x/", "http://localhost:8080/x/", "Sitemap: http://localhost:8080/x/sitemap.xml"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/", "Sitemap: https://xn--bcher-kva.example/sitemap.xml"),
        ("https://example.com/do\ncs/", "https://example.com/docs/", "Sitemap: https://example.com/docs/sitemap.xml"),
    ],
)
def test_site_url_shapes(site, site_url, expected_prefix, robots_line):
    site.page("index.md")
    site.page("a b.md")
    site.commit("first", D1)
    site.config["site_url"] = site_url
    site.write_config()
    built = site.build()
    assert built.error is None, built.messages()
    assert sorted(built.sitemap()) == [expected_prefix, expected_prefix + "a%20b/"]
    robots = (built.site_dir / "robots.txt").read_bytes()
    assert robots == (robots_line + "\n").encode()


@pytest.mark.parametrize(
    ("front_matter", "needle"),
    [
        ("sitemap:\n  priority: high", "'sitemap.priority: high'"),
        ("sitemap:\n  priority: .nan", "nan"),
        ("sitemap:\n  priority: 2", "priority: 2"),
        ("sitemap:\n  priority: true", "'sitemap.priority: true'"),
        ("sitemap:\n  changefreq: sometimes", "'sitemap.changefreq: sometimes'"),
        ("sitemap:\n  lastmod: yesterday", "'sitemap.lastmod: yesterday'"),
        ('sitemap:\n  lastmod: "2024-02-30"', "'sitemap.lastmod: 2024-02-30'"),
        ("sitemap:\n  lastmod: 2999-01-01", "'sitemap.lastmod: 2999-01-01' is invalid"),
        ("sitemap:\n  lastmod: 2999-01-01T00:00:00+00:00", "after the build time"),
        ('sitemap: "no"', "'sitemap: no'"),
        ("sitemap: [1]", "[1]"),
    ],
)
def test_bad_front_matter_warns_naming_page_and_value(site, front_matter, needle):
    site.page("index.md")
    site.page("bad.md", f"---\n{front_matter}\n---\n# Bad\n")
    site.commit("first", D1)
    built = site.build()
    assert built.error is None
    warnings = [m for m in built.messages() if "page 'bad.md'" in m]
    assert len(warnings) == 1 and needle in warnings[0], built.messages()
    entry = built.sitemap()[SITE_URL + "bad/"]  # listed, with only valid values
    assert set(entry) == {"loc", "lastmod"} and entry["lastmod"] == "2024-01-10T07:00:00+00:00"
    assert site.build(strict=True).error is not None


def test_unparsable_front_matter_is_a_warning_naming_the_page(site):
    site.page("index.md")
    # YAML rejects the impossible date, and MkDocs drops the whole block silently.
    site.page("broken.md", "---\nsitemap: false\nlastmod: 2024-02-30\n---\n# Broken\n")
    site.commit("first", D1)
    built = site.build()
    assert built.error is None
    assert any("page 'broken.md'" in m and "could not be parsed" in m for m in built.messages())
    assert site.build(strict=True).error is not None


@pytest.mark.parametrize(
    ("docs_robots", "expected"),
    [
        (b"User-agent: *\r\nDisallow: /x/\r\n", b"User-agent: *\r\nDisallow: /x/\r\nSitemap: URL\r\n"),
        (b"\xef\xbb\xbfUser-agent: *\n", b"\xef\xbb\xbfUser-agent: *\nSitemap: URL\n"),
        (b"User-agent: *\nDisallow:", b"User-agent: *\nDisallow:\nSitemap: URL\n"),
        (b"Sitemap: https://other.example/s.xml\n", b"Sitemap: https://other.example/s.xml\nSitemap: URL\n"),
        (b"sitemap: URL\n", b"sitemap: URL\n"),
    ],
)
def test_robots_txt_cases(site, docs_robots, expected):
    url = f"{SITE_URL}sitemap.xml".encode()
    site.page("index.md")
    source = docs_robots.replace(b"URL", url)
    (site.root / "docs" / "robots.txt").write_bytes(source)
    site.commit("first", D1)
    for _ in range(2):  # a second build adds nothing
        built = site.build()
        assert built.error is None
        assert (built.site_dir / "robots.txt").read_bytes() == expected.replace(b"URL", url)
    assert (site.root / "docs" / "robots.txt").read_bytes() == source


def test_robots_txt_that_is_a_directory_is_a_warning_and_the_sitemap_is_written(site):
    site.page("index.md")
    site.page("robots.txt/readme.md", "# Odd\n")  # makes site/robots.txt a directory
    site.commit("first", D1)
    built = site.build()
    assert built.error is None
    assert (built.site_dir / "robots.txt").is_dir()
    assert any("robots.txt" in m and "cannot" in m for m in built.messages()), built.messages()
    assert SITE_URL in built.sitemap()


@pytest.mark.parametrize(
    "filename",
    ["../x.xml", "/tmp/x.xml", "a/x.xml", "a/../../x.xml", ".x.xml", "x\0.xml", "a\\x.xml", "sitemap.XML.txt", ""],
)
def test_filename_that_is_not_a_bare_xml_name_is_a_configuration_error(site, filename):
    site.page("index.md")
    site.commit("first", D1)
    site.set_options(filename=filename)
    built = site.build()
    assert built.error is not None
    assert any("filename" in m for m in built.messages()), built.messages()
    assert not (built.site_dir / "index.html").exists()
    assert not list(Path(site.root).rglob("x.xml"))
