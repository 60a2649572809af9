"""The rule between robots.txt and the sitemap: no listed URL is one that robots.txt
keeps every crawler from (``User-agent: *``), which search engines report as an error.

Read by the rules of ``core.robots_rules``, the ones the build warns by; only URLs on
the host whose robots.txt it is are judged (another host's URL is ``loc-site``'s), and
the work spent on an untrusted robots.txt is bounded.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.tree_rules import ListedUrls
from mkdocs_sitemap_pro.core.robots_rules import RobotsRules, host_robots_url

__all__ = ["MAX_STEPS", "check_crawlable"]

#: Look-ups and matches spent on one tree at most (a few seconds): what a hostile
#: robots.txt of thousands of ``/*…`` rules against 50,000 URLs would cost is bounded.
MAX_STEPS = 5_000_000


def _host(url: str) -> str:
    parts = urlsplit(host_robots_url(url))
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def check_crawlable(urls: ListedUrls, robots_url: str, shown: str, text: str,
                    found: Findings) -> None:
    """One ``loc-disallowed`` error for each listed URL the robots.txt at ``robots_url``
    (its ``text``; ``shown``: how a message names it) disallows for every crawler."""
    rules = RobotsRules.parse(text)
    if not rules.rules:
        return
    host = _host(robots_url)
    for judged, (loc, places) in enumerate(urls.items()):
        if rules.steps > MAX_STEPS:  # a robots.txt made to be slow to match
            found.warning("not-checked", shown,
                          f"{len(rules.rules):,} rules for every crawler: stopped comparing "
                          f"them with the sitemap after {judged:,} of {len(urls):,} URLs")
            return
        try:
            if _host(loc) != host:
                continue
        except ValueError:  # not a URL at all: the loc rules say so
            continue
        rule = rules.disallowing(loc)
        if rule is not None:
            found.error("loc-disallowed", places[0][0].shown,
                        f"{loc} is listed, but {shown} keeps every crawler from it ({rule}), "
                        "which search engines report as an error: leave it out of the "
                        "sitemap, or allow it in robots.txt", url=loc)
