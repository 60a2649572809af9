"""What the plugin uses of MkDocs that MkDocs does not document: the plugin collection's
list of handlers for each event.

MkDocs offers no public way to ask which handlers an event will call, nor to wrap one:
the plugin needs both (which other ``on_post_build`` handlers may replace a page's HTML;
the site's own ``on_page_markdown``/``on_page_content`` handlers, watched for
rewriting pages). Both are read here and nowhere else, from ``PluginCollection.events``
(event name, without ``on_`` -> its handlers, in call order) and ``_event_origins``
(handler -> the plugin's name, for MkDocs' DEBUG messages). Checked against MkDocs 1.6.1
and ProperDocs 1.6.7 (its fork, the same attributes); a collection without them (another
builder's) has no handler to tell of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["event_handlers", "replace_handler"]


def event_handlers(plugins: Any, event: str) -> list[Callable[..., Any]]:
    """The handlers MkDocs calls for ``event`` (``post_build``), in order. The list is
    MkDocs' own: change it only through ``replace_handler``."""
    events = getattr(plugins, "events", None)
    handlers = events.get(event) if isinstance(events, dict) else None
    return handlers if isinstance(handlers, list) else []


def replace_handler(plugins: Any, event: str, at: int, handler: Callable[..., Any]) -> None:
    """Call ``handler`` instead of the ``at``-th handler of ``event``, named in MkDocs'
    messages as the one it replaces."""
    handlers = event_handlers(plugins, event)
    replaced, handlers[at] = handlers[at], handler
    origins = getattr(plugins, "_event_origins", None)
    if isinstance(origins, dict) and replaced in origins:
        origins[handler] = origins[replaced]
