"""The observation of reads: one audit hook for the process, however many observers.

An audit hook can never be removed: one installed per observer would stay for the life of
the process, each called on every audit event of it, so a process that builds many times
(a test run, a server rebuilding sites) would slow every ``open`` down build after build.
"""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mkdocs_sitemap_pro.core.page.reads import Observer

CYCLES = 50


def _count_hooks(monkeypatch: pytest.MonkeyPatch) -> list[Callable[..., Any]]:
    """The audit hooks installed from now on (each one still installed for real)."""
    added: list[Callable[..., Any]] = []
    real = sys.addaudithook

    def addaudithook(hook: Callable[..., Any]) -> None:
        added.append(hook)
        real(hook)

    monkeypatch.setattr(sys, "addaudithook", addaudithook)
    return added


def test_many_observers_share_one_audit_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    added = _count_hooks(monkeypatch)
    page = tmp_path / "page.md"
    page.write_text("# Page\n", encoding="utf-8")
    gone = []
    for _ in range(CYCLES):
        observer = Observer()
        observer.open()
        page.read_text(encoding="utf-8")
        assert observer.close() == {str(page)}
        observer.stop()
        gone.append(weakref.ref(observer))
        del observer
    # At most the one hook of the process (none if an earlier test installed it).
    assert len(added) <= 1
    gc.collect()
    assert not [ref for ref in gone if ref() is not None]  # none kept alive by the hook
    # Observation still works, for a new observer and for two at once.
    first, second = Observer(), Observer()
    first.open()
    second.open()
    page.read_text(encoding="utf-8")
    assert first.close() == second.close() == {str(page)}
    assert len(added) <= 1
