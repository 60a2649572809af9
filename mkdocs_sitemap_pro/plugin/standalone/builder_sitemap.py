"""The builder's own sitemap: replaced only by one at least as complete.

Zensical writes ``sitemap.xml`` listing every page it built, undated. ``build`` replaces
it; but a run that would list fewer of those pages for a reason that is not one of the
plugin's rules (a site_url, use_directory_urls or docs_dir other than the build's, a
site_dir that is not the site's, a version folder that does not match) would leave the
site worse off than the builder did. So the builder's URLs are read before anything is
written; if one that belongs in this sitemap (inside its folder) is neither listed nor
left out by a rule (404, drafts, noindex, ``sitemap: false``, ``exclude``, a canonical
elsewhere, a fallback copy), or if nothing at all can be listed, the run stops before
writing, the builder's files stay as they were, and the message says what to check.
Before any of that, a site_url (under mike: a version) under which none of the builder's
URLs lies is a config error (``located``): the tree is another site's or version's.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.reader import SitemapReadError, read_sitemap
from mkdocs_sitemap_pro.core.urls import SiteUrl, normalise_loc
from mkdocs_sitemap_pro.core.writer import WriteReport
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.core.words import counted
from mkdocs_sitemap_pro.plugin.integrations.mike import VERSION_VARIABLE
from mkdocs_sitemap_pro.plugin.standalone.config import ConfigError

if TYPE_CHECKING:
    from mkdocs_sitemap_pro.plugin.pipeline import SitemapPart

__all__ = ["BuilderSitemap", "Incomplete"]

# What a builder writes of its own; ours replaces it.
NAMES = ("sitemap.xml", "sitemap.xml.gz")
_SHOWN = 3  # URLs named in a message


class Incomplete(Exception):
    """Ours would list less than the builder's sitemap: nothing was written."""


@dataclass(frozen=True)
class BuilderSitemap:
    """The sitemap found in site_dir before the run, and the URLs it lists."""

    site_dir: Path
    locs: frozenset[str]  # normalised; empty when there is none (or it is not a urlset)

    @classmethod
    def read(cls, site_dir: Path) -> BuilderSitemap:
        """The URLs of ``site_dir/sitemap.xml`` (a previous run's index: of its files)."""
        return cls(site_dir, frozenset(normalise_loc(loc) for loc in _locs(site_dir)))

    def located(self, site_url: SiteUrl) -> None:
        """Raise ``ConfigError`` when the builder's sitemap lists URLs and none lies under
        ``site_url`` (the builder's, under mike the version's): this run would date
        another site or version than the one in site_dir."""
        under = normalise_loc(site_url.url)
        if not self.locs or any(loc.startswith(under) for loc in self.locs):
            return
        version = os.environ.get(VERSION_VARIABLE)
        version_note = f" ({VERSION_VARIABLE}={version})" if version else f" ({VERSION_VARIABLE} unset)"
        raise ConfigError(
            f"site_url {site_url.url}{version_note} matches none of the "
            f"{counted(len(self.locs), 'URL')} of the sitemap in {self.site_dir}, which "
            f"lists {_held(self.locs)}: that folder holds another site or version than "
            "the one this run dates. Nothing was written and every file was left as it "
            f"was. Run with the config (-f), site_url and {VERSION_VARIABLE} the site was "
            "built with, or name the folder it was built into with --site-dir"
        )

    def check_before_write(self, site: SiteUrl, entries: Sequence[SitemapEntry], parts: Sequence[SitemapPart]) -> None:
        """Raise ``Incomplete`` unless ``entries`` cover the builder's URLs in ``site``."""
        inside = {loc for loc in self.locs if loc.startswith(normalise_loc(site.url))}
        if not inside:
            return  # nothing to lose (or the builder's URLs lie outside this folder)
        listed = {normalise_loc(entry.loc) for entry in entries}
        kept = (f"the files there ({', '.join(n for n in NAMES if (self.site_dir / n).exists())})"
                " were left as they were")
        if not listed:
            raise Incomplete(
                f"no page of {self.site_dir} can be listed ({_reasons(parts)}), while the "
                f"sitemap there lists {counted(len(inside), 'URL')}; nothing was written and {kept}. "
                "Check that the config (-f), its site_url, --site-dir and the environment "
                "(MIKE_DOCS_VERSION under mike) are those the site was built with, or set "
                "sitemap-pro's 'enabled: false' to keep the builder's sitemap"
            )
        missing = sorted(inside - listed - _left_out(parts))
        if missing:
            shown = ", ".join(missing[:_SHOWN]) + (", ..." if len(missing) > _SHOWN else "")
            raise Incomplete(
                f"{counted(len(missing), 'URL')} of the sitemap in {self.site_dir} "
                f"{'is' if len(missing) == 1 else 'are'} no page this "
                f"run knows ({shown}); nothing was written and {kept}. Check that "
                "site_url, use_directory_urls and docs_dir are those the site was built "
                "with, and that --site-dir is the folder it was built into"
            )

    def drop(self, files: Files, written: WriteReport | None) -> None:
        """Remove the builder's own sitemap.xml(.gz) where ours did not replace it.

        A copy of a file in docs_dir is the user's and stays.
        """
        ours = set(written.files + written.gz_files) if written else set()
        users = {file.dest_uri for file in files if not file.is_documentation_page()}
        for name in NAMES:
            path = self.site_dir / name
            if name not in ours and name not in users and path.is_file():
                path.unlink()
                log.debug(f"removed the builder's own {name}")


def _locs(site_dir: Path) -> list[str]:
    """The ``<loc>``s of the sitemap at site_dir's root; of an index, of its files there."""
    try:
        found = read_sitemap(site_dir / NAMES[0])
    except (OSError, SitemapReadError):
        return []
    if not found.is_index:
        return [entry.loc for entry in found.entries]
    locs: list[str] = []
    for child in found.entries:
        name = child.loc.rsplit("/", 1)[-1]
        try:
            part = read_sitemap(site_dir / name) if "/" not in name and name else None
        except (OSError, SitemapReadError):
            continue
        if part is not None and not part.is_index:
            locs.extend(entry.loc for entry in part.entries)
    return locs


def _held(locs: frozenset[str]) -> str:
    """What a sitemap's URLs have in common: the folder they all lie under, or one."""
    folder = os.path.commonprefix(sorted(locs)).rpartition("/")[0] + "/"
    if folder.count("/") < 3:  # no common host
        return f"URLs such as {min(locs)}"
    return f"URLs under {folder}"


def _left_out(parts: Sequence[SitemapPart]) -> set[str]:
    """The URLs of the pages a rule of the plugin leaves out, normalised."""
    urls = set()
    for part in parts:
        for src_uri in part.found.left_out:
            file = part.files.get_file_from_path(src_uri)
            if file is not None and file.page is not None:
                urls.add(normalise_loc(file.page.canonical_url or file.url))
    return urls


def _reasons(parts: Sequence[SitemapPart]) -> str:
    """How many pages were left out, and the most common reasons why."""
    reasons = Counter(reason for part in parts for reason in part.found.left_out.values())
    if not reasons:
        return "no page of docs_dir has HTML there"
    counts = "; ".join(f"{count}: {reason}" for reason, count in reasons.most_common(_SHOWN))
    return f"{sum(reasons.values())} pages left out: {counts}"
