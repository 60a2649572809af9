"""The one ``Sitemap:`` line in the built site's robots.txt.

Only the copy in site_dir is ever touched (never the source in docs_dir), and it is
replaced atomically, so a crash never leaves half a robots.txt behind.

Also what a robots.txt forbids every crawler (``User-agent: *``), read as Google reads it:
the one matcher the build and ``check`` ask.
"""

from __future__ import annotations

import enum
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.atomic import StagedFiles, remove_leftovers

_BOM = "\ufeff"


class RobotsOutcome(enum.Enum):
    """What ``add_sitemap_line`` did."""

    CREATED = "created"
    APPENDED = "appended"
    ALREADY_PRESENT = "already present"


class RobotsError(Exception):
    """robots.txt could not be read or written; the message names the file."""


def add_sitemap_line(robots_path: Path, sitemap_url: str) -> RobotsOutcome:
    """Make ``robots_path`` hold ``Sitemap: <sitemap_url>`` exactly once.

    An existing file keeps its bytes, BOM and line ending (LF or CRLF); a missing final
    newline is mended before the line is appended; ``Sitemap:`` lines for other URLs
    stay. The same line with the field name in another letter case counts as present.
    """
    line = f"Sitemap: {sitemap_url}"
    # Temporary files a killed build left behind, also when nothing is written now.
    remove_leftovers(robots_path.parent, re.compile(re.escape(robots_path.name) + r"(?:\.bak)?"))
    try:
        raw = robots_path.read_bytes()
    except FileNotFoundError:
        _replace(robots_path, (line + "\n").encode("utf-8"))
        return RobotsOutcome.CREATED
    except OSError as error:
        raise RobotsError(f"cannot read {robots_path}: {error.strerror or error}") from error

    updated = with_sitemap_line(raw.decode("utf-8", errors="surrogateescape"), sitemap_url)
    if updated is None:
        return RobotsOutcome.ALREADY_PRESENT
    _replace(robots_path, updated.encode("utf-8", errors="surrogateescape"))
    return RobotsOutcome.APPENDED


def with_sitemap_line(text: str, sitemap_url: str) -> str | None:
    """``text`` (a robots.txt) with ``Sitemap: <sitemap_url>`` appended, or None if it
    already holds that line. BOM and line ending are kept; a missing final newline is
    mended first."""
    if _has_line(text, sitemap_url):
        return None
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text.removeprefix(_BOM)
    if body and not body.endswith(("\n", "\r")):
        text += newline
    return text + f"Sitemap: {sitemap_url}" + newline


def _has_line(text: str, sitemap_url: str) -> bool:
    """Whether a ``Sitemap:`` field (any letter case) already names exactly this URL."""
    for raw_line in text.removeprefix(_BOM).splitlines():
        field, sep, value = raw_line.partition(":")
        if sep and field.strip().lower() == "sitemap" and value.strip() == sitemap_url:
            return True
    return False


def _replace(robots_path: Path, data: bytes) -> None:
    """Write ``data`` to a staged file beside ``robots_path``, then rename it over.

    Temporary files a killed build left behind are removed first: they are hidden, so
    MkDocs' clean step keeps them, and they would be published with the site.
    """
    folder, name = robots_path.parent, robots_path.name
    remove_leftovers(folder, re.compile(re.escape(name) + r"(?:\.bak)?"))
    staged = StagedFiles(folder)
    try:
        temp, handle = staged.new(name)
        with handle:
            handle.write(data)
        if robots_path.exists() and not robots_path.is_symlink():
            os.chmod(temp, robots_path.stat().st_mode & 0o7777)
        else:
            os.chmod(temp, 0o644)
        staged.commit([(temp, name)])
    except OSError as error:
        raise RobotsError(f"cannot write {robots_path}: {error.strerror or error}") from error
    finally:  # every way out, an interrupt included: no temporary file is left
        staged.discard()


#: Google reads the first 500 KiB of a robots.txt and ignores the rest.
MAX_BYTES = 500 * 1024

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
