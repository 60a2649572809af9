"""Staged copies with a notice added: an untracked page dated by the tracked file whose
lines it holds, in order.

FastAPI's deploy script stages each translation as the tracked translated file with a
banner inserted after its title, and each page not yet translated as the English file
with a "not translated" notice: no byte twin (``twins``). Such a copy is dated by a
tracked file of the same name whose every line it contains in the same order (lines
only added, none changed), the candidates ranked as twins are (``twins.likeness``: the
longest shared path suffix, then the most shared folder names: ``es`` for a Spanish
copy). Only git-ignored copies are (a staging folder; a new page being written is not
ignored, and stays untracked): one ``git check-ignore`` for them all. The tracked file
is read from the work tree.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from mkdocs_sitemap_pro.core.git.history import GitHistory
from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git
from mkdocs_sitemap_pro.core.git.twins import likeness

__all__ = ["adopt_derived"]


def adopt_derived(history: GitHistory, paths: Iterable[str],
                  processes: GitProcesses | None = None) -> dict[str, bytes]:
    """Date each git-ignored file of ``paths`` by the tracked file it adds lines to (see
    above); returns (and tells ``history``) path -> that file's git name. Raises
    ``GitTimeout`` from ``processes``."""
    untracked, top = history.untracked(paths), history.top
    if not untracked or top is None:
        return {}
    stdin = "".join(f"{path}\n" for path in untracked).encode("utf-8", "surrogateescape")
    status, out, _ = run_git(["check-ignore", "--stdin"], top, stdin,
                             processes=processes)
    ignored = set(os.fsdecode(out).splitlines()) if status == 0 else set()
    by_name: dict[bytes, list[bytes]] = {}
    for name in history.objects:
        by_name.setdefault(name.rsplit(b"/", 1)[-1], []).append(name)
    found: dict[str, bytes] = {}
    for path in (p for p in untracked if p in ignored):
        names = by_name.get(os.fsencode(os.path.basename(path)))
        if not names:
            continue
        copy = _lines(path)
        for name in sorted(names, key=likeness(path, history)):
            own = _lines(os.path.join(top, os.fsdecode(name)))
            if own and _holds(copy, own):
                found[path] = name
                break
    history.adopt(found)
    return found


def _lines(path: str) -> list[str]:
    """A file's non-blank lines, stripped of trailing space ([] when unreadable)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return [line.rstrip() for line in file if line.strip()]
    except OSError:
        return []


def _holds(copy: list[str], own: list[str]) -> bool:
    """Whether every line of ``own`` is in ``copy``, in the same order."""
    lines = iter(copy)
    return all(any(line == other for other in lines) for line in own)
