"""``validate: true``: the checker run on the sitemap the build just wrote.

The same rules as ``mkdocs-sitemap-pro check`` (from the written entry file, with the
site's pages on disk), each finding a warning, so ``mkdocs build --strict`` fails on
any. Listed URLs that robots.txt disallows are left to the build's own one warning.
Built pages left out of the sitemap are not counted here: the plugin left them
out on purpose (``exclude``, ``sitemap: false``, drafts), and says why at DEBUG level.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs_sitemap_pro.core.check import CheckError, CheckOptions, check
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.core.words import counted

__all__ = ["check_written"]


def check_written(site_dir: Path, site_url: str, filename: str) -> None:
    """Check ``site_dir/filename`` as published at ``site_url``; warn about each finding."""
    options = CheckOptions(site_url=site_url, count_unlisted=False)
    try:
        report = check(str(site_dir / filename), options)
    except CheckError as error:
        log.warning(f"validate: the written sitemap could not be checked: {error}")
        return
    for finding in report.shown():
        if finding.rule == "loc-disallowed":
            continue  # the build has said it, in one warning (pipeline)
        log.warning(f"validate: {finding.file}: {finding.message} [{finding.rule}]")
    log.debug(f"validate: {counted(len(report.files), 'sitemap file')}, "
              f"{counted(report.url_count, 'URL')} checked")
