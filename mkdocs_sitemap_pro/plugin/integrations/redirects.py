"""mkdocs-redirects: pages it replaces with redirect stubs are not listed.

It writes each stub in its own ``on_post_build``, which may run before or after ours, so
the HTML on disk cannot be relied on; its ``redirect_maps`` says which pages become stubs.
"""

from __future__ import annotations

from collections.abc import Mapping

from mkdocs.config.defaults import MkDocsConfig

_PLUGIN = "redirects"


def redirected_pages(config: MkDocsConfig) -> frozenset[str]:
    """The source paths (relative to docs_dir) that mkdocs-redirects turns into stubs."""
    plugin = config.plugins.get(_PLUGIN)
    if plugin is None:
        return frozenset()
    maps = getattr(plugin, "config", {}).get("redirect_maps") or {}
    if not isinstance(maps, Mapping):
        return frozenset()
    return frozenset(str(source).replace("\\", "/") for source in maps)
