"""The IndexNow key: its rule, and the ``<key>.txt`` file that proves a site owns it.

IndexNow (indexnow.org) accepts URLs from whoever can show the key at the host: a UTF-8
text file named ``<key>.txt`` holding the key, at the root of the site (or, named by
``keyLocation``, anywhere below it). A key is 8 to 128 characters of ``a-z``, ``A-Z``,
``0-9`` and ``-``. The rule is stated here once, for the plugin's option
``indexnow_key`` and for anything that submits with a key.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from mkdocs_sitemap_pro.core.atomic import remove_leftovers, replace_file

__all__ = ["KEY_MAX", "KEY_MIN", "check_indexnow_key", "key_file_name", "write_key_file"]

KEY_MIN, KEY_MAX = 8, 128
_KEY = re.compile(f"[a-zA-Z0-9-]{{{KEY_MIN},{KEY_MAX}}}")


def check_indexnow_key(value: object) -> str:
    """Return ``value`` if it is an IndexNow key; ``ValueError`` saying why not."""
    if not isinstance(value, str):
        raise ValueError(f"expected a key of {KEY_MIN} to {KEY_MAX} characters, got {value!r}")
    if not KEY_MIN <= len(value) <= KEY_MAX:
        raise ValueError(
            f"{value!r} is {len(value)} characters long: a key has {KEY_MIN} to {KEY_MAX}")
    if not _KEY.fullmatch(value):
        bad = sorted({ch for ch in value if not re.fullmatch("[a-zA-Z0-9-]", ch)})
        raise ValueError(
            f"{value!r} holds {', '.join(map(repr, bad))}: a key is made of a-z, A-Z, 0-9 "
            "and '-' only")
    return value


def key_file_name(key: str) -> str:
    """``<key>.txt``: the file IndexNow reads at the site's root."""
    return f"{check_indexnow_key(key)}.txt"


def write_key_file(folder: Path, key: str) -> Literal["written", "unchanged"]:
    """Write ``<key>.txt`` (the key, nothing else) into ``folder``, whole or not at all.

    ``unchanged`` when it already holds exactly the key. ``OSError`` if it cannot be
    written; the previous file, if any, is then left as it was.
    """
    path = folder / key_file_name(key)
    data = key.encode("ascii")
    remove_leftovers(folder, re.compile(re.escape(path.name)))  # of a killed build
    try:
        if path.is_file() and path.read_bytes() == data:
            return "unchanged"
    except OSError:
        pass
    replace_file(path, data)
    return "written"
