"""mike: each version's sitemap lists that version's pages, inside that version's folder.

``mike deploy`` runs ``mkdocs build`` in a subprocess with ``MIKE_DOCS_VERSION`` set and
mike's plugin rewriting ``site_url`` to ``<root>/<canonical_version or version>``. The
version's folder comes from the variable (``site_url`` names the canonical version), so
pages whose canonical link points to another version are not this version's to list.
No crawler reads a robots.txt inside a version folder, so none is written there unless
``robots_txt: true`` is set explicitly. The root index over all versions is the
``versions`` command's job (``cli/versions.py``), once mike has committed. Nothing of
mike is imported.
"""

import os
from typing import NamedTuple

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.deploy.versions import root_url
from mkdocs_sitemap_pro.plugin.pages import Collection

__all__ = ["VERSION_VARIABLE", "VersionBuild", "leave_out_other_versions", "under_mike",
           "version_build", "writes_robots"]

VERSION_VARIABLE = "MIKE_DOCS_VERSION"


class VersionBuild(NamedTuple):
    """The version ``mike deploy`` is building, and where it is published."""

    version: str
    canonical: str | None  # mike's canonical_version, if set
    folder: SiteUrl  # <root>/<version>/

    @property
    def canonical_elsewhere(self) -> bool:
        """Whether every page's canonical link points to another version's folder."""
        return self.canonical is not None and self.canonical != self.version


def under_mike(config: MkDocsConfig) -> bool:
    """Whether the build is mike's (``mike deploy``), or the site uses mike's plugin."""
    return bool(os.environ.get(VERSION_VARIABLE)) or "mike" in config.plugins


def listed_under(config: MkDocsConfig) -> SiteUrl:
    """Where the sitemap's URLs lie: the version's folder under ``mike deploy``, else
    ``site_url`` (checked already)."""
    versioned = version_build(config)
    return versioned.folder if versioned is not None else SiteUrl(config.site_url or "")


def version_build(config: MkDocsConfig) -> VersionBuild | None:
    """The version being built under ``mike deploy``, or None outside it."""
    version = os.environ.get(VERSION_VARIABLE)
    if not version or not config.site_url:
        return None
    plugin = config.plugins.get("mike")
    canonical = getattr(plugin, "config", {}).get("canonical_version") if plugin else None
    root = root_url(config.site_url, canonical or version)
    return VersionBuild(version, canonical or None, SiteUrl(root.join(version) + "/"))


def leave_out_other_versions(found: Collection, build: VersionBuild) -> None:
    """Move pages whose URL lies outside this version's folder to the left-out."""
    kept = []
    for page in found.pages:
        if page.url.startswith(build.folder.url):
            kept.append(page)
        else:
            found.left_out[page.src_uri] = (
                f"canonical link points to another version ({page.url}; "
                f"canonical_version: {build.canonical})"
            )
    found.pages = kept


def writes_robots(option: bool | None, build: VersionBuild | None) -> bool:
    """robots.txt: as set; unset, everywhere but inside a version folder under mike."""
    return option if option is not None else build is None
