"""What a page's front matter says about its sitemap entry.

Reads the ``sitemap`` and ``robots`` keys of one page's metadata. A bad value never stops
the build and is never written: it is dropped and reported as a problem naming the key
and the value, which the plugin logs as a warning (so ``--strict`` fails).
"""

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from difflib import get_close_matches
from typing import NamedTuple, TypeVar

from mkdocs_sitemap_pro.core import protocol
from mkdocs_sitemap_pro.core.page.html import robots_forbids_indexing

T = TypeVar("T")

_KNOWN_KEYS = frozenset({"exclude", "lastmod", "changefreq", "priority"})
# The core's checks say "invalid priority 'high': expected …"; the message already
# names the key and value, so only the reason after that prefix is kept.
_INVALID_PREFIX = re.compile(r"^invalid \w+(?: \w+)? .*?: (?=\S)")


class PageSettings(NamedTuple):
    """The sitemap settings of one page, every value already checked."""

    excluded: bool = False
    excluded_because: str = ""
    lastmod: dt.date | dt.datetime | None = None
    changefreq: str | None = None
    priority: float | None = None
    problems: tuple[str, ...] = ()
    # A lastmod was given and refused: it may be accepted later (one more than a day
    # after the build time is no longer so), so the page may read differently then.
    lastmod_refused: bool = False


_PLAIN = PageSettings()  # most pages: no sitemap key (immutable, so shared)


def read_page_settings(meta: Mapping[str, object], build_time: dt.datetime) -> PageSettings:
    """Check the ``sitemap`` and ``robots`` keys of ``meta``.

    ``build_time`` (aware) bounds ``lastmod`` (``protocol.latest_allowed``): a later date
    is a problem, since a crawler would be told of a change that has not happened.
    """
    problems: list[str] = []

    robots = meta.get("robots")
    robots_text = ",".join(str(v) for v in robots) if isinstance(robots, list) else robots
    if isinstance(robots_text, str) and robots_forbids_indexing(robots_text):
        return PageSettings(excluded=True, excluded_because="front matter robots: noindex")

    raw = meta.get("sitemap")
    if raw is None:
        meant = _misspelt_sitemap(meta)
        if meant is None:
            return _PLAIN
        return PageSettings(problems=(
            f"front matter '{meant}' is not a key sitemap-pro reads; ignored, the page is "
            "listed as if it had no sitemap key; did you mean 'sitemap'?",))
    if raw is True:
        return _PLAIN
    if raw is False:
        return PageSettings(excluded=True, excluded_because="front matter sitemap: false")
    if not isinstance(raw, Mapping):
        problems.append(
            f"front matter 'sitemap: {as_written(raw)}' is neither true, false nor a mapping "
            f"(of {', '.join(sorted(_KNOWN_KEYS))}); ignored, the page is listed as if "
            "it had no sitemap key"
        )
        return PageSettings(problems=tuple(problems))

    for key in raw:
        if key not in _KNOWN_KEYS:
            close = get_close_matches(str(key).lower(), _KNOWN_KEYS, n=1)
            meant = f"; did you mean 'sitemap.{close[0]}'?" if close else ""
            problems.append(
                f"front matter 'sitemap.{key}' is not a known key "
                f"(known: {', '.join(sorted(_KNOWN_KEYS))}); ignored{meant}"
            )

    exclude = raw.get("exclude", False)
    if exclude is True:
        return PageSettings(excluded=True, excluded_because="front matter sitemap.exclude")
    if exclude not in (False, None):
        problems.append(
            f"front matter 'sitemap.exclude: {as_written(exclude)}' is not true or false; "
            "ignored, the page is listed"
        )

    lastmod = _checked(raw, "lastmod", lambda v: _lastmod(v, build_time), problems)
    changefreq = _checked(raw, "changefreq", protocol.check_changefreq, problems)
    priority = _checked(raw, "priority", protocol.check_priority, problems)
    return PageSettings(
        lastmod=lastmod, changefreq=changefreq, priority=priority, problems=tuple(problems),
        lastmod_refused=lastmod is None and raw.get("lastmod") is not None,
    )


def _misspelt_sitemap(meta: Mapping[str, object]) -> str | None:
    """A key of ``meta`` that looks like ``sitemap`` misspelt (``sitemaps``, ``site_map``,
    ``Sitemap``), or None. Most keys are ruled out by their first letter and length, so a
    page with none costs a few comparisons."""
    for key in meta:
        if (isinstance(key, str) and 5 <= len(key) <= 10 and key[0] in "sS"
                and get_close_matches(key.lower(), ("sitemap",), n=1, cutoff=0.8)):
            return key
    return None


def as_written(value: object) -> str:
    """A YAML value as the user wrote it: ``high``, ``2030-01-01``, ``true``, ``[1]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (list, dict)):
        return json.dumps(value, default=str, ensure_ascii=False)
    return str(value)


def _checked(
    raw: Mapping[str, object],
    key: str,
    check: Callable[[object], T],
    problems: list[str],
) -> T | None:
    """``check(raw[key])``, or None with a problem naming the key, the value and why."""
    value = raw.get(key)
    if value is None:
        return None
    try:
        return check(value)
    except ValueError as error:
        reason = _INVALID_PREFIX.sub("", str(error))
        # A lastmod of its own left out, the page is still dated (by git, say).
        then = ("ignored, the page is dated as if it set none" if key == "lastmod"
                else f"ignored, the page is listed without a {key}")
        problems.append(
            f"front matter 'sitemap.{key}: {as_written(value)}' is invalid ({reason}); {then}"
        )
        return None


def _lastmod(value: object, build_time: dt.datetime) -> dt.date | dt.datetime:
    """A front matter lastmod: a naive datetime is taken as UTC; the future is refused."""
    if isinstance(value, str) and len(value.strip()) > 10:
        try:
            value = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            pass  # check_lastmod names the text
    if isinstance(value, dt.datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=protocol.UTC)
    checked = protocol.check_lastmod(value)
    if protocol.utc_key(checked) > protocol.latest_allowed(build_time):
        raise ValueError("it is more than one day after the build time")
    return checked
