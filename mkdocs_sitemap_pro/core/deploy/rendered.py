"""The rule of later deploys: a page keeps its date while what it renders is the same.

Git dates a page by the source it shows, which cannot tell a change a reader sees from
one they do not (a comment inside a shown function, trailing spaces, a CRLF -> LF
commit), nor see data that code of the site read. The last deploy's manifest recorded,
per listed page, the fingerprint of what it rendered and the ``<lastmod>`` it got; with
it (``previous``), each page of this build is dated by ``later_date``:

- the same fingerprint: the last deploy's date, whatever git says now (``kept``);
- another fingerprint: its date by what it shows (``changed``), unless that is not newer
  than the last deploy's, when something the plugin could not follow changed it: then
  the date of the commit being built (``redated``); never older than the truth;
- no fingerprint recorded for its URL (a page new since, or the manifest's made another
  way): its date by what it shows (``new``).

Without a previous manifest nothing of this applies. Knows no MkDocs.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, NamedTuple

from mkdocs_sitemap_pro.core.deploy.manifest import RenderedPages
from mkdocs_sitemap_pro.core.git.answers import Known
from mkdocs_sitemap_pro.core.page.shown import newer

__all__ = ["LastDeploy", "Verdict", "later_date"]

Lastmod = dt.date | dt.datetime | None
Verdict = Literal["new", "kept", "changed", "redated"]


class LastDeploy(NamedTuple):
    """What the last deploy's pages rendered (from its manifest), the commit it was
    built from, and the commit being built now with its date (None: git cannot say)."""

    rendered: RenderedPages
    commit: str
    built: Known | None


def later_date(deploy: LastDeploy, method: str, key: str, fingerprint: str,
               when: Lastmod) -> tuple[Lastmod, Verdict]:
    """The lastmod of the page ``key`` (``manifest.page_key``) whose content has
    ``fingerprint`` (made by ``method``), given ``when``, its date by what it shows."""
    recorded = deploy.rendered.pages.get(key) if deploy.rendered.method == method else None
    if recorded is None:
        return when, "new"
    before, last = recorded
    if last is None:  # it had no date then: nothing to keep
        return when, "new"
    if before == fingerprint:
        return last, "kept"
    if when is not None and newer(when, last):
        return when, "changed"
    # What it renders changed, and no source it shows did since: the commit being built.
    if deploy.built is None:
        return when, "changed"  # git cannot say when: its date by what it shows
    return deploy.built.when, "redated"
