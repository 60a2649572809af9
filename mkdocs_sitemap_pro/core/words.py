"""Words as a user reads them, one rule for every message, the HTML view and the
command line: counts (``1 URL``, ``2 URLs``, never ``1 URLs``), and text from a file, a
server or a subprocess made safe for a terminal (``printable``), and a value given by a
user or a file named by its start when it is long (``named``)."""

from __future__ import annotations

import json
import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL, C1: what a terminal acts on
_CONTROL_BUT_NEWLINE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_JSON_RAW = {code: f"\\u{code:04x}" for code in range(0x7f, 0xa0)}  # json.dumps keeps these


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` with ``noun``, in the plural (``noun + "s"`` unless given) unless 1."""
    if number == 1:
        return f"{number:,} {noun}"
    return f"{number:,} {plural or noun + 's'}"


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` with every control character as a visible ``\\xNN`` code, so that a
    value read from a file, a server, a cache or a subprocess cannot move a terminal's
    cursor, retitle its window or clear its screen. ``lines``: keep the line breaks of a
    text of several lines (git's own messages); otherwise a message stays one line."""
    return (_CONTROL_BUT_NEWLINE if lines else _CONTROL).sub(
        lambda m: f"\\x{ord(m.group()):02x}", text)


def printable_json(value: object) -> str:
    """``value`` as one line of JSON whose text has no raw control character: JSON
    escapes C0 itself; DEL and C1, which ``ensure_ascii=False`` leaves raw, become
    ``\\u00NN`` (the same text to a JSON reader, ``printable``'s rule for a terminal)."""
    return json.dumps(value, ensure_ascii=False).translate(_JSON_RAW)

def named(text: str, limit: int = 80) -> str:
    """``text`` as a message names it: printable, and when longer than ``limit``, its
    start and its length (a 10,000-character path must not fill the terminal)."""
    if len(text) > limit:
        return f"{printable(text[:limit - 20])}... ({len(text):,} characters)"
    return printable(text)
