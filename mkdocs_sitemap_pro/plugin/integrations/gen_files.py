"""mkdocs-gen-files: a generated page is dated by its edit path too.

A gen-files script writes pages into a temporary folder (``File.generated_by`` is
``mkdocs-gen-files``): their source has no history, so such a page is dated by what it
renders (mkdocstrings' objects, includes) and, when it renders no API object and the
script called ``set_edit_path``, by the file that path names (a page whose ``:::``
block renders objects is dated by their lines, as a written page is: the edit path is a
link, not something shown), when it is a file of the project: the path is taken
relative to docs_dir, as gen-files' own docs write it (``../src/pkg/mod.py``), else
relative to the project folder (the older recipe's ``src/pkg/mod.py``). gen-files keeps
the edit paths in its plugin instance's private ``_edit_paths`` (by src_uri, made in its
``on_files``) and drops each one in its ``on_page_content``: it is read at the page's
``on_pre_page``.
"""

from __future__ import annotations

import os

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["EditPaths"]

_PLUGIN = "gen-files"
GENERATED_BY = "mkdocs-gen-files"


class EditPaths:
    """The file each gen-files page names as its edit path, resolved on disk."""

    def __init__(self, config: MkDocsConfig, project: str) -> None:
        self._plugin = config.plugins.get(_PLUGIN)
        self._roots = (os.path.abspath(config.docs_dir), project)

    def source_of(self, file: File) -> str | None:
        """The project file a generated page's edit path names, if it is one."""
        if self._plugin is None or file.generated_by != GENERATED_BY:
            return None
        paths = getattr(self._plugin, "_edit_paths", None)  # private to gen-files (0.5, 0.6)
        if not isinstance(paths, dict):
            log.debug("mkdocs-gen-files keeps no '_edit_paths': its pages are dated by "
                      "what they render only")
            self._plugin = None
            return None
        edit = paths.get(file.src_uri)
        if isinstance(edit, os.PathLike):
            edit = os.fspath(edit)
        if not isinstance(edit, str) or not edit or "://" in edit:
            return None
        for root in self._roots:
            path = os.path.normpath(os.path.join(root, edit.replace("\\", "/")))
            if os.path.isfile(path):
                return path
        return None
