"""What pages showed in the last builds of one process, for pages a rebuild does not render.

``mkdocs serve --dirty`` renders only the pages whose source is newer than their HTML;
for the others MkDocs keeps the HTML, so what they showed when this process last
observed (or recalled) them still holds, and the git read answered their files then.
``by_page`` holds that for every page seen (by source and HTML path, across the builds
of a static-i18n site); ``pages``, ``missing`` and ``ids`` are the last build's result,
so a rebuild with the same pages starts from it and changes only the rendered ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mkdocs_sitemap_pro.plugin.dependencies.cache import Cached
from mkdocs_sitemap_pro.plugin.pages import Identity

__all__ = ["Carried", "PageKey"]

#: A page as carried observations know it: (src_uri, abs_src_path, abs_dest_path).
PageKey = tuple[str, str, str]


@dataclass
class Carried:
    """What pages showed in earlier builds of this process (``mkdocs serve``)."""

    by_page: dict[PageKey, Cached] = field(default_factory=dict)
    pages: dict[str, Cached] = field(default_factory=dict)  # the last build's, by src_uri
    missing: tuple[str, ...] = ()  # the last build's pages neither rendered nor cached
    ids: list[Identity] | None = None  # the last build's pages (None: no build kept)

    def clear(self) -> None:
        self.by_page.clear()
        self.pages, self.missing, self.ids = {}, (), None
