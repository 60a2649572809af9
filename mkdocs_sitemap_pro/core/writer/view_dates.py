"""The HTML view's lastmod cells: a written lastmod shown for people, with a sortable key.

``29 Feb 2024, 13:05 UTC`` for ``2024-02-29T13:05:00+00:00``; the exact text stays in
the cell (``datetime``, ``title``) and the UTC key in ``data-value``, for sorting.
"""

import datetime as dt
import re
from functools import lru_cache

from mkdocs_sitemap_pro.core.protocol import check_lastmod, utc_key
from mkdocs_sitemap_pro.core.urls import xml_escape

__all__ = ["UTC_TEXT", "date_cell", "day_text", "readable"]

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

# The writer's own text of a UTC datetime (``YYYY-MM-DDThh:mm:ss+00:00``): read by
# slicing, since most dates differ (parsing each cost 20 k instructions a URL). Each
# digit is spelt out: the regex engine matches that a third faster than [0-9]{4}.
_D = "[0-9]"
UTC_TEXT = rf"{_D * 4}-(?:0[1-9]|1[0-2])-{_D * 2}T{_D * 2}:{_D * 2}:{_D * 2}\+00:00"
_UTC_TEXT = re.compile(UTC_TEXT)


def day_text(text: str) -> str:
    """``29 Feb 2024`` from the ``YYYY-MM-DD`` that ``text`` starts with."""
    day, year = text[8:10].lstrip("0"), text[:4].lstrip("0")
    return f"{day} {_MONTHS[int(text[5:7]) - 1]} {year}"


def readable(text: str | None) -> tuple[str, str]:
    """(text for people, sortable key) of a lastmod: ``29 Feb 2024, 13:05 UTC``. The
    writer's own UTC text is its own key (the same object, and nothing to escape)."""
    if not text:
        return "", ""
    if _UTC_TEXT.fullmatch(text):  # its key is itself: UTC, in isoformat's form
        return f"{day_text(text)}, {text[11:16]} UTC", text
    try:
        value = _parsed(text)
    except ValueError:
        return text, text
    key = utc_key(value)
    day = f"{key.day} {_MONTHS[key.month - 1]} {key.year}"
    if isinstance(value, dt.datetime):
        return f"{day}, {key.hour:02}:{key.minute:02} UTC", key.isoformat()
    return day, key.isoformat()


def _parsed(text: str) -> dt.date | dt.datetime:
    """A lastmod as the writer wrote it; ``fromisoformat`` (C) first, the checker if odd."""
    try:
        value = dt.datetime.fromisoformat(text) if "T" in text else dt.date.fromisoformat(text)
    except ValueError:
        value = None
    if isinstance(value, dt.datetime) and value.utcoffset() is not None:
        return value
    if value is not None and not isinstance(value, dt.datetime):
        return value
    return check_lastmod(text)


@lru_cache(maxsize=8192)  # pages of one site share dates: each is read once
def date_cell(text: str | None) -> str:
    """The ``<td>`` of a lastmod as written (``None``: a marked empty cell)."""
    shown, key = readable(text)
    if not shown:
        return '<td class="date none" data-label="Last modified" data-value="">–</td>'
    if key is not text:  # (the writer's UTC text is its own key, and needs no escape)
        text, key, shown = xml_escape(text or ""), xml_escape(key), xml_escape(shown)
    return (f'<td class="date" data-label="Last modified" data-value="{key}">'
            f'<time datetime="{text}" title="{text}">{shown}</time></td>')
