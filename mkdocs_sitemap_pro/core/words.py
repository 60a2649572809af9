"""Counts as a user reads them: ``1 URL``, ``2 URLs``, never ``1 URLs`` (one rule for
every message, the HTML view and the command line)."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` with ``noun``, in the plural (``noun + "s"`` unless given) unless 1."""
    if number == 1:
        return f"{number:,} {noun}"
    return f"{number:,} {plural or noun + 's'}"
