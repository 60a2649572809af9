"""Which pages of an MkDocs build belong in the sitemap, and what each one says of itself.

Knows MkDocs' files and pages, but nothing of hooks, git or XML. Pages rendered in this
build are recorded as they pass (front matter and rendered head); pages that a
``--dirty`` build skipped are read back from their source and their HTML on disk, so the
sitemap lists the whole site whichever way it was built. The sitemap describes the files
as they are at the end of the build: a page whose HTML another plugin replaced after it
was rendered (mkdocs-redirects writes redirect stubs in its own ``on_post_build``) is
judged by what is on disk.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import pathspec
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils.meta import YAML_RE, get_data

from mkdocs_sitemap_pro.core.urls import normalise_loc
from mkdocs_sitemap_pro.plugin.front_matter import PageSettings, read_page_settings
from mkdocs_sitemap_pro.plugin.doc_pages import final_documentation_pages
from mkdocs_sitemap_pro.core.html_head import HeadDirectives, read_head
from mkdocs_sitemap_pro.plugin.paths import path_of


@dataclass(frozen=True)
class SitemapPage:
    """A page that belongs in the sitemap, with its checked settings."""

    src_uri: str
    url: str
    source_path: Path | None  # None for a page another plugin generated
    settings: PageSettings


@dataclass(frozen=True)
class _Seen:
    """What a rendered page showed while this build rendered it."""

    meta: Mapping[str, object]
    head: HeadDirectives
    unparsed_front_matter: bool
    size: int = -1  # bytes MkDocs writes for the page (-1: read from disk, not rendered)


_Stamp = tuple[int, int, int]  # (mtime_ns, size, inode): a file unchanged since


class KeptPages:
    """What each page said in earlier builds of this process, with its files' stamps."""

    def __init__(self) -> None:
        self._pages: dict[tuple[str | None, str], tuple[_Stamp | None, _Stamp | None, _Seen]] = {}
        self._fresh: set[tuple[str | None, str]] = set()  # recalled in this build

    def start(self) -> None:
        """A new build: every page's stamps are to be checked again."""
        self._fresh.clear()

    def recall(self, file: File) -> _Seen | None:
        """What the page said last time, if neither its source nor its HTML changed."""
        key = (file.abs_src_path, file.abs_dest_path)
        kept = self._pages.get(key)
        if kept is None:
            return None
        stamps = (_stamp(file.abs_src_path), _stamp(file.abs_dest_path))
        if None in stamps or kept[:2] != stamps:
            return None
        self._fresh.add(key)
        return kept[2]

    def keep(self, file: File, seen: _Seen) -> None:
        key = (file.abs_src_path, file.abs_dest_path)
        if key in self._fresh:  # just recalled: the stamps are still right
            return
        self._pages[key] = (_stamp(file.abs_src_path), _stamp(file.abs_dest_path), seen)

    def clear(self) -> None:
        self._pages.clear()


def _stamp(path: str | None) -> _Stamp | None:
    try:
        st = os.stat(path) if path else None
    except OSError:
        return None
    return None if st is None else (st.st_mtime_ns, st.st_size, st.st_ino)


@dataclass
class Collection:
    """The outcome of ``PageCollector.collect``: pages to list, and why others are not."""

    pages: list[SitemapPage]
    left_out: dict[str, str]  # src_uri -> reason
    problems: list[tuple[str, str]]  # (src_uri, message) for warnings


class PageCollector:
    """Gathers the built pages of one build; ``collect`` turns them into sitemap pages."""

    def __init__(
        self,
        exclude: pathspec.PathSpec,
        build_time: dt.datetime,
        redirected: frozenset[str] = frozenset(),
        kept: KeptPages | None = None,
    ) -> None:
        self._kept = kept  # None: nothing is kept for a later build (one-off `mkdocs build`)
        if kept is not None:
            kept.start()
        self._exclude = exclude
        self._excluding = bool(exclude.patterns)  # the default, no pattern: nothing to match
        self._build_time = build_time
        self._redirected = redirected  # src_uris another plugin turns into redirect stubs
        self._seen: dict[str, _Seen] = {}
        self._unparsed: set[str] = set()

    def note_markdown(self, page: Page, markdown: str) -> None:
        """Remember a page whose front matter MkDocs dropped because it did not parse."""
        if not page.meta and YAML_RE.match(markdown):
            self._unparsed.add(page.file.src_uri)

    def record(self, page: Page, output: str) -> None:
        """Remember a rendered page's metadata and head directives."""
        src_uri = page.file.src_uri
        self._seen[src_uri] = _Seen(
            meta=dict(page.meta),
            head=read_head(output),
            unparsed_front_matter=src_uri in self._unparsed,
            # As MkDocs encodes it when writing, to notice a file replaced after it
            # (``isascii`` is a flag lookup, so most pages are never encoded here).
            size=len(output) if output.isascii() else len(output.encode("utf-8", "xmlcharrefreplace")),
        )

    def collect(self, files: Files) -> Collection:
        """Every page of the published site that belongs in the sitemap."""
        result = Collection(pages=[], left_out={}, problems=[])
        for file in final_documentation_pages(files):
            reason = self._static_exclusion(file)
            if reason:
                result.left_out[file.src_uri] = reason
                continue
            assert file.page is not None
            seen = self._seen.get(file.src_uri)
            if seen is None:
                kept = self._kept.recall(file) if self._kept is not None else None
                seen = kept or _read_back(file)
            elif _written_size(file) not in (seen.size, -1):
                seen = _Seen(seen.meta, _head_on_disk(file), seen.unparsed_front_matter)
            if self._kept is not None:
                self._kept.keep(file, seen)
            if seen.unparsed_front_matter:
                result.problems.append(
                    (
                        file.src_uri,
                        "front matter could not be parsed as a YAML mapping, so MkDocs "
                        "dropped all of it (sitemap settings included); quote values such "
                        "as dates that YAML rejects",
                    )
                )
            settings = read_page_settings(seen.meta, self._build_time)
            result.problems.extend((file.src_uri, message) for message in settings.problems)
            url = file.page.canonical_url or file.url
            reason = settings.excluded_because or _head_exclusion(seen.head, url)
            if reason:
                result.left_out[file.src_uri] = reason
                continue
            result.pages.append(
                SitemapPage(
                    src_uri=file.src_uri,
                    url=url,
                    source_path=None if file.generated_by else path_of(file.abs_src_path or ""),
                    settings=settings,
                )
            )
        return result

    def _static_exclusion(self, file: File) -> str:
        """Why a file is never listed whatever its content says, or ''."""
        if file.inclusion.is_excluded():
            return "draft or excluded docs"
        if file.src_uri == "404.md":
            return "the 404 page"
        if file.page is None:
            return "no page"
        if file.src_uri in self._redirected:
            return "a redirect stub (mkdocs-redirects redirect_maps)"
        # A generated page has no source to match, so its URL path stands in for it.
        target = file.url if file.generated_by else file.src_uri
        if self._excluding and self._exclude.match_file(target):
            return "matched the 'exclude' option"
        return ""


def _head_exclusion(head: HeadDirectives, url: str) -> str:
    """Why the page's own head keeps it out of the sitemap, or ''."""
    if head.noindex:
        return "robots meta tag: noindex"
    if head.refresh:
        return "a redirect stub (meta refresh)"
    # Most themes point every page's canonical link at the page itself, as given.
    if head.canonical and head.canonical != url:
        target = urljoin(url, head.canonical)
        if normalise_loc(target) != normalise_loc(url):
            return f"canonical link points to {target}"
    return ""


def _read_back(file: File) -> _Seen:
    """A page ``--dirty`` did not rebuild: its source's front matter, its HTML on disk."""
    try:
        source = file.content_string
    except (OSError, UnicodeDecodeError):
        source = ""
    _, meta = get_data(source)
    return _Seen(
        meta=meta,
        head=_head_on_disk(file),
        unparsed_front_matter=not meta and bool(YAML_RE.match(source)),
    )


def _head_on_disk(file: File) -> HeadDirectives:
    """The head directives of a page's HTML as it is on disk now."""
    try:
        return read_head(Path(file.abs_dest_path).read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return HeadDirectives()


def _written_size(file: File) -> int:
    """The size of a page's HTML on disk, or -1 if it cannot be read."""
    try:
        return os.stat(file.abs_dest_path).st_size
    except OSError:
        return -1

