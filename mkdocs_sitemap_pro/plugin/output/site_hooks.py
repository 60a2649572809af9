"""The site's own code shapes the entries: ``sitemap_entries(entries, config)`` in a
``hooks:`` module.

A site adds a URL it does not build, drops a section, or changes a value in its own
Python, where MkDocs keeps a site's code. The function has no ``on_`` prefix because
MkDocs refuses event names it does not know. It gets the list of ``SitemapEntry`` just
before the write and returns the list to write. Its output is someone else's code's: a
failure of it is a WARNING naming the hooks module (so ``--strict`` fails), never a
broken file. An exception, or a value that is not a list: the entries as they were
before it. A list holding bad entries: those are left out, the rest is written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from types import ModuleType

from mkdocs.config.defaults import MkDocsConfig

from mkdocs_sitemap_pro.core.entry import SitemapEntry
from mkdocs_sitemap_pro.core.urls import SiteUrl
from mkdocs_sitemap_pro.core.words import counted
from mkdocs_sitemap_pro.core.writer.items import entry_problem
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["HOOK", "shape_entries"]

#: The name of the function a ``hooks:`` module defines to shape the entries.
HOOK = "sitemap_entries"

# A warning names this many bad entries, then says how many more.
_NAMED = 3


def shape_entries(
    config: MkDocsConfig, entries: list[SitemapEntry], site: SiteUrl, build_time: dt.datetime
) -> list[SitemapEntry]:
    """``entries`` as every ``hooks:`` module's ``sitemap_entries`` leaves them, in the
    order of ``hooks:``; ``entries`` itself when no module has one."""
    for name, module in _hook_modules(config):
        function = getattr(module, HOOK, None)
        if function is None:
            continue
        where = f"hooks module {name}: {HOOK}"
        if not callable(function):
            log.warning(f"{where} is not a function; the sitemap's entries are left as they were")
            continue
        try:
            result = function(list(entries), config)
        except Exception as error:  # noqa: BLE001 - the site's code: reported, never fatal
            log.warning(f"{where} raised {type(error).__name__}: {error}; the sitemap's "
                        "entries are written as they were before it")
            continue
        if not isinstance(result, list):
            log.warning(f"{where} returned {type(result).__name__}, not a list of "
                        "SitemapEntry; the sitemap's entries are written as they were before it")
            continue
        entries = _kept(where, result, site, build_time)
    return entries


def _hook_modules(config: MkDocsConfig) -> Sequence[tuple[str, ModuleType]]:
    """The modules MkDocs loaded from ``hooks:`` (name as written -> module), each once.
    A config read as data (the standalone ``build``) loads none."""
    hooks = config.get("hooks") or {}
    return [(name, module) for name, module in hooks.items() if isinstance(module, ModuleType)]


def _kept(
    where: str, result: list[object], site: SiteUrl, build_time: dt.datetime
) -> list[SitemapEntry]:
    """The valid entries of a hook's result; one WARNING naming the bad ones."""
    kept: list[SitemapEntry] = []
    problems: list[str] = []
    for item in result:
        problem = entry_problem(item, site, build_time)
        if problem is None:
            assert isinstance(item, SitemapEntry)
            kept.append(item)
        else:
            problems.append(problem)
    if problems:
        named = "; ".join(problems[:_NAMED])
        more = f"; and {len(problems) - _NAMED:,} more" if len(problems) > _NAMED else ""
        log.warning(f"{where} returned {counted(len(problems), 'invalid entry', 'invalid entries')}, "
                    f"left out of the sitemap: {named}{more}")
    return kept
