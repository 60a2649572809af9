"""The dating rule: each sitemap page's lastmod, and how it was found.

Front matter first; then git (or mtime) by what the page shows (``core.page.shown``'s
``decide`` picks the newest of its source, its includes, the source it documents, the
posts it lists); then the fallback. A ``Dater`` dates one page at a time, once per build
(it remembers each answer), so the date a page shows, set as it renders, is the one its
sitemap entry gets at the end. ``date_pages`` sums up the dates of the listed pages: how
every page was dated, for the INFO line, and git's warnings.

The rule of later deploys (``later_date``). Git dates a page by the source it shows,
which cannot tell a change a reader sees from one they do not (a comment inside a shown
function, trailing spaces, a CRLF -> LF commit), nor see data that code of the site
read. The last deploy's manifest recorded, per listed page, the fingerprint of what it
rendered and the ``<lastmod>`` it got; with it (``previous``), each page is dated:

- the same fingerprint: the last deploy's date, whatever git says now (``kept``);
- another fingerprint: its date by what it shows (``changed``), unless that is not newer
  than the last deploy's, when something the plugin could not follow changed it: then
  the date of the commit being built (``redated``); never older than the truth;
- no fingerprint recorded for its URL (a page new since, or the manifest's made another
  way): its date by what it shows (``new``).

Knows no MkDocs and no XML: the plugin and ``build`` hand it ``SitemapPage`` values.
"""

from __future__ import annotations

import datetime as dt
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, NamedTuple

from mkdocs_sitemap_pro.core.deploy.manifest import RenderedPages
from mkdocs_sitemap_pro.core.git import GitHistory, Known
from mkdocs_sitemap_pro.core.page.html import ImagesFound
from mkdocs_sitemap_pro.core.page.page_settings import PageSettings
from mkdocs_sitemap_pro.core.page.shown import (
    Decision, Dependencies, Shown, decide, describe_parts, newer)
from mkdocs_sitemap_pro.core.protocol import UTC

Lastmod = dt.date | dt.datetime | None
Verdict = Literal["new", "kept", "changed", "redated"]

# Why a page another plugin generated has no date: its source is not in git, and
# nothing it rendered (objects, includes, an edit path) is.
_GENERATED = "generated, showing nothing git can date"
_API = "the API objects it shows"  # a mkdocstrings page dated by the source it renders
# ... by a change to the whole file of an object it shows (``dependencies: files``, or
# lines griffe does not know): maybe to a line no page shows.
API_FILE = "the whole files of the API objects it shows"
CODE = "the code that rewrote it"  # a page dated by a hook's file, or a module it imports
_NAMED = 8  # the files of that code a page's DEBUG line names; the rest are counted
#: A page with a ``:::`` block that ``build`` could not follow (``Dependencies.unseen``).
UNSEEN = "with a ::: block not followed"
#: A staged copy with an added line no tracked file holds (``Dependencies.unexplained``).
UNEXPLAINED = "with staged lines no tracked file holds"


class SitemapPage(NamedTuple):
    """A page that belongs in the sitemap, with its checked settings."""

    src_uri: str
    url: str
    source_path: str | None  # None for a page another plugin generated
    settings: PageSettings
    images: ImagesFound = ImagesFound()  # what its content shows (the ``images`` option)


class LastDeploy(NamedTuple):
    """What the last deploy's pages rendered (from its manifest), the commit it was
    built from, and the commit being built now with its date (None: git cannot say)."""

    rendered: RenderedPages
    commit: str
    built: Known | None


class PageDate(NamedTuple):
    """One page's lastmod and how it was found."""

    when: Lastmod
    source: str = ""  # "git", "front matter", "mtime", "build time"; '' when omitted
    undated: str = ""  # why the chosen mode gave no date ('' when it did)
    by: str = ""  # "an included file" or "listed posts", when not its own source
    decider: str = ""  # the included file that decided it
    notes: tuple[str, ...] = ()  # DEBUG detail
    # "kept" (what it renders is the last deploy's: that deploy's date) or "redated"
    # (what it renders changed, no source it shows did: the commit's date); else ''.
    later: str = ""


class Rendered(NamedTuple):
    """What the pages of this build rendered, for the rule of later deploys: the last
    deploy, the way fingerprints are made, each page's fingerprint so far (by src_uri,
    filled as pages render) and each page's key in a manifest."""

    deploy: LastDeploy
    method: str
    fingerprints: Mapping[str, str]
    key_of: Callable[[SitemapPage], str]


_BEING_DATED = PageDate(None)


class Dating:
    """The lastmod chosen for each listed page (by src_uri), and how each was found."""

    def __init__(self) -> None:
        self.lastmods: dict[str, Lastmod] = {}
        self.sources: Counter[str] = Counter()  # "git", "front matter", ...
        self.omitted: Counter[str] = Counter()  # reason -> pages left undated
        self.warnings: list[str] = []
        self.undated: list[tuple[str, str]] = []  # (src_uri, reason)
        # Pages dated by something other than their source: "an included file", "listed posts".
        self.by: Counter[str] = Counter()
        self.deciders: Counter[str] = Counter()  # file -> pages it dated
        self.notes: list[tuple[str, str]] = []  # (src_uri, DEBUG detail)
        # Pages the last deploy's manifest decided: "kept", "redated" -> count.
        self.later: Counter[str] = Counter()


class Dater:
    """Dates the pages of one build; ``history`` is the one git read (for ``mode="git"``).

    With ``dependencies`` (git only), a page is dated by the newest of its source and
    what it showed, and a listing page by its posts too, each dated as a page
    (``page_of`` gives the page of a post's src_uri, None if it is not a sitemap page).
    """

    def __init__(
        self,
        *,
        mode: Literal["git", "mtime", "none"],
        fallback: Literal["omit", "mtime", "build_time"],
        history: GitHistory | None,
        build_time: dt.datetime,
        dependencies: Dependencies | None = None,
        page_of: Callable[[str], SitemapPage | None] | None = None,
        detail: bool = True,
        rendered: Rendered | None = None,
    ) -> None:
        self._mode, self._fallback = mode, fallback
        self._detail = detail  # say how each page was dated (DEBUG notes)
        self.history, self._build_time = history, build_time
        self.dependencies = dependencies if mode == "git" and history is not None else None
        self._page_of = page_of
        self._rendered = rendered
        self._dates: dict[str, PageDate] = {}
        self._final: dict[str, PageDate] = {}  # dates the last deploy's pages decided
        # Shared dates of pages dated by their own source (see _by_own_source).
        self._shared: dict[tuple[Lastmod, dt.timedelta | None], PageDate] = {}

    def date(self, page: SitemapPage) -> PageDate:
        """The page's lastmod (the same answer every time it is asked in a build, once
        what it renders is known)."""
        known = self._dates.get(page.src_uri)
        if known is None:
            self._dates[page.src_uri] = _BEING_DATED  # a listing that lists itself
            known = self._dates[page.src_uri] = self._date(page)
        rendered = self._rendered
        if rendered is None or known.source == "front matter" or known is _BEING_DATED:
            return known
        final = self._final.get(page.src_uri)
        if final is None:
            fingerprint = rendered.fingerprints.get(page.src_uri)
            if fingerprint is None:  # not rendered yet: its date by what it shows, for now
                return known
            final = self._final[page.src_uri] = _later(
                known, *later_date(rendered.deploy, rendered.method, rendered.key_of(page),
                                   fingerprint, known.when))
        return final

    def _date(self, page: SitemapPage) -> PageDate:
        if page.settings.lastmod is not None:  # front matter wins over anything derived
            return PageDate(page.settings.lastmod, "front matter")
        deps, history = self.dependencies, self.history
        if deps is not None and history is not None:
            found = self._with_dependencies(page, history, deps)
        else:
            when, reason = self._derived(page)
            found = self._by_own_source(page, when) if when is not None else PageDate(
                None, "", reason)
        if found.when is not None:
            return found
        if self._mode == "none":
            return PageDate(None, "", "lastmod: none")
        fallback = self._fallback
        when = _fallback(page, fallback, self._build_time)
        if when is None:
            return found
        return found._replace(when=when, source=fallback.replace("_", " "),
                              undated=f"{found.undated}, dated by {fallback}")

    def _derived(self, page: SitemapPage) -> tuple[Lastmod, str]:
        """The date the chosen mode gives a page, or None and the reason it has none."""
        if page.source_path is None:
            return None, "generated"  # with dependencies off, nothing else is asked
        if self._mode == "git" and self.history is not None:
            change = self.history.last_changed(page.source_path)
            if isinstance(change, Known):
                return change.when, ""
            return None, change.reason
        if self._mode == "mtime":
            return _mtime(page.source_path), "no source file"
        return None, "lastmod: none"

    def _by_own_source(self, page: SitemapPage, when: dt.date | dt.datetime) -> PageDate:
        """The date of a page dated by its own source. Without DEBUG notes, every page a
        commit dated has the same one: one is kept per commit's date, not one a page."""
        if self._detail or self._mode != "git":
            return PageDate(when, self._mode, notes=self._by_source(page))
        # Keyed with the zone too: equal instants in two zones are written differently.
        key = (when, when.utcoffset() if isinstance(when, dt.datetime) else None)
        shared = self._shared.get(key)
        if shared is None:
            shared = self._shared[key] = PageDate(when, self._mode)
        return shared

    def _by_source(self, page: SitemapPage) -> tuple[str, ...]:
        """The DEBUG note of a page git dated by its own source: which file that is."""
        if not self._detail or self._mode != "git" or page.source_path is None:
            return ()
        name = self.history.relative(page.source_path) if self.history is not None else None
        return (f"dated by its source {name or page.src_uri}",)

    def _with_dependencies(
        self, page: SitemapPage, history: GitHistory, deps: Dependencies
    ) -> PageDate:
        """The git date of a page by everything it shows, and what decided it."""
        change: Known | None = None
        entry = deps.pages.get(page.src_uri)
        if page.source_path is not None:
            found = history.last_changed(page.source_path)
            if not isinstance(found, Known):
                return PageDate(None, "", found.reason)
            if entry is None or not (entry.files or entry.posts or entry.parts):
                # it showed nothing (most pages)
                return self._by_own_source(page, found.when)
            change = found
        # A generated page has no source of its own: what it shows dates it, if anything.
        decision = decide(change, entry, deps, history)
        code = deps.code.get(page.src_uri, frozenset())
        notes = self._decision_notes(decision, code, history)
        own, post = self._latest_post(entry, decision.when)
        if own is None:
            return PageDate(None, "", _GENERATED, notes=tuple(notes))
        if post:
            if self._detail:
                notes.append(f"dated by the listed post {post}")
            return PageDate(own, "git", by="listed posts", notes=tuple(notes))
        if decision.file:
            return self._by_shown_file(own, decision, deps, code, notes)
        if self._detail and entry is not None and (entry.posts or entry.files or entry.parts):
            notes.append("dated by its own source (nothing it shows changed later)")
        return PageDate(own, "git", notes=tuple(notes))

    def _decision_notes(
        self, decision: Decision, code: frozenset[str], history: GitHistory
    ) -> list[str]:
        """The notes on what ``decide`` left out, and (with DEBUG) what the page shows
        in part and which code of the site rewrote it: said before what dated it."""
        notes = [f"left out of its date: {note}" for note in decision.notes]
        if decision.parts and self._detail:
            notes.append(f"shown in part: {describe_parts(decision.parts)}")
        if code and self._detail:
            names = sorted(history.relative(path) or path for path in code)
            more = f" and {len(names) - _NAMED} more" if len(names) > _NAMED else ""
            notes.append(f"rewritten by code of the site: {', '.join(names[:_NAMED])}{more}")
        return notes

    def _latest_post(self, entry: Shown | None, own: Lastmod) -> tuple[Lastmod, str]:
        """``own``, or the date of a listed post newer than it and that post's src_uri
        (empty when none is): a listing changes when a post it lists does."""
        post = ""
        for src_uri in entry.posts if entry is not None else ():
            shown = self._page_of(src_uri) if self._page_of is not None else None
            when = self.date(shown).when if shown is not None else None
            if when is not None and (own is None or newer(when, own)):
                own, post = when, src_uri
        return own, post

    def _by_shown_file(self, own: Lastmod, decision: Decision, deps: Dependencies,
                       code: frozenset[str], notes: list[str]) -> PageDate:
        """The date of a page a file it shows decided: an API object's source, code
        that rewrote it, or an included file, named so the INFO line can count them."""
        by = ((API_FILE if decision.whole else _API) if decision.path in deps.api
              else CODE if decision.path in code else "an included file")
        if self._detail:
            notes.append(f"dated by the code that rewrote it, {decision.file}"
                         if by == CODE else f"dated by the included file {decision.file}")
        return PageDate(own, "git", by=by, decider=decision.file, notes=tuple(notes))

def later_date(deploy: LastDeploy, method: str, key: str, fingerprint: str,
               when: Lastmod) -> tuple[Lastmod, Verdict]:
    """The lastmod of the page ``key`` (``manifest.page_key``) whose content has
    ``fingerprint`` (made by ``method``), given ``when``, its date by what it shows."""
    recorded = deploy.rendered.pages.get(key) if deploy.rendered.method == method else None
    if recorded is None:
        return when, "new"
    before, last = recorded
    if last is None:  # it had no date then: nothing to keep
        return when, "new"
    if before == fingerprint:
        return last, "kept"
    if when is not None and newer(when, last):
        return when, "changed"
    # What it renders changed, and no source it shows did since: the commit being built.
    if deploy.built is None:
        return when, "changed"  # git cannot say when: its date by what it shows
    return deploy.built.when, "redated"


def _later(found: PageDate, when: Lastmod, verdict: str) -> PageDate:
    """``found`` as the last deploy's pages decide it."""
    if verdict == "kept":
        if when == found.when:  # git agrees: nothing was held back
            return found
        return PageDate(when, found.source or "git", later="kept", notes=(
            "kept the last deploy's date: what it renders is unchanged since (its "
            f"date by what it shows: {found.when or 'none'})",))
    if verdict == "redated":
        return PageDate(when, "git", later="redated", notes=(
            "dated by the commit being built: what it renders changed since the last "
            "deploy, and no source it shows did",))
    return found


def date_pages(pages: Sequence[SitemapPage], dater: Dater) -> Dating:
    """The dates of the listed pages, summed up (pages dated earlier keep their date)."""
    dating = Dating()
    if dater.history is not None:
        dating.warnings.extend(dater.history.warnings)
    if dater.dependencies is not None:
        dating.notes.extend(
            (src_uri, "not rendered in this build and not in the dependency cache: "
             "dated by its source alone") for src_uri in dater.dependencies.missing
        )
    lastmods, sources, omitted = dating.lastmods, dating.sources, dating.omitted
    for page in pages:
        src_uri = page.src_uri
        found = dater.date(page)
        lastmods[src_uri] = found.when
        if found.source:
            sources[found.source] += 1
        else:
            omitted[found.undated] += 1
        if found.undated and found.undated != "lastmod: none":
            dating.undated.append((src_uri, found.undated))
        if found.source == "git" and dater.dependencies is not None:
            if src_uri in dater.dependencies.unseen:
                dating.by[UNSEEN] += 1
            if src_uri in dater.dependencies.unexplained:
                dating.by[UNEXPLAINED] += 1
        if found.by:
            dating.by[found.by] += 1
            if found.decider:
                dating.deciders[found.decider] += 1
        if found.notes:
            dating.notes.extend((src_uri, note) for note in found.notes)
        if found.later:
            dating.later[found.later] += 1
    return dating


def _fallback(page: SitemapPage, fallback: str, build_time: dt.datetime) -> Lastmod:
    """The ``lastmod_fallback`` date for a page the chosen mode could not date."""
    if fallback == "build_time":
        return build_time
    if fallback == "mtime" and page.source_path is not None:
        return _mtime(page.source_path)
    return None


def _mtime(path: str) -> dt.datetime | None:
    """The source file's modification time in UTC (following symlinks), if it exists."""
    try:
        return dt.datetime.fromtimestamp(os.stat(path).st_mtime, UTC).replace(
            microsecond=0
        )
    except OSError:
        return None


def merge_datings(datings: Sequence[Dating]) -> Dating:
    """The dating of several language builds as one (each git warning once)."""
    if len(datings) == 1:
        return datings[0]
    merged = Dating()
    for dating in datings:
        merged.lastmods.update(dating.lastmods)
        merged.sources.update(dating.sources)
        merged.omitted.update(dating.omitted)
        merged.warnings.extend(w for w in dating.warnings if w not in merged.warnings)
        merged.undated.extend(dating.undated)
        merged.by.update(dating.by)
        merged.deciders.update(dating.deciders)
        merged.notes.extend(dating.notes)
        merged.later.update(dating.later)
    return merged
