"""pymdownx.snippets: the files ``auto_append`` adds to every page, which date no page.

A file appended to every page is part of the site rather than of one page; counting it
would re-date the whole site at each edit of, say, a glossary. The paths are resolved by
the extension's own code (``parse_snippet_target`` strips ``:1:3`` and ``:section``,
``get_snippet_path`` searches ``base_path`` as it does, relative to the working folder),
so they are exactly the files it reads.
"""

from __future__ import annotations

import importlib
import os
import re
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

__all__ = ["auto_appended_files"]

_EXTENSION = "pymdownx.snippets"
_SUFFIX = re.compile(r":(?:-?\d*(?::-?\d*)?(?:,-?\d*(?::-?\d*)?)*|[-\w]+)$")


def auto_appended_files(config: MkDocsConfig) -> set[str]:
    """The absolute paths of the ``auto_append`` files that exist (none if unused)."""
    if _EXTENSION not in config.markdown_extensions:
        return set()
    options: dict[str, Any] = dict(config.mdx_configs.get(_EXTENSION) or {})
    entries = options.get("auto_append") or []
    if not entries:
        return set()
    markdown = importlib.import_module("markdown")  # MkDocs' own; the extension is in use

    try:
        md = markdown.Markdown(extensions=[_EXTENSION], extension_configs={_EXTENSION: options})
        processor: Any = md.preprocessors["snippet"]
    except Exception:  # noqa: BLE001 - MkDocs reports a broken extension config itself
        return set()
    found = set()
    for entry in entries:
        parse = getattr(processor, "parse_snippet_target", None)
        if parse is not None:
            target = parse(entry)
            name = target["path"] if target else None
        else:  # older releases: strip a line range or section by hand
            name = _SUFFIX.sub("", entry.strip())
        path = processor.get_snippet_path(name) if name else None
        if path:
            found.add(os.path.abspath(path))
    return found
