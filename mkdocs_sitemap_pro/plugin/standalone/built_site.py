"""A site another builder wrote, as MkDocs' own ``Files`` and ``Page`` objects.

``mkdocs-sitemap-pro build`` sees no build, only mkdocs.yml, docs_dir and the HTML in
site_dir. Every source is given its URL by MkDocs' own ``File``/``Page`` logic (``a.md``
-> ``a/``, ``a/index.md`` and ``a/README.md`` -> ``a/``, ``a.html`` without directory
URLs); a source whose HTML is elsewhere (a blog post, which the blog plugin moves to a
dated URL) is matched to the one unclaimed page that carries its title. HTML that no
source explains becomes a generated page (a blog's archive, category and pagination
pages) if MkDocs' URL rules could have produced its path; the rest (``search/``,
``assets/``, a theme's ``404.html``, copies of docs_dir's own HTML files) is not a page.
The collector then reads every page back from its source and its HTML on disk, exactly
as it reads the pages a ``--dirty`` build skipped.

Also sources whose HTML is not at their MkDocs URL, found by their title.
"""

from __future__ import annotations

import html
import os
import re
from collections import defaultdict
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel, get_files
from mkdocs.structure.pages import Page
from mkdocs.utils.meta import get_data

__all__ = ["BuiltSite", "read_built_site", "built_heading", "match_moved"]


_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1\s*>", re.IGNORECASE | re.DOTALL)
_HEADERLINK = re.compile(r"<a\b[^>]*\bheaderlink\b[^>]*>.*?</a\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_ATX = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SPACE = re.compile(r"\s+")


def match_moved(orphans: Sequence[File], unclaimed: Sequence[str], site_dir: str) -> dict[str, str]:
    """``src_uri -> dest_uri`` for each orphan source that one unclaimed page is titled by."""
    if not orphans or not unclaimed:
        return {}
    sources: dict[str, list[str]] = defaultdict(list)
    for file in orphans:
        title = _source_title(file)
        if title:
            sources[title].append(file.src_uri)
    pages: dict[str, list[str]] = defaultdict(list)
    for dest_uri in unclaimed:
        title = _page_title(os.path.join(site_dir, dest_uri))
        if title in sources:
            pages[title].append(dest_uri)
    return {
        sources[title][0]: dests[0]
        for title, dests in pages.items()
        if len(dests) == 1 and len(sources[title]) == 1
    }


def _source_title(file: File) -> str:
    """The title a source gives itself: front matter ``title``, else its first heading."""
    try:
        markdown, meta = get_data(file.content_string)
    except (OSError, UnicodeDecodeError):
        return ""
    title = meta.get("title")
    if isinstance(title, str) and title.strip():
        return _plain(title)
    heading = _ATX.search(markdown)
    return _plain(heading.group(1)) if heading else ""


def _page_title(path: str) -> str:
    """The text of a page's first ``<h1>``, without its permalink."""
    return _plain(html.unescape(built_heading(path) or ""))


def built_heading(path: str) -> str | None:
    """The first ``<h1>`` of the built page at ``path`` as HTML text (tags and its
    permalink stripped, entities kept, white space collapsed), as MkDocs keeps a title
    taken from a heading; None: no such heading, or no such file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fd:
            text = fd.read()
    except OSError:
        return None
    heading = _H1.search(text)
    if heading is None:
        return None
    return _plain(_TAG.sub("", _HEADERLINK.sub("", heading.group(1)))) or None


def _plain(text: str) -> str:
    """Whitespace collapsed, so the Markdown and the HTML compare equal."""
    return _SPACE.sub(" ", text).strip()

# Folders of theme and search output: never pages.
_NOT_PAGES = frozenset({"search", "assets"})
_BUILDER = "the builder"  # File.generated_by of pages no source explains


@dataclass
class BuiltSite:
    """The pages of a built site, and why some sources have none."""

    files: Files
    generated: list[File] = field(default_factory=list)
    unbuilt: list[str] = field(default_factory=list)  # included sources without HTML


def read_built_site(config: MkDocsConfig, skip: Collection[str] = ()) -> BuiltSite:
    """Every page in ``config.site_dir``, each with its source where it has one.

    ``skip``: folders of site_dir that hold other builds (languages built one at a time).
    """
    files = get_files(config)
    known = {file.dest_uri for file in files}
    html = set(_html_files(config.site_dir, skip)) - known
    orphans: list[File] = []
    # Only dest_uri is read before a move: File caches url and abs_dest_path from it.
    for file in files.documentation_pages():
        built = os.path.isfile(os.path.join(config.site_dir, file.dest_uri))
        # The ignore: MkDocs' InclusionLevel methods are untyped.
        if not built and not file.inclusion.is_excluded():  # type: ignore[no-untyped-call]
            orphans.append(file)
    moved = match_moved(orphans, sorted(html), config.site_dir)
    for file in orphans:
        dest_uri = moved.get(file.src_uri)
        if dest_uri is None:
            continue
        file.dest_uri = dest_uri
        html.discard(dest_uri)
    site = BuiltSite(files)
    for file in orphans:
        if file.src_uri not in moved:
            files.remove(file)
            site.unbuilt.append(file.src_uri)
    for file in files.documentation_pages():
        Page(None, file, config)
    for dest_uri in sorted(html):
        generated = _generated_page(config, dest_uri, files)
        if generated is not None:
            files.append(generated)
            Page(None, generated, config)
            site.generated.append(generated)
    return site


def _generated_page(config: MkDocsConfig, dest_uri: str, files: Files) -> File | None:
    """A page no source explains, if MkDocs' URL rules could have written ``dest_uri``."""
    if dest_uri.split("/", 1)[0] in _NOT_PAGES:
        return None
    stem = dest_uri[: -len(".html")]
    if config.use_directory_urls:
        if stem.endswith("/index"):
            stem = stem[: -len("/index")]
        elif stem != "index":
            return None
    src_uri = f"{stem}.md"
    if files.get_file_from_path(src_uri) is not None:
        return None
    file = File(
        src_uri,
        src_dir=None,
        dest_dir=config.site_dir,
        use_directory_urls=config.use_directory_urls,
        inclusion=InclusionLevel.INCLUDED,
    )
    file.generated_by = _BUILDER
    file.content_string = ""  # no source: no front matter
    # The path must be the one MkDocs gives that name; anything else is not its page.
    return file if file.dest_uri == dest_uri else None


def _html_files(site_dir: str, skip: Collection[str] = ()) -> Iterator[str]:
    """Every ``*.html`` under ``site_dir`` but in the ``skip`` folders, as a path relative
    to it with ``/``."""
    for folder, dirs, names in os.walk(site_dir):
        rel = os.path.relpath(folder, site_dir).replace(os.sep, "/")
        dirs[:] = sorted(d for d in dirs if rel != "." or d not in skip)
        for name in sorted(names):
            if name.endswith(".html"):
                yield name if rel == "." else f"{rel}/{name}"
