"""Which pages of an MkDocs build belong in the sitemap, and what each one says of itself.

Knows MkDocs' files and pages, but nothing of hooks, git or XML. Pages rendered in this
build are recorded as they pass (front matter, rendered head); pages a ``--dirty`` build
skipped are read back from their source and HTML, so the sitemap lists the whole site.
It describes the files as they are at the end of the build: a page whose HTML another
plugin replaced after it was rendered (a redirect stub) is judged by what is on disk.
Under ``mkdocs serve --dirty``, a page MkDocs does not render again is unchanged for
``PagesMemo`` as for MkDocs: it says what it said when this process last saw it.

Also what a built page says of itself, and the pages whose HTML another page of the same
build overwrote (not listed).
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urljoin

import pathspec
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page
from mkdocs.utils.meta import YAML_RE, get_data

from mkdocs_sitemap_pro.core.dating import SitemapPage
from mkdocs_sitemap_pro.core.page.html import (
    HeadDirectives,
    ImagesFound,
    content_element,
    content_images,
    read_head,
)
from mkdocs_sitemap_pro.core.page.page_settings import PageSettings, read_page_settings
from mkdocs_sitemap_pro.core.urls import normalise_loc
from mkdocs_sitemap_pro.plugin.integrations.i18n import built_language

if TYPE_CHECKING:
    from mkdocs_sitemap_pro.plugin.serve import PagesMemo


#: Plugins whose on_post_build writes no page (a search index only): with nothing else
#: running after the pages are written, no page is looked at on disk again.
_WRITES_NO_PAGE = frozenset({"mkdocs.contrib.search", "material.plugins.search.plugin"})


def writes_no_page(method: object) -> bool:
    """Whether an on_post_build handler is one that never rewrites a built page."""
    owner = getattr(method, "__self__", None)
    return owner is not None and type(owner).__module__ in _WRITES_NO_PAGE


class PageSays(NamedTuple):
    """What a page said in the build that rendered it (or read it back)."""

    meta: Mapping[str, object]
    head: HeadDirectives
    unparsed_front_matter: bool
    images: ImagesFound = ImagesFound()  # only when the ``images`` option is on


#: A page's identity in a build: what its collection depends on besides what it says.
Identity = tuple[object, ...]


def identities(files: Iterable[File]) -> list[Identity]:
    """Each page's identity: source, HTML and URL paths, generator, inclusion. (Pages are
    the files MkDocs made a page of: cheaper to find than ``documentation_pages()``.)"""
    return [
        (f.src_uri, f.abs_src_path, f.abs_dest_path, f.url, f.generated_by, f.inclusion,
         page.canonical_url)
        for f in files
        if (page := f.page) is not None
    ]


def read_back(file: File, images: bool = False) -> PageSays:
    """A page ``--dirty`` did not rebuild (or another builder wrote): its source's front
    matter, its HTML on disk (``images``: the images of its content element too)."""
    try:
        source = file.content_string
    except (OSError, UnicodeDecodeError):
        source = ""
    _, meta = get_data(source)
    if not images:
        head = head_on_disk(file)
        found = ImagesFound()
    else:
        try:
            page_html = Path(file.abs_dest_path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            page_html = ""
        head = read_head(page_html)
        page = file.page
        url = (page.canonical_url if page is not None else None) or file.url
        found = content_images(content_element(page_html), url)
    return PageSays(
        meta=meta,
        head=head,
        unparsed_front_matter=not meta and bool(YAML_RE.match(source)),
        images=found,
    )


def head_on_disk(file: File) -> HeadDirectives:
    """The head directives of a page's HTML as it is on disk now."""
    try:
        return read_head(Path(file.abs_dest_path).read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return HeadDirectives()

_NOTHING = HeadDirectives()  # a head that says nothing of indexing

#: How far a file's modification time may lag the clock (the kernel stamps files with a
#: coarse clock, a tick of up to 10 ms behind): pages written this close before every page
#: was written are read again, in case another plugin replaced them.
_CLOCK_SLACK_NS = 50_000_000


class Collection:
    """The outcome of ``PageCollector.collect``: pages to list, and why others are not."""

    def __init__(self) -> None:
        self.pages: list[SitemapPage] = []
        self.left_out: dict[str, str] = {}  # src_uri -> reason
        self.problems: list[tuple[str, str]] = []  # (src_uri, message) for warnings
        self.page_says: dict[str, PageSays] = {}  # src_uri -> what it says (when pages are kept)
        self.clock_bound = False  # a setting was judged against the build time and refused


class PageCollector:
    """Gathers the built pages of one build; ``collect`` turns them into sitemap pages."""

    def __init__(
        self,
        exclude: pathspec.gitignore.GitIgnoreSpec,
        build_time: dt.datetime,
        redirected: frozenset[str] = frozenset(),
        kept: PagesMemo | None = None,
        moved: tuple[str, str] | None = None,
        images: bool = False,
    ) -> None:
        # ``images``: pages read back from disk are read for the images they show too.
        self._images = images
        # (the URL the builder gave the pages, the URL they are deployed at): a canonical
        # link below the first is read below the second (a language built under mike).
        self._moved = moved
        self._kept = kept  # None: nothing is kept for a later build (one-off `mkdocs build`)
        self._exclude = exclude
        self._excluding = bool(exclude.patterns)  # the default, no pattern: nothing to match
        self._build_time = build_time
        self.redirected = redirected  # src_uris another plugin turns into redirect stubs
        self._seen: dict[str, PageSays] = {}  # rendered pages: what each said
        self.rendered_files: dict[str, File] = {}  # and their files
        # When every page was written (on_post_build, before any other plugin's): a
        # page's HTML changed after it was replaced by another plugin, and is read again.
        self._written_at: int | None = None
        self._replaceable = True  # some other plugin's on_post_build may rewrite a page
        self._rendered: dict[str, PageSays] | None = None
        self._unparsed: set[str] = set()
        self._settings: dict[str, PageSettings] = {}  # pages judged before rendering

    def candidate(self, file: File | None) -> SitemapPage | None:
        """A page as the sitemap will list it, judged before its template renders (its
        date is shown on it): None when the sitemap leaves it out whatever its HTML says.
        What its rendered head says (noindex, a canonical elsewhere) is known later."""
        if file is None or file.page is None or self._static_exclusion(file):
            return None
        page = file.page
        # A page --dirty did not convert has no meta yet: it says what its source says.
        meta = page.meta if page.markdown is not None else self._unrendered(file).meta
        settings = self._settings[file.src_uri] = read_page_settings(meta, self._build_time)
        if settings.excluded_because:
            return None
        return SitemapPage(file.src_uri, page.canonical_url or file.url,
                           None if file.generated_by else file.abs_src_path, settings)

    def _unrendered(self, file: File) -> PageSays:
        """What a page this build did not render says: kept from an earlier build, or
        read back from its source and HTML."""
        kept = self._kept
        seen = kept.recall(file) if kept is not None else None
        if seen is None:
            seen = read_back(file, self._images)
            if kept is not None:
                kept.keep(file, seen)
        return seen

    def note_markdown(self, page: Page) -> None:
        """Remember a page whose front matter MkDocs dropped because it did not parse.

        MkDocs drops front matter that YAML rejects without a word, leaving it in the
        Markdown (noticed at ``on_page_content``: one hook per page fewer)."""
        if not page.meta and YAML_RE.match(page.markdown or ""):
            self._unparsed.add(page.file.src_uri)

    def record(self, page: Page, head: HeadDirectives,
               images: ImagesFound = ImagesFound()) -> None:
        """Remember a rendered page's metadata, head directives (``read_head``) and the
        images its content shows (``content_images``, when asked)."""
        src_uri = page.file.src_uri
        if (head.canonical is not None and self._kept is None and self._moved is None
                and head == (False, page.canonical_url or page.file.url, False)):
            # A canonical link to the page itself says what no link says (``collect``
            # compares it with this URL): not held through the build (most pages have one).
            head = _NOTHING
        # The page's own meta, not a copy: MkDocs makes a new one for each build.
        self._seen[src_uri] = PageSays(page.meta, head, src_uri in self._unparsed, images)
        self.rendered_files[src_uri] = page.file
        self._rendered = None

    def written(self, replaceable: bool = True) -> None:
        """Every rendered page is written by now (the first on_post_build): the moment a
        later change of its HTML is measured from (one clock read, not a stat a page).
        ``replaceable``: whether anything that runs later could rewrite a page."""
        if self._written_at is None:
            self._written_at = time.time_ns()
            self._replaceable = replaceable

    def rendered(self) -> dict[str, PageSays]:
        """Each page rendered in this build and what it said, judged by its HTML as it
        is on disk now (another plugin may have replaced it since); kept for later builds."""
        if self._rendered is None:
            self.written()
            assert self._written_at is not None
            # A file's time may lag the clock by a tick of the kernel's coarse clock:
            # a page written just before is read again, which is only slower.
            since = self._written_at - _CLOCK_SLACK_NS
            for src_uri, seen in self._seen.items():
                file = self.rendered_files[src_uri]
                try:
                    replaced = self._replaceable and (
                        os.stat(file.abs_dest_path).st_mtime_ns >= since)
                except OSError:
                    replaced = False
                if replaced:  # (in place: no second table of every page)
                    seen = self._seen[src_uri] = seen._replace(head=head_on_disk(file))
                if self._kept is not None:
                    self._kept.keep(file, seen)
            self._rendered = self._seen
        return self._rendered

    def collect(self, pages: Sequence[File]) -> Collection:
        """Every page of the published site that belongs in the sitemap, among ``pages``
        (the build's documentation pages)."""
        result = Collection()
        rendered, judged = self.rendered(), self._settings
        for file in pages:
            # A page judged before it rendered passed these rules then.
            reason = "" if file.src_uri in judged else self._static_exclusion(file)
            if reason:
                result.left_out[file.src_uri] = reason
                continue
            assert file.page is not None
            seen = rendered.get(file.src_uri)
            if seen is None:
                seen = self._unrendered(file)
            if self._kept is not None:  # for a later build to compare (serve) only
                result.page_says[file.src_uri] = seen
            if seen.unparsed_front_matter:
                result.problems.append(
                    (
                        file.src_uri,
                        "front matter could not be parsed as a YAML mapping, so MkDocs "
                        "dropped all of it (sitemap settings included); quote values such "
                        "as dates that YAML rejects",
                    )
                )
            settings = judged.get(file.src_uri)
            if settings is None:
                settings = read_page_settings(seen.meta, self._build_time)
            if settings.problems:
                result.problems.extend((file.src_uri, message) for message in settings.problems)
            result.clock_bound = result.clock_bound or settings.lastmod_refused
            url = file.page.canonical_url or file.url
            head = seen.head
            if self._moved and head.canonical and head.canonical.startswith(self._moved[0]):
                head = head._replace(
                    canonical=self._moved[1] + head.canonical[len(self._moved[0]):])
            reason = settings.excluded_because or _head_exclusion(head, url)
            if reason:
                result.left_out[file.src_uri] = reason
                continue
            result.pages.append(
                SitemapPage(
                    src_uri=file.src_uri,
                    url=url,
                    source_path=None if file.generated_by else file.abs_src_path,
                    settings=settings,
                    images=seen.images,
                )
            )
        return result

    def _static_exclusion(self, file: File) -> str:
        """Why a file is never listed whatever its content says, or ''."""
        # What MkDocs leaves out of the site (the ignore: InclusionLevel's methods are untyped).
        if file.inclusion.is_excluded():  # type: ignore[no-untyped-call]
            return "draft or excluded docs"
        if _is_404(file):
            return "the 404 page"
        if file.page is None:
            return "no page"
        if file.src_uri in self.redirected:
            return "a redirect stub (mkdocs-redirects redirect_maps)"
        # A generated page has no source to match, so its URL path stands in for it.
        target = file.url if file.generated_by else file.src_uri
        if self._excluding and self._exclude.match_file(target):
            return "matched the 'exclude' option"
        return ""


def _is_404(file: File) -> bool:
    """Whether a page is the site's "not found" page, or one language's: ``404.md`` at
    the root of the docs or of a language (static-i18n's folder layout), or
    ``404.<locale>.md`` (its suffix layout); built as ``[<locale>/]404/`` (or ``.html``)."""
    url = file.url
    if not url.endswith(("404/", "404.html")):
        return False
    # static-i18n names the language each of its files was built for.
    language = built_language(file)
    if language is not None and url.startswith(f"{language}/"):
        url = url[len(language) + 1:]
    return url in ("404/", "404.html")


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


def overwritten_pages(pages: Sequence[File]) -> dict[str, str]:
    """Each page (of a build's documentation ``pages``, in file order) whose HTML a later
    page overwrote: src_uri -> why."""
    last = {file.dest_uri: file.src_uri for file in pages}  # the page written last wins
    if len(last) == len(pages):
        return {}  # the usual site: every page has a file of its own
    return {
        file.src_uri: (
            f"overwritten by '{last[file.dest_uri]}' (both build to {file.dest_uri}, "
            "and MkDocs writes that page last)"
        )
        for file in pages
        if last[file.dest_uri] != file.src_uri
    }


def leave_out_overwritten(found: Collection, pages: Sequence[File]) -> None:
    """Move the pages another page overwrote from the listed pages to the left-out."""
    gone = overwritten_pages(pages)
    if not gone:
        return
    for page in found.pages:
        if page.src_uri in gone:
            found.left_out[page.src_uri] = gone[page.src_uri]
    found.pages = [page for page in found.pages if page.src_uri not in gone]
