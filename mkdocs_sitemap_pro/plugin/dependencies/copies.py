"""Copied sources, for both the plugin and ``build``: untracked page sources and
includes dated by their tracked twins (``core.git.copies``), within ``git_timeout``; a
staged page with lines added to its tracked file also by the tracked files those lines
come from (a banner, a notice), or a WARNING naming it when some come from none.

A build script may copy the docs folder into a git-ignored folder and build from there
(FastAPI's ``site_zensical_src``). Where every source is tracked (most builds), no git
process runs.

Also ``build`` on a staged copy of the docs: a WARNING when most pages still have no source
git tracks.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.core.git.copies import added_sources, adopt_derived, adopt_twins
from mkdocs_sitemap_pro.core.git.process import GitProcesses, GitTimeout, NoGit
from mkdocs_sitemap_pro.core.page.shown import Dependencies, Shown
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["Copies", "date_copies", "page_sources", "with_added", "date_staged"]


class Copies(NamedTuple):
    """What dates staged copies besides their twins: per source with lines added to its
    tracked file, the tracked files those lines come from (absolute paths); and the
    sources with an added line that no tracked file holds (dated without it, said)."""

    added: Mapping[str, frozenset[str]]
    unexplained: frozenset[str] = frozenset()

    def unexplained_pages(self, files: Files) -> frozenset[str]:
        """The src_uris of the pages whose sources are ``unexplained``."""
        return frozenset(file.src_uri for file in files.documentation_pages()
                         if file.abs_src_path in self.unexplained)


def page_sources(files: Files) -> list[str]:
    """The source files of the documentation pages (generated pages have none)."""
    return [f.abs_src_path for f in files.documentation_pages()
            if f.abs_src_path and not f.generated_by]


def date_copies(history: GitHistory, sources: Iterable[str], shown: Mapping[str, Shown],
                timeout: float) -> Copies:
    """Date the untracked ``sources`` and files pages show (``shown``) by their tracked
    twins: one ``git hash-object`` for all of them, none when all are tracked.

    Returns the tracked files the lines copies add come from, which date their pages
    too, and the copies with an added line no tracked file holds (``Copies``)."""
    sources = list(sources)
    included = (path for each in shown.values()
                for path in (*each.files, *(part for part, _ in each.parts)))
    processes = GitProcesses(timeout, notice=log.info)
    try:
        twins = adopt_twins(history, [*sources, *included], processes)
        derived = adopt_derived(history, sources, processes)  # a notice added
    except (GitTimeout, NoGit) as error:
        log.debug(f"git did not finish hashing the untracked sources ({error})")
        twins, derived = {}, {}
    finally:
        processes.close()
    for path, name in sorted(twins.items()):
        log.debug(f"'{path}' is untracked: dated by its tracked twin {os.fsdecode(name)}")
    for path, name in sorted(derived.items()):
        log.debug(f"'{path}' is untracked: dated by {os.fsdecode(name)}, whose lines it "
                  "holds with others added")
    added = added_sources(history, derived)
    top = history.top or ""
    found: dict[str, frozenset[str]] = {}
    for path, names in sorted(added.sources.items()):
        holders = ", ".join(sorted(os.fsdecode(name) for name in names))
        log.debug(f"'{path}': the lines it adds to {os.fsdecode(derived[path])} come from "
                  f"{holders}, which date it too")
        found[path] = frozenset(os.path.join(top, os.fsdecode(name)) for name in names)
    for path in added.unexplained:
        log.warning(
            f"staged page '{os.path.relpath(path, top) if top else path}' adds lines to "
            f"{os.fsdecode(derived[path])} that no tracked file holds: it is dated without "
            "them. Stage only text taken from tracked files (a banner or notice file), or "
            "build from the tracked docs folder"
        )
    return Copies(found, frozenset(added.unexplained))


def with_added(shown: Mapping[str, Shown], files: Files,
               added: Mapping[str, frozenset[str]]) -> dict[str, Shown]:
    """``shown`` (by src_uri) with each page's added-lines files (``date_copies``) among
    the files it shows."""
    merged = dict(shown)
    for file in files.documentation_pages():
        found = added.get(file.abs_src_path or "")
        if found:
            own = merged.get(file.src_uri, Shown())
            merged[file.src_uri] = own._replace(files=own.files | found)
    return merged


def date_staged(history: GitHistory, files: Files, dependencies: Dependencies | None,
                timeout: float) -> Dependencies | None:
    """Date untracked page sources and includes by their twins; then warn (once) if more
    than half of the pages are still untracked. Returns ``dependencies`` with the files
    of the lines copies add (unless ``dependencies: false``: pages by their source)."""
    sources = page_sources(files)
    copies = date_copies(history, sources,
                         dependencies.pages if dependencies is not None else {}, timeout)
    if dependencies is not None and (copies.added or copies.unexplained):
        dependencies = dependencies._replace(
            pages=with_added(dependencies.pages, files, copies.added),
            unexplained=copies.unexplained_pages(files))
    untracked = [path for path in sources if not history.tracked(path)]
    if history.top is not None and len(untracked) * 2 > len(sources):
        log.warning(
            f"{len(untracked):,} of {len(sources):,} pages are undated: their sources "
            f"(in {os.path.commonpath(untracked)}) are not tracked in the git repository "
            f"at {history.top} and are no copy of a file it tracks at HEAD (a copied or "
            "generated docs folder?); run the build from the tracked docs folder, or "
            "commit the sources"
        )
    return dependencies
