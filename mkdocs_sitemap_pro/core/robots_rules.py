"""What a robots.txt forbids every crawler: its ``User-agent: *`` rules, read as Google
reads them (RFC 9309 and Google's robots.txt specification).

A sitemap that lists a URL robots.txt forbids is a contradiction search engines report
as an error, so the build warns about it and ``check`` reports it; both ask this
module, the one place the rules live. Only rules that bind every crawler count: a
group naming particular crawlers binds those alone, and a crawler with a group of its
own ignores ``*``, so nothing can be said of "every crawler" from such a group.

The rules, as Google applies them:

- lines end at CR, LF or CRLF; a UTF-8 BOM is skipped; ``#`` starts a comment; a key
  is compared case-insensitively by its start (``Disallow``, and the typos Google
  accepts: ``dissallow``, ``user agent``, ...), and a missing ``:`` is forgiven when
  the line holds exactly two words;
- a group is a run of ``User-agent`` lines and the rules after them; a ``User-agent``
  line after a rule starts a new group; ``*`` (alone, or followed by a space) names
  every crawler, and all such groups count together; rules before any ``User-agent``
  line count for none;
- a path matches a rule when the rule's pattern matches its start: ``*`` stands for
  any characters, a final ``$`` for the end of the path; an empty rule matches nothing;
- of the rules that match, the longest pattern wins, and ``Allow`` wins a tie;
  ``Allow: /folder/index.html`` (or ``.htm``) also allows ``/folder/``;
- paths and patterns are compared in one percent-encoded form: non-ASCII as UTF-8
  escapes, escapes in upper case, escapes of unreserved characters (``%7E``, ``%41``)
  decoded.

Matching costs at most the pattern's length times the path's (no backtracking), so a
hostile robots.txt cannot make ``check`` hang.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

__all__ = ["MAX_BYTES", "Rule", "RobotsRules", "host_robots_url", "url_path"]

#: Google reads the first 500 KiB of a robots.txt and ignores the rest.
MAX_BYTES = 500 * 1024

_BOM = "\ufeff"
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_DISALLOW_TYPOS = ("dissallow", "dissalow", "disalow", "diasllow", "disallaw")
_INDEX_PAGE = re.compile(r"/index\.htm[^/]*$")


def _normalise(text: str) -> str:
    """``text`` (a path or a pattern) in the one form both are compared in."""
    def escape(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else "%" + match.group(1).upper()

    if text.isascii():
        return _ESCAPE.sub(escape, text) if "%" in text else text
    encoded = "".join(
        ch if ch.isascii() else "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
        for ch in text
    )
    return _ESCAPE.sub(escape, encoded)


def url_path(url: str) -> str:
    """What robots.txt rules are matched against: the URL's path, parameters and query
    (``/a/b/?q=1``), ``/`` when it has no path."""
    parts = urlsplit(url)
    path = parts.path or "/"
    return path + ("?" + parts.query if parts.query or url.endswith("?") else "")


def host_robots_url(url: str) -> str:
    """The robots.txt that rules ``url``: the one at the root of its scheme and host."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/robots.txt"


@dataclass(frozen=True)
class Rule:
    """One ``Allow`` or ``Disallow`` line of a ``User-agent: *`` group."""

    allow: bool
    pattern: str  # normalised; its length is the rule's weight
    line: int  # 1-based line number in robots.txt
    written: str  # the value as written, for messages
    # The pattern taken apart once: whether it ends at the path's end, its literal pieces.
    anchored: bool = field(init=False, repr=False, compare=False)
    pieces: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __str__(self) -> str:
        return f"line {self.line}: {'Allow' if self.allow else 'Disallow'}: {self.written}"

    def __post_init__(self) -> None:
        anchored = self.pattern.endswith("$")
        body = self.pattern[:-1] if anchored else self.pattern
        object.__setattr__(self, "anchored", anchored)
        object.__setattr__(self, "pieces", tuple(body.split("*")))

    def matches(self, path: str) -> bool:
        """Whether the pattern matches the start of ``path`` (a normalised path)."""
        anchored, pieces = self.anchored, self.pieces
        if len(pieces) == 1:
            return path == pieces[0] if anchored else path.startswith(pieces[0])
        first, *middle, last = pieces
        if not path.startswith(first):
            return False
        # Each piece at its leftmost place after the one before: the leftmost leaves
        # the most room to the rest, so if any placement matches, this one does.
        at = len(first)
        for piece in middle:
            found = path.find(piece, at)
            if found < 0:
                return False
            at = found + len(piece)
        if anchored:
            return path.endswith(last) and len(path) - len(last) >= at
        return path.find(last, at) >= 0


class RobotsRules:
    """The rules of a robots.txt that bind every crawler (its ``User-agent: *`` groups)."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules
        # Rules by what every path they match starts with, so that a path is tried only
        # against the rules that can match it: a robots.txt of thousands of rules costs
        # each URL a look-up per distinct start length, not a match per rule.
        self._by_start: dict[str, list[Rule]] = {}
        for rule in rules:
            self._by_start.setdefault(_literal_start(rule.pattern), []).append(rule)
        self._lengths = sorted({len(start) for start in self._by_start})
        #: Look-ups and matches made so far: what judging untrusted input has cost.
        self.steps = 0

    @classmethod
    def parse(cls, text: str) -> RobotsRules:
        """The ``User-agent: *`` rules of a robots.txt's text (its first ``MAX_BYTES``
        are what a caller should read)."""
        rules: list[Rule] = []
        in_group = False  # a User-agent line has been seen
        for_all = False  # the current group names every crawler
        after_rule = False  # a rule has been seen since the last User-agent line
        lines = re.split(r"\r\n|\r|\n", text.removeprefix(_BOM))
        for number, line in enumerate(lines, start=1):
            pair = _key_value(line)
            if pair is None:
                continue
            key, value = pair
            if _is_user_agent(key):
                if after_rule:
                    for_all = after_rule = False
                in_group = True
                if value == "*" or (value.startswith("*") and value[1:2].isspace()):
                    for_all = True
                continue
            allow = key.startswith("allow")
            if not allow and not (key.startswith("disallow") or key.startswith(_DISALLOW_TYPOS)):
                continue  # Sitemap, Crawl-delay, anything else: no part of a group
            if not in_group:
                continue
            after_rule = True
            if for_all and value:
                rules.append(Rule(allow, _normalise(value), number, value))
                index_page = _INDEX_PAGE.search(value) if allow else None
                if index_page:  # Google: allowing a folder's index page allows the folder
                    folder = value[: index_page.start() + 1] + "$"
                    rules.append(Rule(True, _normalise(folder), number, value))
        return cls(rules)

    def deciding(self, url: str) -> Rule | None:
        """The rule that decides ``url`` (an absolute URL, or a path from ``/``), or None
        when none matches (then it is allowed)."""
        path = _normalise(url_path(url) if not url.startswith("/") else url)
        best: Rule | None = None
        for length in self._lengths:
            if length > len(path):
                break
            self.steps += 1
            for rule in self._by_start.get(path[:length], ()):
                if best is not None and _rank(rule) <= _rank(best):
                    continue  # cannot win over the best match so far
                self.steps += 1
                if rule.matches(path):
                    best = rule
        return best

    def disallowing(self, url: str) -> Rule | None:
        """The ``Disallow`` rule that keeps every crawler from ``url``, or None if it
        may be crawled."""
        rule = self.deciding(url)
        return rule if rule is not None and not rule.allow else None


def _rank(rule: Rule) -> tuple[int, bool]:
    """Which of two matching rules decides: the longer pattern, then Allow."""
    return len(rule.pattern), rule.allow


def _literal_start(pattern: str) -> str:
    """What every path ``pattern`` matches starts with: the pattern up to its first
    ``*``, a final ``$`` (the end anchor) left off."""
    head = pattern.split("*", 1)[0]
    return head[:-1] if head == pattern and head.endswith("$") else head


def _key_value(line: str) -> tuple[str, str] | None:
    """A line's key (lower case) and value, comment and outer whitespace dropped; None
    for a line with no directive."""
    line = line.split("#", 1)[0].strip()
    if not line:
        return None
    key, sep, value = line.partition(":")
    if not sep:  # Google forgives a missing colon between exactly two words
        words = line.split()
        if len(words) != 2:
            return None
        key, value = words
    key = key.strip().lower()
    return (key, value.strip()) if key else None


def _is_user_agent(key: str) -> bool:
    return key.startswith(("user-agent", "useragent", "user agent"))
