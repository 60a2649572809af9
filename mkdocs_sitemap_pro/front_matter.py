"""What a page's front matter says about its sitemap entry.

Reads the ``sitemap`` and ``robots`` keys of one page's metadata. A bad value never stops
the build and is never written: it is dropped and reported as a problem naming the key
and the value, which the plugin logs as a warning (so ``--strict`` fails).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from mkdocs_sitemap_pro import protocol

_KNOWN_KEYS = frozenset({"exclude", "lastmod", "changefreq", "priority"})
_TOKEN_SPLIT = re.compile(r"[\s,]+")


@dataclass(frozen=True)
class PageSettings:
    """The sitemap settings of one page, every value already checked."""

    excluded: bool = False
    excluded_because: str = ""
    lastmod: dt.date | dt.datetime | None = None
    changefreq: str | None = None
    priority: float | None = None
    problems: tuple[str, ...] = field(default=())


def robots_forbids_indexing(value: str) -> bool:
    """Whether a robots directive list (``"noindex, follow"``) holds ``noindex``.

    ``none`` counts too: the robots standard defines it as ``noindex, nofollow``.
    """
    tokens = {token.lower() for token in _TOKEN_SPLIT.split(value) if token}
    return bool(tokens & {"noindex", "none"})


def read_page_settings(meta: Mapping[str, object], build_time: dt.datetime) -> PageSettings:
    """Check the ``sitemap`` and ``robots`` keys of ``meta``.

    ``build_time`` (aware) bounds ``lastmod``: a date more than one day after it is a
    problem, since a crawler would be told of a change that has not happened.
    """
    problems: list[str] = []

    robots = meta.get("robots")
    robots_text = ",".join(str(v) for v in robots) if isinstance(robots, list) else robots
    if isinstance(robots_text, str) and robots_forbids_indexing(robots_text):
        return PageSettings(excluded=True, excluded_because="front matter robots: noindex")

    raw = meta.get("sitemap")
    if raw is None or raw is True:
        return PageSettings()
    if raw is False:
        return PageSettings(excluded=True, excluded_because="front matter sitemap: false")
    if not isinstance(raw, Mapping):
        problems.append(
            f"front matter 'sitemap: {raw!r}' is neither true/false nor a mapping "
            "(exclude, lastmod, changefreq, priority); it is ignored"
        )
        return PageSettings(problems=tuple(problems))

    for key in raw:
        if key not in _KNOWN_KEYS:
            problems.append(
                f"front matter 'sitemap.{key}' is not a known key "
                f"(known: {', '.join(sorted(_KNOWN_KEYS))}); it is ignored"
            )

    exclude = raw.get("exclude", False)
    if exclude is True:
        return PageSettings(excluded=True, excluded_because="front matter sitemap.exclude")
    if exclude not in (False, None):
        problems.append(f"front matter 'sitemap.exclude: {exclude!r}' is not true or false; it is ignored")

    lastmod = _checked(raw, "lastmod", lambda v: _lastmod(v, build_time), problems)
    changefreq = _checked(raw, "changefreq", protocol.check_changefreq, problems)
    priority = _checked(raw, "priority", protocol.check_priority, problems)
    return PageSettings(
        lastmod=lastmod, changefreq=changefreq, priority=priority, problems=tuple(problems)
    )


def _checked(raw: Mapping[str, object], key: str, check, problems: list[str]):  # type: ignore[no-untyped-def]
    """``check(raw[key])``, or None with a problem naming the key and value."""
    value = raw.get(key)
    if value is None:
        return None
    try:
        return check(value)
    except ValueError as error:
        problems.append(f"front matter 'sitemap.{key}: {value!r}' is invalid ({error}); it is left out")
        return None


def _lastmod(value: object, build_time: dt.datetime) -> dt.date | dt.datetime:
    """A front matter lastmod: a naive datetime is taken as UTC; the future is refused."""
    if isinstance(value, str) and len(value.strip()) > 10:
        try:
            value = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            pass  # check_lastmod names the text
    if isinstance(value, dt.datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    checked = protocol.check_lastmod(value)
    if protocol.utc_key(checked) > build_time + dt.timedelta(days=1):
        raise ValueError("it is more than one day after the build time")
    return checked
