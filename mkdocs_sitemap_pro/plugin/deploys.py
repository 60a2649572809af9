"""Dates carried from one deploy to the next: this build's manifest, the last one's dates.

``write_manifest`` publishes ``<stem>.manifest.json`` beside the entry sitemap (option
``manifest``): every file that dated a listed page, by hashed path, with its content's
object id and its date; and every listed page, by hashed URL, with the fingerprint of
what it rendered and its lastmod. ``read_previous`` reads the manifest named by
``previous`` (a path, an ``http(s)`` URL, or ``auto``: the one published at the site's
URL) once a build: its pages keep their dates while what they render is unchanged
(``core.dating``), and in a shallow clone ``carry_previous`` dates the files
whose change lies beyond its boundary (see ``core.deploy.manifest``). Any trouble
reading it is one WARNING and changes no date, except for ``auto`` on a first deploy
(HTTP 404: nothing published yet): an INFO, and the files beyond the boundary are dated
by the clone's oldest commit, as files new since are.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.atomic import replace_file
from mkdocs_sitemap_pro.core.regular import read_regular
from mkdocs_sitemap_pro.core.git import GitHistory, HistoryMap, Known
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.process import GitProcesses
from mkdocs_sitemap_pro.core.git.repository import SHALLOW_CLONE, newest_commit
from mkdocs_sitemap_pro.core.deploy.manifest import (
    MAX_BYTES,
    Manifest,
    ManifestError,
    RenderedPages,
    carry,
    manifest_chunks,
    manifest_name,
    parse_manifest,
    path_key,
    path_keys,
)
from mkdocs_sitemap_pro.core.dating import LastDeploy
from mkdocs_sitemap_pro.core.page.shown import Dependencies
from mkdocs_sitemap_pro.core.urls import SiteUrl, redact_credentials
from mkdocs_sitemap_pro.core.words import named
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.integrations import mike
from mkdocs_sitemap_pro.plugin.pages import Collection

__all__ = ["Carry", "Previous", "carry_previous", "last_deploy", "previous_location",
           "previous_messages", "read_previous", "recorded_pages", "write_manifest"]

#: Seconds the whole fetch of the last deploy's manifest over HTTP(S) may take.
FETCH_TIMEOUT = 20.0


class Carry(NamedTuple):
    """The map with the cut-off files dated, and what to say: an INFO line when dates
    were carried, else a WARNING ('' for neither)."""

    history: HistoryMap
    info: str = ""
    warning: str = ""


def previous_location(config: MkDocsConfig, options: SitemapProConfig) -> str | None:
    """Where the last deploy's manifest is: the option as given (a path or a URL), or
    for ``auto`` its URL beside the published entry sitemap (a version's, under mike)."""
    previous = options.previous
    if previous != "auto":
        return previous
    if not config.site_url:
        return None
    versioned = mike.version_build(config)
    site = versioned.folder if versioned is not None else SiteUrl(config.site_url)
    return site.join(manifest_name(options.filename))


class Previous(NamedTuple):
    """The last deploy's manifest as read (None: none could be had), whether this is a
    first deploy (``auto``, nothing published yet), and where it was (credentials hidden)."""

    manifest: Manifest | None
    first: bool
    location: str
    trouble: str = ""  # why it could not be had, when it could not


def read_previous(location: str, filename: str, auto: bool = False) -> Previous:
    """The manifest at ``location``. ``auto``: ``location`` is where the site publishes
    it, so an HTTP 404 there means no deploy yet (``first``), not trouble."""
    read = _read(location, filename)
    shown = redact_credentials(location)  # what a message may say of it
    if isinstance(read, Manifest):
        return Previous(read, False, shown)
    if auto and isinstance(read, _NotPublished):
        return Previous(None, True, shown)
    return Previous(None, False, shown, redact_credentials(read))


def previous_messages(previous: Previous, mine: HistoryOptions) -> tuple[str, str]:
    """What a build with a complete history says of the last deploy's manifest: an INFO
    line, or a WARNING when it could not be had or not used (each '' when none)."""
    if previous.manifest is not None and not _same_rules(previous.manifest.options, mine):
        return "", _other_rules(previous.location, previous.manifest.options, "kept")
    if previous.first:
        return (f"previous: no earlier deploy ({previous.location}: HTTP 404), so this is "
                "the first: pages are dated by what they show"), ""
    if previous.manifest is None:
        return "", f"previous: {previous.trouble}; no date was kept from it"
    rendered = previous.manifest.rendered
    if rendered is None:
        return (f"previous: the manifest at {previous.location} records no page (made by an "
                "earlier version): pages are dated by what they show"), ""
    return (f"previous: the last deploy ({previous.location}, commit "
            f"{previous.manifest.commit[:12]}) recorded {len(rendered.pages):,} pages: each "
            "keeps its date while what it renders is unchanged"), ""


def last_deploy(previous: Previous, history: HistoryMap,
                processes: GitProcesses | None = None) -> LastDeploy | None:
    """The last deploy's pages for the rule of later deploys, with the date of the
    commit being built (one quick git call); None when it recorded none."""
    manifest, key = previous.manifest, history.key
    if manifest is None or manifest.rendered is None or key is None or history.top is None:
        return None
    if not _same_rules(manifest.options, key.options):  # its dates do not hold here
        return None
    built = newest_commit(history.top, [key.head], key.options.date, processes=processes)
    return LastDeploy(manifest.rendered, manifest.commit, built)


def carry_previous(history: HistoryMap, previous: Previous,
                   processes: GitProcesses | None = None) -> Carry:
    """``history`` of a shallow clone, with the files beyond its boundary dated by the
    last deploy's manifest (or by the clone's newest boundary commit, where their
    content changed since)."""
    key = history.key
    if key is None or not key.boundary or history.top is None:
        return Carry(history)
    mine = key.options
    location = previous.location
    found = previous.manifest
    if found is None and not previous.first:
        return Carry(history, warning=f"previous: {previous.trouble}; no date was carried from it")
    if found is None:  # a first deploy: no date published yet, none older than the clone's
        found = Manifest(key.head, mine, {})
    if not _same_rules(found.options, mine):
        return Carry(history, warning=_other_rules(location, found.options, "carried"))
    bound = newest_commit(history.top, [b.decode("ascii") for b in key.boundary], mine.date,
                          processes=processes)
    if bound is None:
        bound = newest_commit(history.top, [key.head], mine.date, processes=processes)
    carried = carry(history.changes, history.objects, found, bound)
    if previous.first:
        info = (f"previous: no earlier deploy ({location}: HTTP 404), so this is the "
                "first: dates from this clone's history, a file whose last change is "
                "older than its oldest commit dated by that commit")
    else:
        info = (f"previous: dates carried from the last deploy ({location}, commit "
                f"{found.commit[:12]}): {carried.carried:,} files unchanged since, "
                f"{carried.changed:,} changed since; files changed since or not in it are "
                f"dated by the clone's oldest commit")
    # The clone's history is complete now, as far as dates go: its warning is moot.
    warnings = tuple(w for w in history.warnings if SHALLOW_CLONE not in w)
    return Carry(history._replace(changes=carried.changes, warnings=warnings), info=info)


def _same_rules(theirs: HistoryOptions, mine: HistoryOptions) -> bool:
    """Whether a manifest's dates were made by this build's date rules."""
    return (theirs.rule, theirs.date, sorted(theirs.ignore_commits)) == (
        mine.rule, mine.date, sorted(mine.ignore_commits))


def _other_rules(location: str, theirs: HistoryOptions, done: str) -> str:
    """The warning for a manifest made by other date rules: none of its dates is used."""
    return (f"previous: the manifest at {location} was made with other date rules "
            f"(git_history {theirs.rule}, git_date {theirs.date}, "
            f"ignore_commits {list(theirs.ignore_commits)}), so its dates do not "
            f"hold here; no date was {done} from it")


class _NotPublished(str):
    """Why there is no manifest, when the server answered that there is none (404)."""


def _read(location: str, filename: str) -> Manifest | str:
    """The manifest at ``location``, or why it cannot be had."""
    try:
        if location.split("://", 1)[0].lower() in ("http", "https") and "://" in location:
            from mkdocs_sitemap_pro.core.check.sources import FetchError, HttpSource

            try:
                data = HttpSource(FETCH_TIMEOUT).read(location, MAX_BYTES)
            except FetchError as error:
                return f"the manifest at {location} could not be fetched ({error})"
            if data is None:
                return _NotPublished(f"there is no manifest at {location} (HTTP 404)")
        else:
            path = Path(location)
            try:
                if path.is_dir():
                    path = path / manifest_name(filename)
                # Never a FIFO (``open`` would wait for ever) or a device (endless).
                found = read_regular(path, MAX_BYTES)
            except (OSError, ValueError) as error:  # not regular, a name too long, a NUL
                reason = error.strerror if isinstance(error, OSError) and error.strerror else error
                return f"the manifest at {named(str(path))} could not be read ({reason})"
            if found is None:
                return f"there is no manifest at {named(str(path))}"
            data = found
        return parse_manifest(data)
    except ManifestError as error:
        return f"the manifest at {location} cannot be used: {error}"


def recorded_pages(site_dir: Path, filename: str,
                   method: str) -> Mapping[str, tuple[str, dt.datetime | None]]:
    """The pages the manifest now in ``site_dir`` recorded (by the last build into the
    folder), if it was made the same way; none if there is none or it cannot be used."""
    found = _read(str(site_dir / manifest_name(filename)), filename)
    if isinstance(found, Manifest) and found.rendered is not None and (
            found.rendered.method == method):
        return found.rendered.pages
    return {}


def write_manifest(site_dir: Path, filename: str, history: GitHistory | None,
                   builds: Iterable[tuple[Files, Collection, Dependencies | None]],
                   rendered: RenderedPages | None = None) -> str | None:
    """Write this build's manifest beside the entry sitemap: every file that dated one
    of the listed pages (of each language build), the URLs (relative to site_dir)
    of built pages left out on purpose, and what each listed page rendered
    (``rendered``); its name, or None when there is no repository to date by (then
    nothing can be carried)."""
    if history is None or history.key is None:
        return None
    builds = list(builds)
    left_out = [file.url for files, found, _ in builds for src_uri in found.left_out
                if (file := files.get_file_from_path(src_uri)) is not None and file.page]
    # Made in two steps, so that each one's working set is gone before the next.
    files = _dated_files(history, _dating_names(history, builds))
    manifest = Manifest(history.key.head, history.key.options, files,
                        frozenset(path_key(url.encode("utf-8")) for url in left_out), rendered)
    written = manifest_name(filename)
    replace_file(site_dir / written, manifest_chunks(manifest))
    return written


def _dating_names(history: GitHistory,
                  builds: list[tuple[Files, Collection, Dependencies | None]]) -> dict[bytes, None]:
    """git's names of the files that dated the listed pages, once each."""
    names: dict[bytes, None] = {}
    name_of = history.name
    for _, found, dependencies in builds:
        shows = dependencies.pages if dependencies is not None else {}
        shown_paths: dict[str, None] = {}  # files pages showed, once each (many share some)
        for page in found.pages:
            if page.source_path is not None:
                names[name_of(page.source_path) or b""] = None
            shown = shows.get(page.src_uri)
            if shown is not None and (shown.files or shown.parts):
                # A file shown in part is dated by its whole date.
                shown_paths.update(dict.fromkeys(shown.files))
                shown_paths.update((path, None) for path, _ in shown.parts)
        if dependencies is not None:
            for path in shown_paths:  # less what must not date a page
                relative = history.relative(path)
                if relative is not None and not dependencies.exclude.match_file(relative):
                    names[name_of(path) or b""] = None
    return names


def _dated_files(history: GitHistory, names: Iterable[bytes]) -> dict[str, tuple[str, dt.datetime]]:
    """The manifest's files: per hashed name, the object id and date of each dated one."""
    dated: list[bytes] = []
    values: list[tuple[str, dt.datetime]] = []
    objects, change_of = history.objects, history.change
    for name in names:
        oid = objects.get(name)
        change = change_of(name)
        if oid is not None and isinstance(change, Known):
            dated.append(name)
            values.append((oid, change.when))
    return dict(zip(path_keys(dated), values))
