"""What a build tells its user: warnings naming the page, DEBUG detail, one INFO line.

Every message of the MkDocs layer is logged here, through MkDocs' plugin logger (so
``--strict`` turns warnings into a failed build), and the INFO line that sums a build up
is built in one place.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable

from mkdocs.plugins import get_plugin_logger

from mkdocs_sitemap_pro.core.robots import Rule
from mkdocs_sitemap_pro.core.writer import WriteReport
from mkdocs_sitemap_pro.core.dating import API_FILE, CODE, UNEXPLAINED, UNSEEN, Dating
from mkdocs_sitemap_pro.plugin.pages import Collection
from mkdocs_sitemap_pro.core.words import counted as _count

log = get_plugin_logger("sitemap-pro")


def _debug() -> bool:
    return log.isEnabledFor(logging.DEBUG)


def collection(found: Collection) -> None:
    """Warn about bad page settings; say at DEBUG why pages were left out."""
    for src_uri, message in found.problems:
        log.warning(f"page '{src_uri}': {message}")
    if _debug():  # a line per page: made only when someone reads them
        for src_uri, reason in sorted(found.left_out.items()):
            log.debug(f"page '{src_uri}' left out: {reason}")


def dating(dated: Dating, mode: str) -> None:
    """Git trouble means dates the sitemap should have and lacks: warn, so --strict fails."""
    for message in dated.warnings:
        log.warning(message)
    if _debug():
        for src_uri, reason in dated.undated:
            log.debug(f"page '{src_uri}' not dated by {mode}: {reason}")
        for src_uri, detail in dated.notes:
            log.debug(f"page '{src_uri}': {detail}")
    site_wide = site_wide_file(dated)
    if site_wide:
        log.info(site_wide)


#: One file deciding the date of more than this share of the pages, and of at least
#: ``SITE_WIDE_PAGES``, is probably part of every page: the user is told (not guessed for).
SITE_WIDE_SHARE = 0.5
SITE_WIDE_PAGES = 20


def site_wide_file(dated: Dating) -> str:
    """The INFO line about a file that dates most of the site, or ''."""
    if not dated.deciders:
        return ""
    name, count = dated.deciders.most_common(1)[0]
    total = len(dated.lastmods)
    if count < SITE_WIDE_PAGES or count <= total * SITE_WIDE_SHARE:
        return ""
    return (
        f"{name} decides the lastmod of {count:,} of {total:,} pages; if it is part of "
        f"every page (a site-wide include), add it to dependencies_exclude so that an edit "
        f"of it does not re-date the whole site"
    )


def written(report: WriteReport, by_url: Callable[[], dict[str, str]]) -> None:
    """What the writer left out or merged, named by page where it can be (``by_url``
    gives the page of each URL; called only when something was left out)."""
    pages_by_url = by_url() if report.dropped or report.dropped_lastmods else {}
    for dropped in report.dropped:
        page = pages_by_url.get(dropped.loc, dropped.loc)
        log.warning(f"page '{page}' left out of the sitemap: {dropped.reason}")
    for dropped in report.dropped_lastmods:
        page = pages_by_url.get(dropped.loc, dropped.loc)
        log.warning(f"page '{page}': lastmod left out: {dropped.reason}")
    for loc in report.duplicates:
        log.info(f"two pages share the URL {loc}; it is listed once, with the newest lastmod")
    for name in report.removed:
        log.debug(f"removed stale sitemap file {name}")
    for name in report.html_refused:
        log.warning(
            f"{name} is the site's own file, so the sitemap's page for people was not "
            "written there; rename that page or set html_view: false"
        )


#: URLs (and robots.txt rules) a message names before counting the rest.
NAMED = 3


def disallowed(blocked: list[tuple[str, Rule]], listed: int) -> None:
    """One WARNING for every listed URL that robots.txt keeps every crawler from (so
    ``--strict`` fails): how many, the first few and the rules, and the two ways out."""
    if not blocked:
        return
    urls = ", ".join(loc for loc, _ in blocked[:NAMED])
    if len(blocked) > NAMED:
        urls += f" and {len(blocked) - NAMED:,} more"
    rules = list(dict.fromkeys(str(rule) for _, rule in blocked))
    rules_named = "; ".join(rules[:NAMED]) + (f"; {len(rules) - NAMED:,} more rules" if len(rules) > NAMED else "")
    log.warning(
        f"robots.txt disallows {blocked_count(len(blocked), listed)} for every crawler "
        f"(User-agent: *), and search engines report a listed URL they may not crawl as "
        f"an error: {urls} ({rules_named}); leave these pages out of the sitemap (the "
        f"`exclude` option, or `sitemap: false` in their front matter), or change "
        f"robots.txt to allow them"
    )


def blocked_count(blocked: int, listed: int) -> str:
    """``all 4 URLs in the sitemap`` or ``3 of the 12 URLs in the sitemap``."""
    if blocked == listed:
        return "the only URL in the sitemap" if listed == 1 else f"all {listed:,} URLs in the sitemap"
    return f"{blocked:,} of the {_count(listed, 'URL')} in the sitemap"


# What dated a page other than its own source, in the order the summary names them.
_BY = ("an included file", "the API objects it shows", API_FILE, CODE, "listed posts")


# Why pages were left out, as the summary counts them: (reason's start, the words after
# the count). The first that starts the reason wins; a reason none starts is said as is.
_LEFT_OUT = (
    ("draft or excluded docs", "draft or excluded"),
    ("the 404 page", "404 page"),
    ("matched the 'exclude' option", "by the exclude option"),
    ("front matter robots", "noindex"),
    ("robots meta tag", "noindex"),
    ("front matter sitemap", "by front matter"),
    ("a redirect stub", "redirect stub"),
    ("canonical link points to another version", "canonical in another version"),
    ("canonical link points to", "canonical elsewhere"),
    ("a fallback copy", "untranslated copy"),
    ("overwritten by", "overwritten"),
)


def left_out_counts(founds: Iterable[Collection]) -> Counter[str]:
    """How many pages were left out of the sitemap, by kind of reason."""
    counts: Counter[str] = Counter()
    for found in founds:
        for reason in found.left_out.values():
            counts[next((words for start, words in _LEFT_OUT if reason.startswith(start)),
                        reason)] += 1
    return counts


def summary_line(report: WriteReport, dated: Dating, left_out: Counter[str] | None = None) -> str:
    """E.g. ``1,204 URLs in 1 file (sitemap.xml, .gz, .html); lastmod: 1,180 git (212 by an
    included file, 9 by listed posts), 24 omitted (generated, showing nothing git can
    date)``."""
    files = len(report.files)
    shards = files - 1 if report.is_index else files
    return (f"{_count(report.url_count, 'URL')} in {_count(shards, 'file')} "
            f"({_where(report, shards)}){_lastmods(dated)}{_later(dated)}{_left_out(left_out)}")


def _where(report: WriteReport, shards: int) -> str:
    """``sitemap.xml, an index of 3 files, .gz, .html``: the file named in the summary
    and what else was written beside it."""
    where = report.files[0] if report.files else "nothing"
    if report.is_index:
        where += f", an index of {_count(shards, 'file')}"
    if report.gz_files:
        where += ", .gz"
    if report.html_files:
        where += ", .html"
    return where


def _lastmods(dated: Dating) -> str:
    """``; lastmod: 1,180 git (212 by an included file), 24 omitted (generated)``, or ''
    when no page was listed: how the pages were dated, most first."""
    parts = [f"{count:,} {source}" for source, count in dated.sources.most_common()]
    by = [f"{dated.by[what]:,} by {what}" for what in _BY if dated.by[what]]
    by += [f"{dated.by[what]:,} {what}" for what in (UNSEEN, UNEXPLAINED) if dated.by[what]]
    if by and "git" in dated.sources:
        at = [source for source, _ in dated.sources.most_common()].index("git")
        parts[at] += f" ({', '.join(by)})"
    for reason, count in dated.omitted.most_common():
        parts.append(f"{count:,} omitted ({reason})")
    return "; lastmod: " + ", ".join(parts) if parts else ""


def _later(dated: Dating) -> str:
    """``; 3 kept the last deploy's date (...)``, or '': what the rule of later deploys
    changed."""
    later = [text for text in (
        f"{dated.later['kept']:,} kept the last deploy's date (what they render is unchanged)"
        if dated.later["kept"] else "",
        f"{dated.later['redated']:,} re-dated by the commit (what they render changed, no "
        "source they show did)" if dated.later["redated"] else "") if text]
    return "; " + ", ".join(later) if later else ""

def _left_out(counts: Counter[str] | None) -> str:
    """``; 3 pages left out (2 by front matter, 1 404 page)``, or '' if none was."""
    if not counts:
        return ""
    total = sum(counts.values())
    kinds = ", ".join(f"{count:,} {kind}" for kind, count in
                      sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    return f"; {_count(total, 'page')} left out ({kinds})"
