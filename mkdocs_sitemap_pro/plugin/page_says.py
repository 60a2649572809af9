"""What a built page says of itself: its front matter, rendered head and (with
``images``) the images its content shows (``PageSays``), read back from disk for a page this build did not render, and whether anything after
the pages were written may rewrite one (``writes_no_page``).
"""

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from mkdocs.structure.files import File
from mkdocs.utils.meta import YAML_RE, get_data

from mkdocs_sitemap_pro.core.page.html_head import HeadDirectives, read_head
from mkdocs_sitemap_pro.core.page.images import ImagesFound, content_element, content_images

__all__ = ["Identity", "PageSays", "head_on_disk", "identities", "read_back",
           "writes_no_page"]

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
