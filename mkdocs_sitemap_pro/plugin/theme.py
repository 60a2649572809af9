"""What the theme does with sitemaps: its own template (never rendered) and Material's
instant navigation, which reads ``sitemap.xml`` as a list of pages."""

from __future__ import annotations

from pathlib import Path

import mkdocs
from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.plugin.report import log

_TEMPLATE = "sitemap.xml"
_MKDOCS_TEMPLATES = Path(mkdocs.__file__).resolve().parent / "templates"


def drop_theme_sitemap(config: MkDocsConfig) -> None:
    """Never render the theme's ``sitemap.xml``: it would stamp every page with the build
    date. A template of the theme's or ``custom_dir``'s own (not MkDocs' built-in one)
    is named in one INFO line, so its author knows why it does not appear."""
    theme = config.theme
    if _TEMPLATE not in theme.static_templates:
        return
    theme.static_templates.discard(_TEMPLATE)
    for folder in theme.dirs:
        template = Path(folder) / _TEMPLATE
        if template.is_file():
            if template.resolve().parent != _MKDOCS_TEMPLATES:
                log.info(
                    f"the theme's own template {template} was not rendered: sitemap-pro "
                    "writes the sitemap instead"
                )
            return


def warn_about_instant_navigation(config: MkDocsConfig, filename: str, is_index: bool) -> None:
    """Material's instant navigation reads sitemap.xml as a urlset: say what breaks."""
    theme = config.theme
    features = theme.get("features") or []
    if theme.name != "material" or "navigation.instant" not in features:
        return
    if filename != _TEMPLATE:
        log.warning(
            f"filename is {filename!r}, but Material for MkDocs' navigation.instant reads "
            "sitemap.xml: instant navigation will treat every link as external"
        )
    elif is_index:
        log.warning(
            "sitemap.xml is a sitemap index (the site needs more than one file, or "
            "index: always), but Material for MkDocs' navigation.instant reads it as a "
            "list of pages: instant navigation will treat every link as external"
        )
