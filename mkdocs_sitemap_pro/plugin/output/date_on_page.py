"""The sitemap's date on the page itself: one date everywhere.

Before a page's template renders, ``PageDates.put_in_meta`` puts the ``<lastmod>`` text its
sitemap entry will have (the very text: both come from the build's ``LastmodTexts``)
into ``page.meta.sitemap_lastmod`` (any theme can print it);
with ``show_date`` under Material, the same calendar date, formatted for the page's
language, into ``page.meta.revision_date``, which Material prints as the page's "last update" (a
page's own ``revision_date`` is kept). With ``meta_modified_time``, ``in_head`` writes
it into the rendered head as ``article:modified_time``. Where
mkdocs-git-revision-date-localized-plugin gives pages a date of its own, Material shows
that one: ``report`` says on how many pages the two differ, and how to show ours
(once for all the languages of a site).
"""

from __future__ import annotations

import datetime as dt

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from mkdocs_sitemap_pro.core.page.html import add_meta_property
from mkdocs_sitemap_pro.core.protocol import (
    LastmodTexts,
    lastmod_text,
    latest_allowed,
    text_instant,
    utc_key,
)
from mkdocs_sitemap_pro.core.words import counted
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.core.dating import Lastmod
from mkdocs_sitemap_pro.plugin.integrations.i18n import built_language
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.output.theme import material_like

__all__ = ["PageDates", "report"]

_THEIR_PLUGIN = "git-revision-date-localized"
_THEIR_DATE = "git_revision_date_localized_raw_iso_date"  # YYYY-MM-DD, their time zone
_THEIR_HTML = 'class="git-revision-date-localized-plugin '  # their date, as a page shows it


class PageDates:
    """Puts each page's sitemap date on it, for one build."""

    def __init__(self, config: MkDocsConfig, options: SitemapProConfig,
                 build_time: dt.datetime, texts: LastmodTexts) -> None:
        self._maker = texts  # the build's: the writer writes the very same text
        self._latest = latest_allowed(build_time)
        # revision_date is Material's (and MaterialX's); other themes print
        # sitemap_lastmod (the docs' override), so Babel is imported only where Material,
        # which installs it, is.
        self._show = options.show_date and material_like(config)
        self.in_heads = options.meta_modified_time
        self._language = str(config.theme.get("language") or "en")
        self._formatted: dict[tuple[str, str], str] = {}  # (date, locale) -> text
        self._texts: dict[str, str] = {}  # src_uri -> text, for the head
        theirs = config.plugins.get(_THEIR_PLUGIN)
        self.theirs = self._show and theirs is not None and bool(
            getattr(theirs, "config", {}).get("enabled", True))
        # Pages that show their date, where it differs, and pages that show none (a
        # template without the "last update" fact): counted from the written HTML.
        self.compared = self.differ = self.unshown = 0
        self._differs: dict[str, bool] = {}  # src_uri -> their day is not the sitemap's

    def put_in_meta(self, page: Page, when: Lastmod) -> None:
        """Before the page's template renders: its sitemap date in its meta."""
        # The sitemap leaves out a lastmod later than this (``items.collect``).
        if when is None or utc_key(when) > self._latest:
            return
        text = self._maker.text(when)
        meta = page.meta
        meta["sitemap_lastmod"] = text
        if self.in_heads:
            self._texts[page.file.src_uri] = _with_time(when, text)
        if not self._show:
            return
        if "revision_date" not in meta:
            meta["revision_date"] = self._localized(text[:10], _locale(page, self._language))
        if self.theirs and isinstance(theirs := meta.get(_THEIR_DATE), str):
            self._differs[page.file.src_uri] = theirs[:10] != text[:10]

    def count_in_html(self, page: Page, output: str) -> None:
        """After the page is rendered: count its date as shown (and whether it differs)
        only where the HTML shows their date; a page that shows none is counted apart."""
        differs = self._differs.pop(page.file.src_uri, None)
        if differs is None:
            return
        if _THEIR_HTML in output:
            self.compared += 1
            self.differ += differs
        else:
            self.unshown += 1

    def in_head(self, page: Page, output: str, written_end: int | None = None) -> str:
        """The rendered page with ``article:modified_time`` in its head (once);
        ``written_end``: ``written_head_end(output)``, where the caller has it."""
        text = self._texts.pop(page.file.src_uri, None)
        if text is None:
            return output
        changed, existing = add_meta_property(output, "article:modified_time", text,
                                              written_end)
        if existing is not None and not _same_moment(existing, text):
            log.warning(
                f"page '{page.file.src_uri}': its head already has article:modified_time "
                f"{existing!r}, which is not the sitemap's lastmod {text!r}; it was kept "
                "(meta_modified_time writes none where a theme or plugin wrote one)"
            )
        return changed

    def _localized(self, day: str, locale: str) -> str:
        """``YYYY-MM-DD`` as the page's language writes a date ("June 3, 2024"); the
        ISO text where Babel (which Material installs) or the language is missing."""
        key = (day, locale)
        text = self._formatted.get(key)
        if text is None:
            text = self._formatted[key] = _babel_date(dt.date.fromisoformat(day), locale)
        return text


def report(builds: list[PageDates]) -> None:
    """Once per site (every language of it): where git-revision-date-localized's date is
    what pages show, on how many it differs from the sitemap's."""
    shown = [each for each in builds if each.theirs]
    compared = sum(each.compared for each in shown)
    if not compared:
        return
    differ = sum(each.differ for each in shown)
    unshown = sum(each.unshown for each in shown)
    none = f"; {counted(unshown, 'page')} show{'s' if unshown == 1 else ''} no date " \
        "(its template has no last-update fact)" if unshown else ""
    log.info(
        f"show_date: mkdocs-git-revision-date-localized-plugin is enabled, so pages show "
        f"its date, which differs from the sitemap's on {differ:,} of the "
        f"{counted(compared, 'page')} that show it{none}; "
        f"to show the sitemap's date, set 'enabled: false' under {_THEIR_PLUGIN} in the "
        "plugins of mkdocs.yml, or remove it"
    )


def _locale(page: Page, default: str) -> str:
    """The page's language: static-i18n's, for the build it is in, or the theme's."""
    return built_language(page.file) or default


def _babel_date(day: dt.date, locale: str) -> str:
    try:
        from babel import Locale, UnknownLocaleError
        from babel.dates import format_date
    except ImportError:
        return day.isoformat()
    try:
        return format_date(day, format="long", locale=Locale.parse(locale.replace("-", "_")))
    except (UnknownLocaleError, ValueError):
        log.debug(f"show_date: Babel knows no language {locale!r}; the date is shown as ISO")
        return day.isoformat()


def _with_time(when: Lastmod, text: str) -> str:
    """``article:modified_time`` is a datetime: a datetime's own time where ``text`` is
    its date alone (``lastmod_format: date``); a date is its midnight UTC."""
    if len(text) == 10 and isinstance(when, dt.datetime):
        return lastmod_text(when, "datetime")
    return text_instant(text)


def _same_moment(a: str, b: str) -> bool:
    try:
        first, second = dt.datetime.fromisoformat(a), dt.datetime.fromisoformat(b)
    except ValueError:
        return a == b
    if first.tzinfo is None or second.tzinfo is None:
        return first.replace(tzinfo=None) == second.replace(tzinfo=None)
    return first == second
