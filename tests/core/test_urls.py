"""RFC 3986 normalisation of locs, and XML escaping."""

from __future__ import annotations

import re
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mkdocs_sitemap_pro.core import urls
from mkdocs_sitemap_pro.core.urls import normalise_loc, xml_escape

# Every character a normalised URL may hold raw (the first '#' aside).
RAW_OK = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/?%#\[\]]*")

CASES = [
    ("https://example.com/docs/", "https://example.com/docs/"),
    ("https://example.com/docs/été/", "https://example.com/docs/%C3%A9t%C3%A9/"),
    ("https://example.com/a b/", "https://example.com/a%20b/"),
    ("https://example.com/?a=1&b=2", "https://example.com/?a=1&b=2"),
    ("https://example.com/it's/", "https://example.com/it's/"),
    ('https://example.com/"q"/', "https://example.com/%22q%22/"),
    ("https://example.com/<b>/", "https://example.com/%3Cb%3E/"),
    ("https://example.com/100%/", "https://example.com/100%25/"),
    ("https://example.com/%zz/", "https://example.com/%25zz/"),
    ("https://example.com/%C3%BC/", "https://example.com/%C3%BC/"),
    ("https://example.com/%c3%bc/", "https://example.com/%c3%bc/"),
    ("https://example.com/ü%C3%BC/", "https://example.com/%C3%BC%C3%BC/"),
    ("https://example.com/a#b#c", "https://example.com/a#b%23c"),
    ("https://example.com/{x}|^`\\", "https://example.com/%7Bx%7D%7C%5E%60%5C"),
    ("https://example.com/[x]", "https://example.com/%5Bx%5D"),
    ("https://example.com/tab\there\x00\x7f", "https://example.com/tab%09here%00%7F"),
    ("https://bücher.example/bücher/", "https://xn--bcher-kva.example/b%C3%BCcher/"),
    ("https://user:pä@bücher.example:8443/", "https://user:p%C3%A4@xn--bcher-kva.example:8443/"),
    ("http://[::1]:8000/a b", "http://[::1]:8000/a%20b"),
    ("https://example.com/\U0001f600", "https://example.com/%F0%9F%98%80"),
    ("https://example.com/\udcff", "https://example.com/%FF"),  # surrogateescape'd byte
]


@pytest.mark.parametrize(("url", "expected"), CASES)
def test_normalise_table(url: str, expected: str) -> None:
    assert normalise_loc(url) == expected
    assert normalise_loc(expected) == expected  # idempotent


def test_nfc_and_nfd_stay_different() -> None:
    nfc = "https://example.com/\u00e9/"
    nfd = "https://example.com/e\u0301/"
    assert normalise_loc(nfc) == "https://example.com/%C3%A9/"
    assert normalise_loc(nfd) == "https://example.com/e%CC%81/"


def test_fast_path_returns_the_same_object() -> None:
    url = "https://example.com/docs/a%C3%A9/?q=1&r='x'#frag"
    assert normalise_loc(url) is url


def test_unencodable_host_and_lone_surrogate_raise() -> None:
    with pytest.raises(ValueError):
        normalise_loc("https://bü..example/")
    with pytest.raises(ValueError):
        normalise_loc("https://example.com/\ud800")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a&b", "a&amp;b"),
        ("it's", "it&apos;s"),
        ('"q"', "&quot;q&quot;"),
        ("<b>", "&lt;b&gt;"),
        ("&amp;", "&amp;amp;"),
        ("plain", "plain"),
    ],
)
def test_xml_escape_all_five(text: str, expected: str) -> None:
    assert xml_escape(text) == expected


@given(st.text())
def test_normalised_is_ascii_allowed_and_idempotent(text: str) -> None:
    url = "https://example.com/" + text
    try:
        out = normalise_loc(url)
    except ValueError:
        # Only a lone surrogate outside the escaped-byte range may fail here.
        assert any("\ud800" <= c <= "\udfff" for c in text)
        return
    assert out.isascii()
    assert RAW_OK.fullmatch(out)
    assert out.count("#") <= 1
    assert not re.search(r"%(?![0-9A-Fa-f]{2})", out)
    assert normalise_loc(out) == out


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="%")))
def test_unquote_gives_the_path_back(path: str) -> None:
    base = "https://example.com/docs/"
    out = normalise_loc(base + path)
    assert out.startswith(base)
    assert urllib.parse.unquote(out[len(base) :], errors="strict") == path


@given(st.text(alphabet="ab%/#?é 'zZ09"))
def test_slow_path_agrees_with_fast_path(text: str) -> None:
    url = "https://example.com/" + text
    out = normalise_loc(url)
    # Force the slow path by appending a character it must escape, then strip it.
    slow = normalise_loc(out + " ")
    assert slow == out + "%20"


def test_fast_path_regex_rejects_what_the_slow_path_changes() -> None:
    for url, expected in CASES:
        if url != expected:
            assert not (url.isascii() and re.fullmatch(urls._ALREADY_NORMAL, url))
