"""Copied sources, for both the plugin and ``build``: untracked page sources and
includes dated by their tracked twins (``core.git.twins``), within ``git_timeout``.

A build script may copy the docs folder into a git-ignored folder and build from there
(FastAPI's ``site_zensical_src``). Where every source is tracked (most builds), no git
process runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.core.git.process import GitProcesses, GitTimeout, NoGit
from mkdocs_sitemap_pro.core.git.derived import adopt_derived
from mkdocs_sitemap_pro.core.git.twins import adopt_twins
from mkdocs_sitemap_pro.core.page.shown import Shown
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["date_copies", "page_sources"]


def page_sources(files: Files) -> list[str]:
    """The source files of the documentation pages (generated pages have none)."""
    return [f.abs_src_path for f in files.documentation_pages()
            if f.abs_src_path and not f.generated_by]


def date_copies(history: GitHistory, sources: Iterable[str], shown: Mapping[str, Shown],
                timeout: float) -> None:
    """Date the untracked ``sources`` and files pages show (``shown``) by their tracked
    twins: one ``git hash-object`` for all of them, none when all are tracked."""
    sources = list(sources)
    included = (path for each in shown.values()
                for path in (*each.files, *(part for part, _ in each.parts)))
    processes = GitProcesses(timeout)
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
