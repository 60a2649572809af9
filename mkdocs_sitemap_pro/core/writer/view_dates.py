"""The HTML view's lastmod cells: a written lastmod shown for people, with a sortable key.

``29 Feb 2024, 13:05 UTC`` for ``2024-02-29T13:05:00+00:00``, ``29 Feb 2024`` for
``2024-02-29``; the exact text stays in the cell (``datetime``, ``title``) and the
instant it names in ``data-value``, for sorting. Every text is one ``lastmod_text``
made (UTC, of one of those two forms), so it is read by its positions.
"""

from functools import lru_cache

from mkdocs_sitemap_pro.core.protocol import text_instant

__all__ = ["date_cell", "day_text", "readable"]

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_text(text: str) -> str:
    """``29 Feb 2024`` from the ``YYYY-MM-DD`` that ``text`` starts with."""
    day, year = text[8:10].lstrip("0"), text[:4].lstrip("0")
    return f"{day} {_MONTHS[int(text[5:7]) - 1]} {year}"


def readable(text: str | None) -> tuple[str, str]:
    """(text for people, sortable key) of a lastmod text: ``29 Feb 2024, 13:05 UTC``."""
    if not text:
        return "", ""
    shown = f"{day_text(text)}, {text[11:16]} UTC" if len(text) > 10 else day_text(text)
    return shown, text_instant(text)


@lru_cache(maxsize=8192)  # pages of one site share dates: each is read once
def date_cell(text: str | None) -> str:
    """The ``<td>`` of a lastmod as written (``None``: a marked empty cell). The texts
    hold no character to escape."""
    shown, key = readable(text)
    if not shown:
        return '<td class="date none" data-label="Last modified" data-value="">–</td>'
    return (f'<td class="date" data-label="Last modified" data-value="{key}">'
            f'<time datetime="{text}" title="{text}">{shown}</time></td>')
