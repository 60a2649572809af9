"""bench/README.md is a page to read, not lab notes: how to run each bench, what it
measures and the latest figures, in at most 300 lines (the history is in git)."""

from __future__ import annotations

from tests.support import REPO

BENCH = REPO / "bench"


def test_the_bench_readme_is_short_and_names_every_bench() -> None:
    text = (BENCH / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    scripts = sorted(p.name for p in BENCH.glob("*.py") if not p.name.startswith("_"))
    assert scripts
    assert [s for s in scripts if f"`{s}`" not in text] == []  # what each one measures
    assert [s for s in scripts if f"python bench/{s}" not in text] == []  # how to run it
