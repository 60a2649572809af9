"""The files a page's text may make the tool open: those inside given folders (``build``:
the repository) or given files (the plugin: what the rendering itself read).

A page's source is untrusted input: ``--8<-- "/etc/passwd"``, ``../../../x`` or a
symlink inside the repository pointing out would otherwise have the tool open files
the builder itself refused to include. A path is resolved (every symlink followed)
before anything is opened, and allowed only when it lands inside a root folder or is
one of the allowed files. Files outside the repository date nothing anyway.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

__all__ = ["Reach"]


class Reach:
    """Real folders whose files, and real files that, may be opened; nothing else."""

    def __init__(self, folders: Iterable[str | os.PathLike[str]] = (),
                 files: Iterable[str | os.PathLike[str]] = ()) -> None:
        self._real: dict[str, str | None] = {}  # a path -> its real path (None: none)
        self.folders = tuple(f for f in map(self._resolve, folders) if f is not None)
        self.files = frozenset(f for f in map(self._resolve, files) if f is not None)

    def allows(self, path: str | os.PathLike[str]) -> bool:
        """Whether the file at ``path`` (symlinks followed) lies inside the reach."""
        real = self._resolve(path)
        return real is not None and (real in self.files or any(
            real.startswith(folder.rstrip(os.sep) + os.sep) for folder in self.folders))

    def allows_folder(self, path: str | os.PathLike[str]) -> bool:
        """Whether a glob may look through the folder at ``path``: it is a root folder,
        lies inside one, or holds an allowed file."""
        real = self._resolve(path)
        if real is None:
            return False
        inner = real.rstrip(os.sep) + os.sep
        return any(real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)
                   for folder in self.folders) or any(f.startswith(inner) for f in self.files)

    def _resolve(self, path: str | os.PathLike[str]) -> str | None:
        """The real path of ``path`` made absolute (``..`` taken lexically, as the tools
        join names); None for what names no file (a NUL byte)."""
        text = os.fspath(path)
        if text not in self._real:
            try:
                self._real[text] = os.path.realpath(os.path.abspath(text))
            except (OSError, ValueError):
                self._real[text] = None
        return self._real[text]
