"""``versions --rebuild VERSION…`` and ``--rebuild-all-stale``: arguments and messages.

The work is ``plugin.standalone.rebuild``; ``versions`` decides which versions are stale
(the ones it would leave out) and commits what this returns with the root index.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mkdocs_sitemap_pro.core.git.commit import Branch
from mkdocs_sitemap_pro.core.deploy.versions import Version
from mkdocs_sitemap_pro.core.words import printable
from mkdocs_sitemap_pro.plugin.standalone.rebuild import (
    FALLBACK_CONFIGS,
    RebuildFailed,
    Target,
    rebuild_version,
)
from mkdocs_sitemap_pro.plugin.standalone.run import console_log

__all__ = ["RebuildFailed", "add_options", "asked_versions", "rebuild"]

_NAME = "mkdocs-sitemap-pro versions"  # what each line of the command starts with


def add_options(sub: Any) -> None:
    """Add ``--rebuild`` and ``--rebuild-all-stale`` to the ``versions`` subcommand."""
    sub.add_argument(
        "--rebuild", nargs="+", default=[], metavar="VERSION",
        help="write the sitemap of these versions from their built pages on the branch, "
             "dated by the commit each was deployed from, and commit it with the index",
    )
    sub.add_argument(
        "--rebuild-all-stale", action="store_true",
        help="rebuild every version whose sitemap is missing, empty, invalid or lists "
             "URLs outside its folder (instead of leaving it out)",
    )


def asked_versions(asked: list[str], versions: list[Version], branch: str) -> list[str]:
    """The versions named by ``--rebuild``, each once; ``RebuildFailed`` for a name that
    versions.json does not list as a version."""
    names = [version.name for version in versions]
    for name in asked:
        if name in names:
            continue
        real = [v.name for v in versions if name in v.aliases]
        if real:
            raise RebuildFailed(f"--rebuild {name}: {name} is an alias of version {real[0]}; "
                                f"rebuild {real[0]}")
        raise RebuildFailed(f"--rebuild {name}: versions.json on {branch} lists no version "
                            f"{name} (its versions: {', '.join(names)})")
    return list(dict.fromkeys(asked))


def rebuild(branch: Branch, folder: str, version: str, url: str, config_file: Path,
            filename: str, explained: set[str] | None = None) -> dict[str, bytes]:
    """The rebuilt sitemap files of one version, by their path on the branch. ``explained``:
    what this run said already (a fallback config is explained once)."""
    config_file = config_file.resolve()
    try:
        config = config_file.relative_to(branch.repo).as_posix()
    except ValueError:
        raise RebuildFailed(f"{config_file} is not inside the repository {branch.repo}") from None
    print(printable(f"{_NAME}: rebuilding the sitemap of version {version} from "
                    f"{branch.name}:{folder}/"), file=sys.stderr)
    with console_log():
        rebuilt = rebuild_version(Target(branch, folder, version, url, config, config_file,
                                        filename))
    how = f"dated by commit {rebuilt.dated_by[:12]}" if rebuilt.dated_by else "undated"
    if rebuilt.config is not None and rebuilt.config != config:
        how += f" with its {rebuilt.config}"
        if explained is not None and config not in explained:
            explained.add(config)
            print(printable(f"{_NAME}: {config} is not in every commit the versions were "
                            f"deployed from: "
                            f"a commit without it is rebuilt with its own "
                            f"{' or '.join(FALLBACK_CONFIGS)} (the version's line says which)"),
                  file=sys.stderr)
    print(printable(f"{_NAME}: rebuilt the sitemap of version {version} ({how}): "
                    f"{', '.join(rebuilt.files) or 'nothing written'}"), file=sys.stderr)
    return {f"{folder}/{path}": data for path, data in rebuilt.files.items()}
