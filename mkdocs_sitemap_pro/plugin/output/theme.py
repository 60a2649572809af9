"""What the theme does with sitemaps: its own template (never rendered) and Material's
instant navigation, which reads ``sitemap.xml`` as a list of pages."""

from __future__ import annotations

from pathlib import Path

import mkdocs
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.plugin.report import log

_TEMPLATE = "sitemap.xml"
# Material for MkDocs and MaterialX (mkdocs-materialx, a maintained fork of Material 9.7):
# the same page templates' variables and the same instant navigation.
_MATERIAL_LIKE = frozenset({"material", "materialx"})
_MKDOCS_TEMPLATES = Path(mkdocs.__file__).resolve().parent / "templates"


def drop_theme_sitemap(config: MkDocsConfig, files: Files) -> None:
    """Never render the theme's ``sitemap.xml``: it would stamp every page with the build
    date. A template of the theme's or ``custom_dir``'s own (not MkDocs' built-in one)
    is named in one INFO line, so its author knows why it does not appear."""
    theme = config.theme
    # A second build with the same config (static-i18n's language builds) no longer has
    # the template among the static templates, so MkDocs would copy it out unrendered.
    copied = files.get_file_from_path(_TEMPLATE)
    if copied is not None and _in_theme(copied.abs_src_path, theme.dirs):
        files.remove(copied)
    if _TEMPLATE not in theme.static_templates:
        return
    theme.static_templates.discard(_TEMPLATE)
    for folder in theme.dirs:
        template = Path(folder) / _TEMPLATE
        if template.is_file():
            # MkDocs' own folder is usually named as it is: resolved only if not.
            parent = template.parent
            if parent != _MKDOCS_TEMPLATES and template.resolve().parent != _MKDOCS_TEMPLATES:
                log.info(
                    f"the theme's own template {template} was not rendered: sitemap-pro "
                    "writes the sitemap instead"
                )
            return


def _in_theme(path: str | None, dirs: list[str]) -> bool:
    """Whether a file comes from one of the theme's folders (not from docs_dir)."""
    if path is None:
        return False
    folder = Path(path).resolve().parent
    return any(folder == Path(d).resolve() for d in dirs)


def material_like(config: MkDocsConfig) -> bool:
    """Whether the theme is Material for MkDocs or a fork that works as it does
    (MaterialX): the one rule for ``show_date`` and the instant-navigation advice."""
    return config.theme.name in _MATERIAL_LIKE


def warn_about_instant_navigation(config: MkDocsConfig, filename: str, is_index: bool) -> None:
    """Material's instant navigation reads sitemap.xml as a urlset: say what breaks."""
    theme = config.theme
    features = theme.get("features") or []
    if not material_like(config) or "navigation.instant" not in features:
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
