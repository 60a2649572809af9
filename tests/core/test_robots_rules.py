"""robots.txt rules for every crawler, as Google reads them: groups, longest match,
Allow on ties, ``*`` and ``$``, percent-encoding (the cases of RFC 9309 and of
Google's robots.txt specification)."""

from __future__ import annotations

import time

import pytest

from mkdocs_sitemap_pro.core.robots import RobotsRules, host_robots_url, url_path


def allowed(robots: str, path: str) -> bool:
    return RobotsRules.parse(robots).disallowing(path) is None


# Google's table of path matches: (pattern, matching paths, paths that do not match).
MATCHES = [
    ("/", ["/", "/a/b.html"], []),
    ("/*", ["/", "/a/b.html"], []),
    ("/$", ["/"], ["/page.htm", "/?q=1"]),
    ("/fish", ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads",
               "/fish.php?id=anything"], ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"]),
    ("/fish*", ["/fish", "/fish.html", "/fishheads/yummy.html"], ["/Fish.asp", "/catfish"]),
    ("/fish/", ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"],
     ["/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"]),
    ("/*.php", ["/index.php", "/folder/filename.php", "/folder/filename.php?parameters",
                "/folder/any.php.file.html", "/filename.php/"], ["/", "/windows.PHP"]),
    ("/*.php$", ["/filename.php", "/folder/filename.php"],
     ["/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"]),
    ("/fish*.php", ["/fish.php", "/fishheads/catfish.php?parameters"], ["/Fish.PHP"]),
    ("/a*b*c$", ["/abc", "/a-b-c", "/axbxcxbc"], ["/abcd", "/acb"]),
    ("/a$b", ["/a$b", "/a$bc"], ["/a", "/ab"]),  # '$' inside a pattern is a character
    ("*", ["/", "/x"], []),
]


@pytest.mark.parametrize(("pattern", "hits", "misses"), MATCHES)
def test_patterns_match_as_google_says(pattern, hits, misses):
    robots = f"User-agent: *\nDisallow: {pattern}\n"
    assert [p for p in hits if allowed(robots, p)] == []
    assert [p for p in misses if not allowed(robots, p)] == []


@pytest.mark.parametrize(
    ("rules", "path", "is_allowed"),
    [
        ("Allow: /p\nDisallow: /", "/page", True),  # the longer rule wins
        ("Allow: /folder\nDisallow: /folder", "/folder/page", True),  # a tie: Allow
        ("Disallow: /folder\nAllow: /folder", "/folder/page", True),  # order does not matter
        ("Allow: /page\nDisallow: /*.htm", "/page.htm", False),
        ("Allow: /page\nDisallow: /*.ph", "/page.php5", True),
        ("Allow: /$\nDisallow: /", "/", True),
        ("Allow: /$\nDisallow: /", "/page.htm", False),
        ("Disallow: /private/\nAllow: /private/public/", "/private/public/x/", True),
        ("Disallow: /private/\nAllow: /private/public/", "/private/secret/", False),
        ("Disallow:", "/anything", True),  # an empty rule matches nothing
        ("Disallow: /\nAllow:", "/x", False),
        # Allowing a folder's index page allows the folder's own URL too.
        ("Disallow: /docs/\nAllow: /docs/index.html", "/docs/", True),
        ("Disallow: /docs/\nAllow: /docs/index.html", "/docs/other/", False),
    ],
)
def test_longest_match_wins_and_allow_wins_ties(rules, path, is_allowed):
    assert allowed(f"User-agent: *\n{rules}\n", path) is is_allowed


@pytest.mark.parametrize(
    ("robots", "path", "is_allowed"),
    [
        # A group naming one crawler binds it alone.
        ("User-agent: Googlebot\nDisallow: /\n", "/x", True),
        ("User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "/x", True),
        # Several User-agent lines make one group; * among them binds every crawler.
        ("User-agent: Googlebot\nUser-agent: *\nDisallow: /x\n", "/x", False),
        # A User-agent line after a rule starts a new group.
        ("User-agent: *\nDisallow: /a\nUser-agent: bot\nDisallow: /x\n", "/x", True),
        ("User-agent: *\nDisallow: /a\nUser-agent: bot\nDisallow: /x\n", "/a", False),
        # Every * group counts, wherever it is.
        ("User-agent: *\nDisallow: /a\n\nUser-agent: bot\nDisallow: /\n\n"
         "User-agent: *\nDisallow: /x\n", "/x", False),
        # A Sitemap line does not end a group.
        ("User-agent: bot\nSitemap: https://x.org/s.xml\nUser-agent: *\nDisallow: /x\n",
         "/x", False),
        # Rules before any User-agent line bind no one.
        ("Disallow: /x\nUser-agent: *\nAllow: /y\n", "/x", True),
        # '*' then a space still names every crawler; a product token after '*' does not.
        ("User-agent: * # every crawler\nDisallow: /x\n", "/x", False),
        ("User-agent: *bot\nDisallow: /x\n", "/x", True),
        # Keys in any case, the typos Google accepts, a forgotten colon, comments, a BOM.
        ("user-AGENT: *\nDISALLOW: /x\n", "/x", False),
        ("User agent: *\nDissallow: /x\n", "/x", False),
        ("User-agent *\nDisallow /x\n", "/x", False),
        ("\ufeffUser-agent: *\nDisallow: /x # not /y\n", "/x", False),
        ("\ufeffUser-agent: *\nDisallow: /x # not /y\n", "/y", True),
        ("# User-agent: *\n# Disallow: /\n", "/x", True),
        # Lines may end at CR alone, or CRLF.
        ("User-agent: *\rDisallow: /x\r", "/x", False),
        ("User-agent: *\r\nDisallow: /x\r\n", "/x", False),
        ("", "/x", True),
    ],
)
def test_only_rules_for_every_crawler_count(robots, path, is_allowed):
    assert allowed(robots, path) is is_allowed


@pytest.mark.parametrize(
    ("pattern", "path"),
    [
        ("/foo/bar/ツ", "/foo/bar/%E3%83%84"),  # non-ASCII: its UTF-8 escapes
        ("/foo/bar/%E3%83%84", "/foo/bar/%e3%83%84"),  # escapes in either case
        ("/foo/bar/%62%61%7A", "/foo/bar/baz"),  # unreserved characters unescaped
        ("/~joe/", "/%7Ejoe/"),
        ("/café/", "/caf%C3%A9/menu"),
    ],
)
def test_paths_and_patterns_compare_percent_encoded(pattern, path):
    assert not allowed(f"User-agent: *\nDisallow: {pattern}\n", path)


def test_reserved_escapes_stay_distinct():
    """``%2F`` is not ``/``: an escaped reserved character is another path."""
    assert allowed("User-agent: *\nDisallow: /a/b\n", "/a%2Fb")


def test_the_deciding_rule_is_named_with_its_line():
    rules = RobotsRules.parse("User-agent: *\nAllow: /\n# note\nDisallow: /private/\n")
    rule = rules.disallowing("https://example.com/private/a/?x=1")
    assert rule is not None and str(rule) == "line 4: Disallow: /private/"
    assert rules.disallowing("https://example.com/public/") is None


def test_url_path_and_the_hosts_robots():
    assert url_path("https://example.com") == "/"
    assert url_path("https://example.com/a/b/?q=1#frag") == "/a/b/?q=1"
    assert url_path("https://example.com/a;p?") == "/a;p?"
    assert host_robots_url("https://example.com:8443/docs/a/") == "https://example.com:8443/robots.txt"


def test_a_hostile_pattern_costs_no_backtracking():
    """Many ``*`` against a long path that nearly matches: a regex would backtrack for
    ever; the matcher stays linear in each piece."""
    rules = RobotsRules.parse("User-agent: *\nDisallow: /" + "*a" * 40 + "*b$\n")
    path = "/" + "a" * 2_000
    start = time.perf_counter()
    for _ in range(100):
        assert rules.disallowing(path) is None
    assert time.perf_counter() - start < 2.0
