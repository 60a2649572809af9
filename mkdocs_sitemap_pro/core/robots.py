"""The one ``Sitemap:`` line in the built site's robots.txt.

Only the copy in site_dir is ever touched (never the source in docs_dir), and it is
replaced atomically, so a crash never leaves half a robots.txt behind.
"""

from __future__ import annotations

import enum
import os
import re
from pathlib import Path

from mkdocs_sitemap_pro.core.atomic import StagedFiles, remove_leftovers

_BOM = "\ufeff"


class RobotsOutcome(enum.Enum):
    """What ``add_sitemap_line`` did."""

    CREATED = "created"
    APPENDED = "appended"
    ALREADY_PRESENT = "already present"


class RobotsError(Exception):
    """robots.txt could not be read or written; the message names the file."""


def add_sitemap_line(robots_path: Path, sitemap_url: str) -> RobotsOutcome:
    """Make ``robots_path`` hold ``Sitemap: <sitemap_url>`` exactly once.

    An existing file keeps its bytes, BOM and line ending (LF or CRLF); a missing final
    newline is mended before the line is appended; ``Sitemap:`` lines for other URLs
    stay. The same line with the field name in another letter case counts as present.
    """
    line = f"Sitemap: {sitemap_url}"
    # Temporary files a killed build left behind, also when nothing is written now.
    remove_leftovers(robots_path.parent, re.compile(re.escape(robots_path.name) + r"(?:\.bak)?"))
    try:
        raw = robots_path.read_bytes()
    except FileNotFoundError:
        _replace(robots_path, (line + "\n").encode("utf-8"))
        return RobotsOutcome.CREATED
    except OSError as error:
        raise RobotsError(f"cannot read {robots_path}: {error.strerror or error}") from error

    updated = with_sitemap_line(raw.decode("utf-8", errors="surrogateescape"), sitemap_url)
    if updated is None:
        return RobotsOutcome.ALREADY_PRESENT
    _replace(robots_path, updated.encode("utf-8", errors="surrogateescape"))
    return RobotsOutcome.APPENDED


def with_sitemap_line(text: str, sitemap_url: str) -> str | None:
    """``text`` (a robots.txt) with ``Sitemap: <sitemap_url>`` appended, or None if it
    already holds that line. BOM and line ending are kept; a missing final newline is
    mended first."""
    if _has_line(text, sitemap_url):
        return None
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text.removeprefix(_BOM)
    if body and not body.endswith(("\n", "\r")):
        text += newline
    return text + f"Sitemap: {sitemap_url}" + newline


def _has_line(text: str, sitemap_url: str) -> bool:
    """Whether a ``Sitemap:`` field (any letter case) already names exactly this URL."""
    for raw_line in text.removeprefix(_BOM).splitlines():
        field, sep, value = raw_line.partition(":")
        if sep and field.strip().lower() == "sitemap" and value.strip() == sitemap_url:
            return True
    return False


def _replace(robots_path: Path, data: bytes) -> None:
    """Write ``data`` to a staged file beside ``robots_path``, then rename it over.

    Temporary files a killed build left behind are removed first: they are hidden, so
    MkDocs' clean step keeps them, and they would be published with the site.
    """
    folder, name = robots_path.parent, robots_path.name
    remove_leftovers(folder, re.compile(re.escape(name) + r"(?:\.bak)?"))
    staged = StagedFiles(folder)
    try:
        temp, handle = staged.new(name)
        with handle:
            handle.write(data)
        if robots_path.exists() and not robots_path.is_symlink():
            os.chmod(temp, robots_path.stat().st_mode & 0o7777)
        else:
            os.chmod(temp, 0o644)
        staged.commit([(temp, name)])
    except OSError as error:
        raise RobotsError(f"cannot write {robots_path}: {error.strerror or error}") from error
    finally:  # every way out, an interrupt included: no temporary file is left
        staged.discard()
