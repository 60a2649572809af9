"""Where ``build`` keeps its cache by default: somewhere a build script does not delete.

The plugin's ``cache_dir`` default is relative to the config file's folder. A build
script that stages the docs (FastAPI's copies them with a generated config into a
git-ignored ``site_zensical_src/<lang>/`` and deletes that folder every run) would then
lose the cache on every run. So when the config file is not tracked by git, ``build``'s
default cache is the repository root's ``.cache/plugin/sitemap-pro`` (a folder most
repositories ignore, and no script rebuilds); a tracked config keeps its cache beside it,
as the plugin does, and an explicit ``cache_dir`` is kept as given.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mkdocs_sitemap_pro.core.git.process import GitProcesses, GitTimeout, NoGit, run_git
from mkdocs_sitemap_pro.plugin.report import log
from mkdocs_sitemap_pro.plugin.standalone.config import PLUGIN, Replaced, SiteConfig

__all__ = ["ROOT_CACHE", "place_cache", "untracked_config_cache"]

ROOT_CACHE = ".cache/plugin/sitemap-pro"  # at the repository root, as the plugin's default


def place_cache(site: SiteConfig, replaced: Replaced | None) -> None:
    """Give ``site`` the repository root's cache folder when its config file is
    untracked and ``cache_dir`` was not set (in the file's entry or by ``replaced``)."""
    entry = site.plugin_options.get(PLUGIN)
    given = (isinstance(entry, Mapping) and "cache_dir" in entry) or (
        replaced is not None and "cache_dir" in replaced.options)
    if given or not site.options.cache or not site.mkdocs.config_file_path:
        return
    config_file = Path(site.mkdocs.config_file_path)
    folder = untracked_config_cache(config_file, site.options.git_timeout)
    if folder is not None:
        site.options.cache_dir = str(folder)
        log.debug(f"cache in {folder}: git does not track {config_file.name} (a staged "
                  "or generated config, whose folder a build script may delete)")


def untracked_config_cache(config_file: Path, timeout: float) -> Path | None:
    """The repository root's cache folder when ``config_file`` lies in a git work tree
    and git does not track it; None otherwise (the default beside the config stands)."""
    folder = config_file.parent
    processes = GitProcesses(timeout, notice=log.info)
    try:
        status, out, _ = run_git(["rev-parse", "--show-toplevel"], folder,
                                 processes=processes)
        if status != 0:
            return None  # no repository: nothing dates by git, the default is as good
        tracked, _, _ = run_git(["ls-files", "--error-unmatch", "--", config_file.name],
                                folder, processes=processes)
    except (GitTimeout, NoGit):
        return None
    finally:
        processes.close()
    top = out.decode("utf-8", "surrogateescape").strip()
    if tracked == 0 or not (os.path.isabs(top) and os.path.isdir(top)):
        return None  # tracked, or not git's answer (the history's warning says so)
    return Path(top) / ROOT_CACHE
