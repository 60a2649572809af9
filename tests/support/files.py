"""Reading a written tree back: every file's bytes, and what looks like a leftover."""

from __future__ import annotations

from pathlib import Path


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative POSIX path -> bytes); folders are skipped."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def snapshot(folder: Path) -> dict[str, bytes]:
    """The files directly in ``folder`` (name -> bytes)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def temporaries(folder: Path) -> list[str]:
    """Names that look like a temporary or hidden file, anywhere in the tree."""
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if ".tmp" in p.name or p.name.startswith(".")
    )
