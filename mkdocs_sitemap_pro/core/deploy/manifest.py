"""The manifest: what a deploy's dates were made of, published beside its sitemap.

``<stem>.manifest.json`` (``sitemap.manifest.json`` beside ``sitemap.xml``) records the
commit a site was built from, the options that decide dates, and for each file that
dated a page the identity of its content (git's object id) and the date it got. Paths
are hashed (BLAKE2b, 128 bits, of git's name for the file), so it says nothing the site does not
already publish; the same commit and options give the same bytes.

Each listed page is recorded too, by a hash of its loc relative to where the sitemap
lists (the site's URL, or a mike version's folder: ``loc_key``): the fingerprint of what
it rendered (``core.page.fingerprint``) and the ``<lastmod>`` it got, so that the next
deploy keeps that date while the page renders the same (``core.dating``), and
``changes`` names exactly the pages whose rendering changed (``core.deploy.changes``).

A build whose history is cut short (a shallow clone) reads the last published manifest
and ``carry`` gives each file whose change lies beyond the clone's boundary the date the
manifest recorded for the same content; a file whose content differs since is dated by
the newest commit of the clone that can have changed it: never older than the truth.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from json.encoder import encode_basestring_ascii as _string  # what json.dumps writes
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, Known, LastChange
from mkdocs_sitemap_pro.core.urls import normalise_loc

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "VERSION",
    "Carried",
    "Manifest",
    "ManifestError",
    "RenderedPages",
    "carry",
    "manifest_bytes",
    "manifest_chunks",
    "manifest_name",
    "parse_manifest",
    "path_key",
    "path_keys",
    "page_key",
    "loc_key",
]

FORMAT = "mkdocs-sitemap-pro manifest"
VERSION = 1
#: The most a manifest may hold when read back (a file or a download): about 300,000 files.
MAX_BYTES = 32 * 1024 * 1024
_KEY_BYTES = 16  # 128 bits of BLAKE2b: no two files of a repository collide
_PAGE_KEY_BYTES = 8  # 64 bits: no two pages of a site collide (a million: 1 in 10^7)
# A page's record: its fingerprint, then its lastmod in seconds since the epoch (none
# when it had none), in one string: under 40 bytes a page in all.
_PAGE_RECORD = re.compile(r"([A-Za-z0-9_-]{11})(0|[1-9][0-9]{0,11})?")
_PAGE_KEY = re.compile(r"[A-Za-z0-9_-]{11}")


class RenderedPages(NamedTuple):
    """What each listed page rendered (its fingerprint, made by ``method``) and the
    lastmod it got, by ``page_key`` of its URL."""

    method: str
    pages: Mapping[str, tuple[str, dt.datetime | None]]


class ManifestError(ValueError):
    """A manifest that cannot be used, and why."""


class Manifest(NamedTuple):
    """One build's manifest: its commit, its date rules, and per hashed path the
    content's object id and the date it got."""

    commit: str
    options: HistoryOptions
    files: Mapping[str, tuple[str, dt.datetime]]
    # Built pages left out of the sitemap on purpose (sitemap: false, noindex in front
    # matter, translation fallbacks...), by hashed URL: ``check`` does not call them unlisted.
    left_out: frozenset[str] = frozenset()
    rendered: RenderedPages | None = None  # None: made before pages were recorded


class Carried(NamedTuple):
    """Answers with the cut-off files dated: ``carried`` files kept the manifest's date
    (same content); ``changed`` ones, listed with other content, took the clone's bound."""

    changes: Mapping[bytes, LastChange]
    carried: int
    changed: int


def manifest_name(filename: str) -> str:
    """``sitemap.xml`` -> ``sitemap.manifest.json``: the manifest beside an entry sitemap."""
    stem = filename[:-4] if filename.endswith(".xml") else filename
    return f"{stem}.manifest.json"


def path_key(name: bytes) -> str:
    """The manifest's key for a file: a hash of git's name for it (its path from the top);
    for a page left out, of its URL relative to the sitemap's folder (``guide/``)."""
    return hashlib.blake2b(name, digest_size=_KEY_BYTES).hexdigest()


def page_key(relative_url: str) -> str:
    """The manifest's key for a listed page: a hash of its normalised URL relative to
    the site's (``guide/install/``), 11 characters of URL-safe base64."""
    digest = hashlib.blake2b(relative_url.encode("utf-8"), digest_size=_PAGE_KEY_BYTES).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def loc_key(loc: str, listed_under: str) -> str | None:
    """The ``page_key`` of a page listed at ``loc`` by a sitemap whose URLs lie under
    ``listed_under`` (a site's URL, or a mike version's folder, ending in ``/``): its
    normalised URL from there, as the build that wrote both keyed it and as ``changes``
    finds it again. None for a loc that is not under it (or not a URL)."""
    try:
        normal = normalise_loc(loc)
    except ValueError:
        return None
    return page_key(normal[len(listed_under):]) if normal.startswith(listed_under) else None


def path_keys(names: Iterable[bytes]) -> list[str]:
    """``path_key`` of each name, in order: copying one empty hash costs a quarter less
    than making each anew (its parameters are parsed once)."""
    empty = hashlib.blake2b(digest_size=_KEY_BYTES)
    keys: list[str] = []
    for name in names:
        hashed = empty.copy()
        hashed.update(name)
        keys.append(hashed.hexdigest())
    return keys


def manifest_bytes(manifest: Manifest) -> bytes:
    """The manifest as published: compact JSON, keys sorted, one final newline. Each
    file's date is in seconds since the epoch (git's dates are whole seconds)."""
    return b"".join(manifest_chunks(manifest))


#: Files written per chunk of ``manifest_chunks``.
_FILES_PER_CHUNK = 4096


def manifest_chunks(manifest: Manifest) -> Iterator[bytes]:
    """``manifest_bytes`` in parts, to be written one after the other.

    The files and pages parts (one entry a file HEAD dated, or a page listed: tens of
    thousands on a large site) are written a few thousand entries at a time, each string
    escaped as ``json.dumps`` escapes it: ``json.dumps`` of the whole holds its text
    twice (the text and its bytes) and its thousands of small parts while it works, at
    the build's peak of memory. The same bytes as ``json.dumps(..., sort_keys=True)``."""
    options = manifest.options
    top: dict[str, object] = {
        "commit": manifest.commit,
        "files": _FILES,
        "format": FORMAT,
        "left_out": sorted(manifest.left_out),
        "options": {"git_date": options.date, "git_history": options.rule,
                    "ignore_commits": sorted(options.ignore_commits)},
        "version": VERSION,
    }
    rendered = manifest.rendered
    if rendered is not None:
        top["pages"], top["rendered"] = _PAGES, rendered.method
    head = json.dumps(top, sort_keys=True, separators=(",", ":"))
    files = manifest.files
    pages = rendered.pages if rendered is not None else {}
    # Each part's keys, and the record of one key.
    big: dict[str, tuple[Iterable[str], Callable[[str], str]]] = {
        _string(_FILES): (files, lambda key: _file_record(files[key])),
        _string(_PAGES): (pages, lambda key: _page_record(pages[key]))}
    for at, text in enumerate(re.split(f"({re.escape(_string(_FILES))}|{re.escape(_string(_PAGES))})", head)):
        if at % 2 == 0:
            yield text.encode("ascii")
            continue
        listed, record = big[text]
        yield b"{"
        keys = sorted(listed)
        for first in range(0, len(keys), _FILES_PER_CHUNK):
            part = ",".join([f"{_string(key)}:{record(key)}"
                             for key in keys[first:first + _FILES_PER_CHUNK]])
            yield (part if first == 0 else "," + part).encode("ascii")
        yield b"}"
    yield b"\n"


# Stand-ins for the big parts in the head, replaced as it is written.
_FILES, _PAGES = "\x00files", "\x00pages"


def _file_record(value: tuple[str, dt.datetime]) -> str:
    object_id, when = value
    return f"[{_string(object_id)},{int(when.timestamp())}]"


def _page_record(value: tuple[str, dt.datetime | None]) -> str:
    fingerprint, when = value
    return f'"{fingerprint}{int(when.timestamp()) if when is not None else ""}"'


def parse_manifest(data: bytes) -> Manifest:
    """A manifest read back; ``ManifestError`` says what is wrong with one that is not.

    Nothing in it is trusted beyond its shape: every value is type-checked, every date
    must be a zoned ISO 8601 datetime, and the size is capped (``MAX_BYTES``)."""
    top = _header(data)
    commit, options, files = top.get("commit"), top.get("options"), top.get("files")
    if not isinstance(commit, str) or not isinstance(options, dict) or not isinstance(files, dict):
        raise ManifestError("it lacks its commit, options or files")
    rules = _history_rules(options)
    read = _file_entries(files)
    left_out = top.get("left_out", [])
    if not isinstance(left_out, list) or not all(isinstance(k, str) for k in left_out):
        raise ManifestError("its left_out is not a list of keys")
    return Manifest(commit, rules, read, frozenset(left_out), _rendered(top))


def _header(data: bytes) -> dict[str, object]:
    """A manifest's top object, once its size, JSON, format and version are ours."""
    if len(data) > MAX_BYTES:
        raise ManifestError(f"it is larger than {MAX_BYTES:,} bytes")
    try:
        top = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise ManifestError(f"it is not JSON ({error})") from None
    if not isinstance(top, dict) or top.get("format") != FORMAT:
        raise ManifestError("it is not a mkdocs-sitemap-pro manifest")
    if top.get("version") != VERSION:
        raise ManifestError(f"its format version is {top.get('version')!r}, not {VERSION}")
    return top


def _history_rules(options: dict[str, object]) -> HistoryOptions:
    """The history options a manifest was made with, checked as a build checks them."""
    ignored = options.get("ignore_commits")
    if not isinstance(ignored, list) or not all(isinstance(s, str) for s in ignored):
        raise ManifestError("its ignore_commits is not a list of commits")
    try:
        return HistoryOptions(options.get("git_history"), options.get("git_date"),  # type: ignore[arg-type]
                              tuple(ignored))
    except ValueError as error:
        raise ManifestError(f"its options are not valid ({error})") from None


def _file_entries(files: dict[str, object]) -> dict[str, tuple[str, dt.datetime]]:
    """The ``files`` part read back: per key, an object id and a UTC date."""
    read: dict[str, tuple[str, dt.datetime]] = {}
    for key, value in files.items():
        if (not isinstance(value, list) or len(value) != 2 or not isinstance(value[0], str)
                or type(value[1]) is not int):
            raise ManifestError(f"its entry {key!r} is not [object id, seconds]")
        try:
            when = dt.datetime.fromtimestamp(value[1], dt.timezone.utc)
        except (OverflowError, OSError, ValueError):
            raise ManifestError(f"its entry {key!r} has no valid date") from None
        read[key] = (value[0], when)
    return read


def _rendered(top: dict[str, object]) -> RenderedPages | None:
    """The pages part of a manifest read back (None where it has none)."""
    method, pages = top.get("rendered"), top.get("pages")
    if method is None and pages is None:
        return None
    if not isinstance(method, str) or not isinstance(pages, dict):
        raise ManifestError("its rendered or pages is not valid")
    read: dict[str, tuple[str, dt.datetime | None]] = {}
    for key, value in pages.items():
        found = _PAGE_RECORD.fullmatch(value) if isinstance(value, str) else None
        if found is None or not _PAGE_KEY.fullmatch(key):
            raise ManifestError(f"its page {key!r} is not a fingerprint and a date")
        seconds = found.group(2)
        try:
            when = (dt.datetime.fromtimestamp(int(seconds), dt.timezone.utc)
                    if seconds is not None else None)
        except (OverflowError, OSError, ValueError):
            raise ManifestError(f"its page {key!r} has no valid date") from None
        read[key] = (found.group(1), when)
    return RenderedPages(method, read)


def carry(changes: Mapping[bytes, LastChange], objects: Mapping[bytes, str],
          previous: Manifest, bound: Known | None) -> Carried:
    """Date every file git could not date for lack of history (``Unknown("shallow")``).

    Same content as ``previous`` recorded: its date (what crawlers last saw is still
    what it shows). Other content, or a file it does not list (new since, or one that
    dated no page then): ``bound``, the newest commit the clone holds that can have
    changed it; without a bound the file stays undated. ``changed`` counts the listed
    files whose content differs."""
    dated: dict[bytes, LastChange] = dict(changes)
    carried = changed = 0
    files = previous.files
    for name, change in changes.items():
        if isinstance(change, Known) or change.reason != "shallow":
            continue
        recorded = files.get(path_key(name))
        if recorded is not None and recorded[0] == objects.get(name):
            dated[name] = Known(recorded[1], previous.commit)
            carried += 1
            continue
        changed += recorded is not None
        if bound is not None:
            dated[name] = bound
    return Carried(dated, carried, changed)
