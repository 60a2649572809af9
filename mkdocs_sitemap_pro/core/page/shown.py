"""What a page shows besides its source, and its date by all of it: the newest.

``Shown`` is one page's observation (the files it showed, the posts it lists), however
it was gathered (a rendering observed, or a source's text read). ``decide`` picks, for
one page dated by git, the newest of its source and each file it showed (git's answer
under the same rule and date kind); files git cannot date, files outside the repository
and files matched by ``dependencies_exclude`` are left out, and said so at DEBUG. The
source wins a tie, so a page is said to be dated by a dependency only when that file
changed later. (A listing page is dated by its posts too: ``core.dating``.)
"""

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple, Protocol

import pathspec

from mkdocs_sitemap_pro.core.git import GitHistory, Known
from mkdocs_sitemap_pro.core.git.line_walk import Lines, merge_lines
from mkdocs_sitemap_pro.core.protocol import UTC

__all__ = ["NOTHING", "Decision", "Dependencies", "LineLookup", "Lines", "Shown", "decide",
           "describe_parts", "merge_lines", "newer"]

class Shown(NamedTuple):
    """What one page showed besides its source: files read (absolute paths, exclusions
    applied), for a listing page the src_uris of the posts it lists, and the files it
    showed only in part (``dependencies: lines``): absolute path -> the lines shown,
    sorted by path. A file shown whole is in ``files`` and never in ``parts``."""

    files: frozenset[str] = frozenset()
    posts: tuple[str, ...] = ()
    parts: tuple[tuple[str, Lines], ...] = ()


NOTHING = Shown()  # what most pages show besides their source (immutable, so shared)


class LineLookup(Protocol):
    """The dates of the lines of files shown in part (``core.git.line_dates``)."""

    def newest(self, name: bytes, change: Known, lines: Lines) -> dt.datetime | None:
        """The newest change to ``lines`` of the file git calls ``name``, whose last
        change is ``change``: never newer than it, and ``change.when`` itself when the
        lines cannot be dated apart; None when no line shown has a date."""


class Dependencies(NamedTuple):
    """What every page of the build showed, and the files that must not date pages."""

    pages: Mapping[str, Shown]
    exclude: pathspec.gitignore.GitIgnoreSpec
    missing: Sequence[str] = ()  # pages neither rendered nor cached: dated by their source
    lines: LineLookup | None = None  # None: files shown in part are dated whole
    api: frozenset[str] = frozenset()  # source files of API objects shown (mkdocstrings)
    # Pages with a ``:::`` block ``build`` cannot follow (of a handler it does not run
    # whose identifier names no file, or a python one griffe cannot resolve): dated
    # without what that block shows.
    unseen: frozenset[str] = frozenset()
    # Staged copies with an added line that no tracked file holds: dated without it.
    unexplained: frozenset[str] = frozenset()
    # Pages the site's own code rewrote (a hook): src_uri -> the files of that code and
    # of the modules it imports, which are among the page's ``files``.
    code: Mapping[str, frozenset[str]] = MappingProxyType({})


class Decision(NamedTuple):
    """A page's date and the file that decided it ('' when its own source did); None
    for a page with no source that shows nothing git can date."""

    when: dt.datetime | None
    file: str = ""
    notes: tuple[str, ...] = ()  # files left out, for DEBUG
    parts: tuple[tuple[str, Lines], ...] = ()  # files shown in part, their lines (DEBUG)
    path: str = ""  # the deciding file as the page's entry names it ('' as for ``file``)
    whole: bool = False  # the deciding file was counted whole, not by the lines shown


def decide(source: Known | None, entry: Shown | None, deps: Dependencies,
           history: GitHistory) -> Decision:
    """The newest of a page's source (known to git; None for a generated page) and the
    files it showed."""
    own = source.when if source is not None else None
    if entry is None or not (entry.files or entry.parts):
        return Decision(own)
    newest: dt.datetime | None = own
    decider = decider_path = ""
    whole = False
    notes: list[str] = []
    parts: list[tuple[str, Lines]] = []
    shown: list[tuple[str, Lines | None]] = [(path, None) for path in sorted(entry.files)]
    for path, lines in (*shown, *entry.parts):
        name = history.relative(path)
        if name is None:
            notes.append(f"{path} is outside the repository")
            continue
        if deps.exclude.match_file(name):
            notes.append(f"{name} matches dependencies_exclude")
            continue
        change = history.last_changed(path)
        if not isinstance(change, Known):
            notes.append(f"{name} cannot be dated by git ({change.reason})")
            continue
        when: dt.datetime | None = change.when
        if lines is not None and deps.lines is not None:
            when = deps.lines.newest(history.name(path) or b"", change, lines)
            parts.append((name, lines))
        if when is None:
            notes.append(f"{name}: every line shown was added by an ignored commit")
            continue
        if newest is None or when > newest:
            newest, decider, decider_path = when, name, path
            whole = lines is None or deps.lines is None
    return Decision(newest, decider, tuple(notes), tuple(parts), decider_path, whole)


def describe_parts(parts: Iterable[tuple[str, Lines]]) -> str:
    """``src/a.py lines 1-3, 7; src/b.py lines 2``: a ``Decision``'s parts, for people."""
    return "; ".join(f"{name} lines {_spans(lines)}" for name, lines in parts)


def _spans(lines: Lines) -> str:
    """``((1, 3), (7, 7))`` as ``1-3, 7``."""
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in lines)


def newer(a: dt.date | dt.datetime, b: dt.date | dt.datetime) -> bool:
    """Whether ``a`` is later than ``b`` (a date is its midnight in UTC; naive is UTC)."""
    return _key(a) > _key(b)


def _key(when: dt.date | dt.datetime) -> dt.datetime:
    if not isinstance(when, dt.datetime):
        return dt.datetime(when.year, when.month, when.day, tzinfo=UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
