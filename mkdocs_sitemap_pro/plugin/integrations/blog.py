"""Material's blog: a listing page (index, archive, category, author, pagination) shows posts.

Such a page is dated by the newest of the posts it shows. The blog plugin decides which
posts each page shows while it renders the page (``on_page_context``, priority -50, puts
that page's excerpts in ``context["posts"]``), so they are read there, after it: exactly
what the template shows, each pagination page by its own posts.
"""

from __future__ import annotations

import importlib
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

__all__ = ["in_use", "listed_posts"]


def in_use(config: MkDocsConfig) -> bool:
    """Whether Material's blog plugin is one of the build's plugins."""
    return any(type(p).__module__.startswith("material.plugins.blog") for p in config.plugins.values())


def listed_posts(page: Page, context: dict[str, Any]) -> list[str] | None:
    """The src_uris of the posts a blog listing page shows, or None for any other page.

    Call only while the blog plugin is ``in_use`` (checked once per build, not per page).
    """
    # Imported only now: the blog plugin is in use.
    View = importlib.import_module("material.plugins.blog.structure").View

    if not isinstance(page, View):
        return None
    posts = []
    for excerpt in context.get("posts") or []:
        post = getattr(excerpt, "post", None)
        file = getattr(post, "file", None)
        if file is not None:
            posts.append(file.src_uri)
    return posts
