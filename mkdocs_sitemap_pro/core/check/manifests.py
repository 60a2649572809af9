"""The manifest beside an entry sitemap (``sitemap.manifest.json``): known, and checked.

mkdocs-sitemap-pro publishes one beside each entry sitemap for the next deploy to carry
dates from (``core.deploy.manifest``); a later build in a shallow clone reads it back. It is not
a page and is never listed; one that a build could not read back is an error. It names
(hashed) the built pages the plugin left out of the sitemap on purpose, which are then
not counted as unlisted.
"""

from __future__ import annotations

from collections.abc import Iterable

from mkdocs_sitemap_pro.core.check.findings import Findings
from mkdocs_sitemap_pro.core.check.sources import FetchError, Source
from mkdocs_sitemap_pro.core.deploy.manifest import MAX_BYTES, ManifestError, manifest_name, parse_manifest

__all__ = ["check_manifests"]


def check_manifests(entries: Iterable[str], source: Source,
                    found: Findings) -> list[tuple[str, frozenset[str]]]:
    """Read the manifest beside each entry sitemap URL, where there is one: for each
    read, its folder's URL and the keys of the pages it says were left out on purpose.
    One that does not parse is a ``manifest-invalid`` error."""
    read: list[tuple[str, frozenset[str]]] = []
    for url in entries:
        folder, _, name = url.rpartition("/")
        if not name.endswith(".xml"):
            continue
        manifest = f"{folder}/{manifest_name(name)}"
        try:
            data = source.read(manifest, MAX_BYTES)
        except FetchError:
            continue  # unreadable: nothing to say about what it holds
        if data is None:
            continue
        try:
            read.append((folder + "/", parse_manifest(data).left_out))
        except ManifestError as error:
            found.error("manifest-invalid", source.display(manifest),
                        f"the manifest cannot be read back by a later build: {error}")
    return read
