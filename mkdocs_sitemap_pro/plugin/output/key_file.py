"""The IndexNow key file (option ``indexnow_key``): ``<key>.txt`` at the root of site_dir.

Under ``mike deploy`` site_dir is the version's folder, so the file lives there, beside
that version's sitemap. A file of that name that the site itself has (copied from
docs_dir, or made by another plugin) is the site's: it is never overwritten, and if it
does not hold the key, a warning says so (IndexNow could not verify the key). The file is
not a page, so it is never listed. Under ``mkdocs serve`` nothing is written: nothing is
published from there (as the manifest). A key file that cannot be written is a warning,
as every file written beside the sitemap (robots.txt, the manifest) is.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from mkdocs_sitemap_pro.core.deploy.indexnow_key import key_file_name, write_key_file
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from mkdocs_sitemap_pro.plugin.report import log

__all__ = ["write_indexnow_key"]


def write_indexnow_key(options: SitemapProConfig, config: MkDocsConfig, files: Files,
                       serving: bool) -> None:
    """Write ``<key>.txt`` into site_dir, unless the site has its own file of that name."""
    key = options.indexnow_key
    if key is None or serving:
        return
    name = key_file_name(key)
    folder = Path(config.site_dir)
    own = files.get_file_from_path(name)
    if own is not None:
        if _holds(folder / name, key):
            log.debug(f"indexnow_key: the site's own {name} holds the key")
        else:
            log.warning(
                f"indexnow_key: the site has its own {name} ({own.src_uri}), which does not "
                "hold the key; it was left as it is, so IndexNow cannot verify the key"
            )
        return
    try:
        write_key_file(folder, key)
    except OSError as error:  # a file beside the sitemap: a warning, as robots.txt's
        log.warning(f"cannot write {folder / name}: {error.strerror or error}; IndexNow "
                    "cannot verify the key")


def _holds(path: Path, key: str) -> bool:
    """Whether the file at ``path`` holds the key (surrounding white space aside)."""
    try:
        return path.read_text(encoding="utf-8-sig").strip() == key
    except (OSError, UnicodeDecodeError):
        return False
