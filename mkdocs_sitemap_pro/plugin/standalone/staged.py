"""``build`` on a staged copy of the docs: copies dated by their tracked twins, and a
WARNING when most pages still have no source git tracks.

A build script may copy the docs folder into a git-ignored folder and build from there
(FastAPI's ``site_zensical_src``). ``core.git.twins`` dates each copy by the tracked file
it is a byte copy of; what is left untracked is said once per build, because a sitemap
whose pages are mostly undated is rarely what the user meant.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.git import GitHistory
from mkdocs_sitemap_pro.core.git.process import GitProcesses, GitTimeout, NoGit
from mkdocs_sitemap_pro.core.git.twins import adopt_twins
from mkdocs_sitemap_pro.core.shown import Dependencies
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["date_copies"]


def date_copies(history: GitHistory, files: Files, dependencies: Dependencies | None,
                timeout: float) -> None:
    """Date untracked page sources and includes by their tracked twins (one
    ``hash-object`` for all of them, none when all are tracked); then warn if more than
    half of the pages are still untracked."""
    sources = [f.abs_src_path for f in files.documentation_pages()
               if f.abs_src_path and not f.generated_by]
    processes = GitProcesses(timeout)
    processes.arm()
    try:
        twins = adopt_twins(history, [*sources, *_shown(dependencies)], processes)
    except (GitTimeout, NoGit) as error:
        log.debug(f"git did not finish hashing the untracked sources ({error})")
        twins = {}
    finally:
        processes.disarm()
        processes.close()
    for path, name in sorted(twins.items()):
        log.debug(f"'{path}' is untracked: dated by its tracked twin {os.fsdecode(name)}")
    untracked = [path for path in sources if not history.tracked(path)]
    if history.top is not None and len(untracked) * 2 > len(sources):
        folder = os.path.commonpath(untracked) if untracked else ""
        log.warning(
            f"{len(untracked):,} of {len(sources):,} pages are undated: their sources "
            f"(in {folder}) are not tracked in the git repository at {history.top} and "
            "are no copy of a file it tracks at HEAD (a copied or generated docs folder?); "
            "run the build from the tracked docs folder, or commit the sources"
        )


def _shown(dependencies: Dependencies | None) -> Iterable[str]:
    """The files pages include (whole or in part)."""
    if dependencies is None:
        return ()
    return (path for shown in dependencies.pages.values()
            for path in (*shown.files, *(part for part, _ in shown.parts)))
