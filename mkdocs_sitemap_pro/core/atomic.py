"""All-or-nothing file output: temporary files in the target folder, renamed together.

Used for every file the product writes into a site: the sitemap tree and robots.txt.

A failure while writing must leave the previous files untouched, so every file is first
written under a hidden temporary name in the same folder (``os.replace`` is atomic
only within one file system), and only renamed into place once all are complete. On
any error, every temporary file is removed.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "CHUNK_BYTES", "GZIP_LEVEL", "TEMP_GLOB", "StagedFiles", "TwinWriter", "gzip_bytes",
    "open_new", "remove_leftovers", "replace_file", "temp_name",
]

# zlib level for the .gz files. 6 is zlib's own default: sitemaps (repetitive ASCII)
# shrink about as well as at 9, in far less time. Fixed, so output is reproducible.
GZIP_LEVEL = 6

# Callers gather text into chunks of about this many bytes before writing: memory stays
# bounded per file while write and compress calls stay few.
CHUNK_BYTES = 1 << 18


def open_new(path: Path) -> BinaryIO:
    """Create ``path`` for writing; fail if it exists (temporary names are unique)."""
    return open(path, "xb")


def replace_file(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write one file whole or not at all (a cache file): a unique temporary name in the
    same folder (created with its parents), renamed over ``path``. ``OSError`` on failure,
    with no temporary file left. ``data``: the bytes, or parts written one after the other."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(temp_name(path.name, secrets.token_hex(_TOKEN_BYTES)))
    try:
        with open_new(temp) as out:
            if isinstance(data, bytes):
                out.write(data)
            else:
                for part in data:
                    out.write(part)
        os.replace(temp, path)
    finally:  # every way out, an interrupt included: no temporary file is left
        temp.unlink(missing_ok=True)


def _gzip_stream(fileobj: BinaryIO) -> gzip.GzipFile:
    """A reproducible gzip stream: header time 0 and no file name."""
    return gzip.GzipFile(filename="", mode="wb", fileobj=fileobj, compresslevel=GZIP_LEVEL, mtime=0)


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzipped exactly as ``TwinWriter`` would write it."""
    buffer = io.BytesIO()
    with _gzip_stream(buffer) as stream:
        stream.write(data)
    return buffer.getvalue()


# Random bytes in a temporary name: ``.<label>.tmp-<2 * _TOKEN_BYTES hex digits>``.
_TOKEN_BYTES = 6
_TOKEN = re.compile(f"[0-9a-f]{{{2 * _TOKEN_BYTES}}}")
# The name ``replace_file`` gave before 0.2: ``.<name>.<8 hex digits>.tmp``.
_OLD_FORM = re.compile(r"\.(.+)\.[0-9a-f]{8}\.tmp")

#: Every temporary file written into a site matches this glob: a deploy step that
#: runs while a build is writing (or after one was killed) can exclude it.
TEMP_GLOB = ".*.tmp-*"


def temp_name(label: str, token: str) -> str:
    """The hidden temporary name for ``label``: ``.<label>.tmp-<token>``."""
    return f".{label}.tmp-{token}"


def remove_leftovers(folder: Path, labels: re.Pattern[str]) -> list[str]:
    """Remove temporary files an earlier run left behind; return their names.

    A run killed while writing (SIGKILL, a power cut) cannot discard its temporary
    files, and MkDocs' clean step keeps hidden files, so nothing else would ever remove
    them: they would stay in site_dir and be published with it. Only names exactly of
    the form ``StagedFiles`` gives, for a label ``labels`` fully matches, are touched.
    """
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in sorted(names):
        label, sep, token = name[1:].rpartition(".tmp-")
        old = _OLD_FORM.fullmatch(name)
        ours = name.startswith(".") and bool(sep) and bool(_TOKEN.fullmatch(token))
        if not (ours and labels.fullmatch(label)) and not (old and labels.fullmatch(old[1])):
            continue
        try:
            (folder / name).unlink()
        except OSError:  # best effort: gone already, or a folder we cannot write
            continue
        removed.append(name)
    return removed


class StagedFiles:
    """Temporary files in one folder, later renamed into place in a given order.

    Temporary names are hidden and unique per run: ``.<label>.tmp-<random hex>``.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._token = secrets.token_hex(_TOKEN_BYTES)
        self._temps: list[Path] = []

    def new(self, label: str) -> tuple[Path, BinaryIO]:
        """Create a temporary file for ``label`` and return its path and open handle."""
        path = self.folder / temp_name(label, self._token)
        handle = open_new(path)
        self._temps.append(path)
        return path, handle

    def commit(self, renames: list[tuple[Path, str]]) -> None:
        """Rename each temporary file to its final name in the folder, in order.

        All or nothing: each file about to be replaced is first hard-linked to a hidden
        backup (``.<final>.bak.tmp-<hex>``), so if a rename fails half-way the files
        already replaced are put back and the previous tree stands as it was. Where the
        file system has no hard links, the renames go ahead without that safety net.
        """
        done: list[tuple[Path, bool, Path | None]] = []  # (final path, existed, backup)
        try:
            for temp, final in renames:
                target = self.folder / final
                existed = os.path.lexists(target)
                backup: Path | None = None
                if existed:
                    backup = self.folder / temp_name(f"{final}.bak", self._token)
                    try:
                        os.link(target, backup)
                    except OSError:
                        backup = None  # no hard links here: this one cannot be put back
                done.append((target, existed, backup))
                os.replace(temp, target)
                self._temps.remove(temp)
        except BaseException:
            for target, existed, backup in reversed(done):
                try:
                    if backup is not None:
                        os.replace(backup, target)
                    elif not existed:
                        target.unlink(missing_ok=True)
                except OSError:
                    pass
            raise
        finally:
            for _, _, backup in done:
                if backup is not None:
                    backup.unlink(missing_ok=True)

    def discard(self) -> None:
        """Remove every temporary file not yet renamed (errors ignored: best effort)."""
        for temp in self._temps:
            try:
                temp.unlink()
            except OSError:
                pass
        self._temps.clear()


class TwinWriter:
    """Writes text to a file and, optionally, the same bytes gzipped to a second file.

    The caller hands over text in large chunks (see ``CHUNK_BYTES``); each chunk is
    encoded once, written, and fed to the gzip stream, so nothing is ever read back.
    """

    def __init__(self, raw: BinaryIO, gz_raw: BinaryIO | None) -> None:
        self._raw = raw
        self._gz_raw = gz_raw
        self._gz = _gzip_stream(gz_raw) if gz_raw is not None else None

    def write(self, text: str) -> None:
        """Encode ``text`` as UTF-8 and write it to both files."""
        data = text.encode("utf-8")
        self._raw.write(data)
        if self._gz is not None:
            self._gz.write(data)

    def close(self) -> None:
        """Finish the gzip stream and close both files."""
        try:
            if self._gz is not None:
                self._gz.close()
        finally:
            self._raw.close()
            if self._gz_raw is not None:
                self._gz_raw.close()

    def abandon(self) -> None:
        """Close both files without finishing them (after a failure)."""
        for handle in (self._raw, self._gz_raw):
            if handle is not None:
                try:
                    handle.close()
                except OSError:
                    pass
