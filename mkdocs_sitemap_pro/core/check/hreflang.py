"""The hreflang rules for ``xhtml:link`` alternates, as Google states them for sitemaps.

Each URL with alternates must list itself among them, ``x-default`` at most once, each
language once, with well-formed codes (``protocol.check_hreflang``); and alternates
must be reciprocal: if A names B, B (listed in the tree) names A.
"""

from __future__ import annotations

from collections import Counter

from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.tree_rules import ListedUrls
from mkdocs_sitemap_pro.core.protocol import check_hreflang

__all__ = ["check_alternates"]


def check_alternates(urls: ListedUrls, found: Findings) -> None:
    """Judge the alternates of every listed URL."""
    for loc, places in urls.items():
        loaded, entry = places[0]
        if not entry.alternates:
            continue
        shown = loaded.shown
        codes = Counter(alt.hreflang for alt in entry.alternates)
        for alt in entry.alternates:
            try:
                check_hreflang(alt.hreflang)
            except ValueError as error:
                found.error("hreflang-code", shown, f"{loc}: {error}", url=loc)
            if not alt.href.startswith(("http://", "https://")):
                found.error("hreflang-href", shown,
                            f"{loc}: alternate {alt.hreflang} {alt.href!r} is not an absolute URL", url=loc)
        if codes["x-default"] > 1:
            found.error("hreflang-x-default", shown,
                        f"{loc}: x-default is given {codes['x-default']} times; at most once", url=loc)
        for code, count in codes.items():
            if count > 1 and code != "x-default":
                found.error("hreflang-duplicate", shown,
                            f"{loc}: hreflang {code} is given {count} times", url=loc)
        if not any(alt.href == loc for alt in entry.alternates):
            found.error("hreflang-self", shown,
                        f"{loc}: its alternates do not include the URL itself", url=loc)
        for alt in entry.alternates:
            if alt.href == loc:
                continue
            other = urls.get(alt.href)
            if other is None:
                found.warning("hreflang-unlisted", shown,
                              f"{loc}: alternate {alt.hreflang} {alt.href} is not listed "
                              "in the sitemap, so its return link cannot be seen", url=loc)
            elif alt.hreflang != "x-default" and not any(
                back.href == loc for back in other[0][1].alternates
            ):
                found.error("hreflang-reciprocal", shown,
                            f"{loc} names {alt.href} ({alt.hreflang}) as an alternate, "
                            "but that URL does not name it back", url=loc)
