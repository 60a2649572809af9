"""``changes``: which URLs were added, removed and updated between two sitemap trees.

A tree (a site folder, a sitemap file or an http(s) URL) is read as ``check`` reads it:
the same safe sources, size caps and file cap, robots.txt first. A tree read only in
part (a file missing, unreadable, too large or not XML, the file cap reached) is refused
rather than compared: its missing URLs would read as removed.

By fingerprint first. Our manifest (``<stem>.manifest.json`` beside the sitemap that
starts a folder's tree: the entry sitemap, or a mike version's under the root index)
records, per listed page, the fingerprint of what it rendered, keyed by
``page_key(loc[len(folder):])`` of its loc relative to that folder (the URL the sitemap
lists under). A URL both trees fingerprinted the same way (the same ``rendered``
method) is updated exactly when its fingerprint differs (``rendered``): a lastmod that
moved while what the page renders did not (a build without ``previous``, re-dated by a
commit the reader cannot see) is no change, and is not reported at all.

Otherwise (a URL either manifest does not fingerprint, or made another way, or no
manifest), by ``lastmod``: updated means a newer one (compared at the coarser precision
of the two, so a switch between ``date`` and ``datetime`` is no change), or, when both
trees have our manifest, a different content identity of a file that dated it. A URL
is tied to the files whose recorded date is its lastmod (the same second, or the same
UTC day for a date), as a page's lastmod is the date of the newest file it shows. Same
lastmod, and one of those files recorded in both manifests with other content: updated
(``content``). That finds a page changed twice on one day under ``lastmod_format:
date``, or changed by an ignored commit; it may also name a page dated by another file
of the same second or day (an extra recrawl, never a missed change).

A lastmod that went back is its own kind, ``backwards``, whatever the fingerprints say
(history was rewritten, or dates were carried wrongly: the sitemap is wrong either
way); its reason is ``rendered`` when the fingerprint changed too, and such a page is
one to recrawl (``recrawl``) as the added, removed and updated ones are.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Literal, NamedTuple

from mkdocs_sitemap_pro.core.check import CheckError, CheckOptions
from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.run import Start, sitemaps_from_robots, start_of
from mkdocs_sitemap_pro.core.check.sources import FetchError, Source
from mkdocs_sitemap_pro.core.check.tree import Loaded, Tree, TreeLimits, follow
from mkdocs_sitemap_pro.core.deploy.manifest import (
    MAX_BYTES,
    Manifest,
    ManifestError,
    loc_key,
    manifest_name,
    parse_manifest,
)
from mkdocs_sitemap_pro.core.protocol import UTC, check_lastmod, utc_key

__all__ = ["Change", "ChangeKind", "NoSitemap", "SitemapUrls", "compare", "read_urls",
           "recrawl"]

ChangeKind = Literal["added", "removed", "updated", "backwards"]
KINDS: tuple[ChangeKind, ...] = ("added", "removed", "updated", "backwards")

# What ``follow`` reports when part of a tree was not read.
_NOT_READ = frozenset({"missing", "unreadable", "byte-limit", "xml", "file-cap", "nested-index"})


class NoSitemap(CheckError):
    """The target exists but holds no sitemap at all (every entry file is absent)."""


class Change(NamedTuple):
    """One URL's change: ``old``/``new`` are its lastmod texts (None if absent or not
    listed); ``reason`` is ``rendered``, ``lastmod`` or ``content`` for ``updated``,
    ``rendered`` or ``""`` for ``backwards``, else ``""``."""

    url: str
    kind: ChangeKind
    old: str | None
    new: str | None
    reason: str = ""


class SitemapUrls(NamedTuple):
    """A tree's URLs (loc -> lastmod text, in the order listed), the URL its files are
    published at, what its manifests recorded per hashed file (None: no manifest), and
    per loc the fingerprint of what it rendered, with the method that made it (only the
    locs a manifest fingerprints)."""

    site_url: str
    urls: Mapping[str, str | None]
    files: Mapping[str, tuple[str, dt.datetime]] | None
    rendered: Mapping[str, tuple[str, str]] = MappingProxyType({})


def read_urls(target: str, options: CheckOptions, fallback_site_url: str | None = None
              ) -> SitemapUrls:
    """Read the whole tree at ``target``; ``CheckError`` (``NoSitemap``) if it cannot be.

    ``fallback_site_url`` is the URL a folder that cannot tell its own (no robots.txt)
    is taken to be published at: the other tree's, for two deploys of one site."""
    start = _start(target, options, fallback_site_url)
    # What robots.txt and the files break of the protocol is check's business, not ours:
    # only what was not read counts (``_NOT_READ``).
    entries = start.files or sitemaps_from_robots(start, Findings())
    limits = TreeLimits(options.max_bytes, options.max_files)
    now = options.now or dt.datetime.now(UTC)
    walked = Findings()
    tree = follow(entries, start.source, start.site, limits, now, walked)
    _refuse_partial(tree, walked, target)
    urls = _lastmods(tree.files)
    owners = _owners(tree.files)
    manifests = _manifests(dict.fromkeys(owners.values()), start.source)
    return SitemapUrls(start.site.url, urls, _entry_files(entries, manifests),
                       _fingerprints(tree.files, owners, manifests))


def _start(target: str, options: CheckOptions, fallback_site_url: str | None) -> Start:
    """Where ``target`` is read from; a folder that cannot tell its own URL is taken to
    be published at ``fallback_site_url``, unless the options name one."""
    try:
        return start_of(target, options)
    except CheckError:
        if fallback_site_url is None or options.site_url is not None:
            raise
        return start_of(target, dataclasses.replace(options, site_url=fallback_site_url))


def _refuse_partial(tree: Tree, walked: Findings, target: str) -> None:
    """Raise ``NoSitemap`` when no file of the tree exists, ``CheckError`` when part of
    it was not read: its missing URLs would read as removed."""
    problems = [f for f in walked.items if f.rule in _NOT_READ]
    if not tree.files and problems and all(f.rule == "missing" for f in problems):
        raise NoSitemap(f"there is no sitemap at {target}: "
                        + "; ".join(_named_once(f.file, f.message, target) for f in problems))
    if problems:
        raise CheckError(f"the sitemap tree at {target} could not be read whole: "
                         + "; ".join(_named_once(f.file, f.message, target) for f in problems))


def _lastmods(files: list[Loaded]) -> dict[str, str | None]:
    """Each loc the sitemaps (not the indexes) list, in order, with its newest lastmod."""
    urls: dict[str, str | None] = {}
    for loaded in files:
        if not loaded.doc.file.is_index:
            for entry in loaded.doc.file.entries:
                if entry.loc and (entry.loc not in urls or _newer(entry.lastmod, urls[entry.loc])):
                    urls[entry.loc] = entry.lastmod
    return urls


def _entry_files(entries: list[str], manifests: Mapping[str, Manifest],
                 ) -> dict[str, tuple[str, dt.datetime]] | None:
    """The hashed files the manifests beside the entry sitemaps recorded (None: none
    has one; a manifest that does not parse counts as none)."""
    files: dict[str, tuple[str, dt.datetime]] | None = None
    for url in entries:
        found = manifests.get(url)
        if found is not None:
            files = {**(files or {}), **found.files}
    return files


def _named_once(file: str, message: str, target: str) -> str:
    """A finding's file and message, each name said once: a message of the rules often
    starts with the URL its file is (``<url>: cannot fetch: …``, ``<url> does not
    exist``) or names the file itself, and the file that is the target is named already."""
    for name in (file, target):
        message = message.removeprefix(f"{name}: ")
    if message.startswith(f"{target} "):  # "<target> does not exist": the target is named
        return "it" + message[len(target):]
    return message if file == target or file in message else f"{file}: {message}"


def _folder(url: str) -> str:
    return url.rpartition("/")[0]


def _owners(files: list[Loaded]) -> dict[str, str]:
    """Each file read, with the sitemap that starts its folder's tree: itself when it is
    an entry or an index listed it from another folder (a mike version's ``sitemap.xml``
    under the root index), else its index's (the parts of a split sitemap)."""
    owners: dict[str, str] = {}
    for loaded in files:  # an index is read before the files it lists
        parent = loaded.parent
        owner = owners.get(parent) if parent is not None else None
        if owner is None or _folder(parent or "") != _folder(loaded.url):
            owner = loaded.url
        owners[loaded.url] = owner
    return owners


def _manifests(starts: Iterable[str], source: Source) -> dict[str, Manifest]:
    """The manifest beside each sitemap that starts a folder's tree, where there is one
    (one that does not parse counts as none: nothing in it can be trusted)."""
    read: dict[str, Manifest] = {}
    for url in starts:
        folder, _, name = url.rpartition("/")
        name = name.removesuffix(".gz")  # sitemap.xml.gz: the manifest of sitemap.xml
        if not name.endswith(".xml"):
            continue
        try:
            data = source.read(f"{folder}/{manifest_name(name)}", MAX_BYTES)
            if data is not None:
                read[url] = parse_manifest(data)
        except (FetchError, ManifestError):
            continue
    return read


def _fingerprints(files: list[Loaded], owners: Mapping[str, str],
                  manifests: Mapping[str, Manifest]) -> dict[str, tuple[str, str]]:
    """Per loc, the fingerprint the manifest of its folder's tree recorded and how it was
    made: keyed as the build keyed it, by its URL relative to that folder."""
    found: dict[str, tuple[str, str]] = {}
    for loaded in files:
        owner = owners[loaded.url]
        manifest = manifests.get(owner)
        rendered = manifest.rendered if manifest is not None else None
        if rendered is None or loaded.doc.file.is_index:
            continue
        base, method, pages = _folder(owner) + "/", rendered.method, rendered.pages
        for entry in loaded.doc.file.entries:
            key = loc_key(entry.loc, base) if entry.loc else None
            if key is not None and (page := pages.get(key)) is not None:
                found[entry.loc] = (method, page[0])
    return found


def _value(text: str | None) -> dt.date | dt.datetime | None:
    if text is None:
        return None
    try:
        return check_lastmod(text)
    except ValueError:
        return None


def _order(old: dt.date | dt.datetime, new: dt.date | dt.datetime) -> int:
    """-1, 0 or 1 as ``new`` is older, the same or newer; a date against a datetime
    compares by the datetime's UTC day."""
    if type(old) is dt.date or type(new) is dt.date:
        a, b = utc_key(old).date(), utc_key(new).date()
    else:
        a, b = utc_key(old), utc_key(new)
    return (b > a) - (b < a)


def _newer(text: str | None, than: str | None) -> bool:
    new, old = _value(text), _value(than)
    return new is not None and (old is None or _order(old, new) > 0)


def _content_changed(lastmod: dt.date | dt.datetime, old: Mapping[str, tuple[str, dt.datetime]],
                     new: Mapping[str, tuple[str, dt.datetime]]) -> bool:
    """Whether a file dated ``lastmod`` in ``new`` is recorded in ``old`` with other content."""
    if type(lastmod) is dt.date:
        day = lastmod

        def dated(when: dt.datetime) -> bool:
            return when.astimezone(UTC).date() == day
    else:
        moment = utc_key(lastmod).replace(microsecond=0)

        def dated(when: dt.datetime) -> bool:
            return when == moment
    for key, (oid, when) in new.items():
        before = old.get(key)
        if before is not None and before[0] != oid and dated(when):
            return True
    return False


def recrawl(change: Change) -> bool:
    """Whether what a search engine holds of the URL is stale: added, removed, updated,
    or gone back in date with other rendered content."""
    return change.kind != "backwards" or change.reason == "rendered"


def compare(old: SitemapUrls, new: SitemapUrls) -> list[Change]:
    """The changes from ``old`` to ``new``: by kind (added, removed, updated, backwards),
    then in the order the URLs are listed (``removed`` in the old tree's order)."""
    found: dict[ChangeKind, list[Change]] = {kind: [] for kind in KINDS}
    manifests = old.files is not None and new.files is not None
    for url, text in new.urls.items():
        if url not in old.urls:
            found["added"].append(Change(url, "added", None, text))
            continue
        change = _change(url, text, old, new, manifests)
        if change is not None:
            found[change.kind].append(change)
    found["removed"] = [Change(url, "removed", text, None)
                        for url, text in old.urls.items() if url not in new.urls]
    return [change for kind in KINDS for change in found[kind]]


def _change(url: str, text: str | None, old: SitemapUrls, new: SitemapUrls,
            manifests: bool) -> Change | None:
    """How a URL both trees list changed (None: it did not, or nothing says it did):
    back in date whatever was rendered, else by fingerprints, else by lastmod, else by
    the content of a file that dated it (``manifests``: both trees have one)."""
    before = old.urls[url]
    was, now = _value(before), _value(text)
    order = _order(was, now) if was is not None and now is not None else None
    rendered = _rendered_changed(old.rendered.get(url), new.rendered.get(url))
    if order is not None and order < 0:  # the sitemap is wrong, whatever was rendered
        return Change(url, "backwards", before, text, "rendered" if rendered else "")
    if rendered is not None:  # fingerprints decide: a lastmod moving is no change
        return Change(url, "updated", before, text, "rendered") if rendered else None
    if order is None:
        return None  # a missing or unreadable lastmod says nothing about a change
    if order > 0:
        return Change(url, "updated", before, text, "lastmod")
    if manifests and now is not None and _content_changed(now, old.files or {}, new.files or {}):
        return Change(url, "updated", before, text, "content")
    return None


def _rendered_changed(old: tuple[str, str] | None, new: tuple[str, str] | None) -> bool | None:
    """Whether the fingerprints differ; None when they cannot say (one is missing, or
    they were made another way)."""
    if old is None or new is None or old[0] != new[0]:
        return None
    return old[1] != new[1]
