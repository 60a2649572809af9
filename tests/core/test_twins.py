"""``adopt_twins``: which tracked file dates an untracked byte copy (the rule dates.md
states), against a real repository with fixed dates and real git processes."""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs_sitemap_pro.core.git import GitHistory, Known
from mkdocs_sitemap_pro.core.git.copies import added_sources
from mkdocs_sitemap_pro.core.git.copies import adopt_derived
from mkdocs_sitemap_pro.core.git.copies import adopt_twins
from tests.support.dates import D1, D2, D3
from tests.support.git import GitRepo, read_history


def _when(history: GitHistory, path: Path) -> str:
    change = history.last_changed(path)
    assert isinstance(change, Known), change
    return change.when.isoformat()


def test_same_path_suffix_then_newest_then_name(tmp_path):
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitignore", "copy/\n")
    repo.write("docs/guide/a.md", "same\n")
    repo.write("x/b.md", "other\n")
    repo.commit("first", D1)
    repo.write("old/z.md", "other\n")  # b.md's bytes, older than y/c.md below
    repo.commit("z", D2)
    repo.write("y/c.md", "other\n")
    repo.write("later/a.md", "same\n")  # a.md's bytes, newer, but a shorter suffix
    repo.commit("c", D3)
    history = read_history(repo.path)
    top = repo.path.resolve()
    copy_a = repo.write("copy/guide/a.md", "same\n").resolve()
    copy_b = repo.write("copy/q.md", "other\n").resolve()  # no suffix shared: the newest
    unique = repo.write("copy/new.md", "no twin\n").resolve()
    tracked = (top / "docs/guide/a.md")

    twins = adopt_twins(history, [str(copy_a), str(copy_b), str(unique), str(tracked)])

    assert twins == {str(copy_a): b"docs/guide/a.md", str(copy_b): b"y/c.md"}
    assert _when(history, copy_a) == _when(history, tracked)
    assert not history.tracked(unique) and history.tracked(copy_b)


def test_no_process_when_every_path_is_tracked(tmp_path, monkeypatch):
    repo = GitRepo(tmp_path / "repo")
    page = repo.write("docs/a.md", "a\n")
    repo.commit("first", D1)
    history = read_history(repo.path)
    monkeypatch.setenv("PATH", "")  # any git process would now fail to start
    assert adopt_twins(history, [str(page.resolve())]) == {}


def test_an_empty_file_has_no_twin(tmp_path):
    """Every empty file has the empty blob's id (and so has ``/proc/cpuinfo``, whose size
    is 0): an empty tracked file dates no empty copy, nor a file of the system."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitignore", "copy/\n")
    repo.write("src/pkg/__init__.py", "")
    repo.write("docs/a.md", "a\n")
    repo.commit("first", D1)
    history = read_history(repo.path)
    empty = repo.write("copy/__init__.py", "").resolve()
    copy = repo.write("copy/a.md", "a\n").resolve()
    system = ["/proc/cpuinfo"] if os.path.isfile("/proc/cpuinfo") else []

    twins = adopt_twins(history, [str(empty), str(copy), *system])

    assert twins == {str(copy): b"docs/a.md"}
    assert not history.tracked(empty)


def test_derived_only_ignored_copies_that_only_add_lines(tmp_path):
    """``adopt_derived``: a git-ignored copy holding a tracked file's lines in order,
    with others added, is dated by it (its own language's first); a copy with a line
    changed is not, nor a page that is untracked but not ignored (being written)."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitignore", "stage/\n")
    repo.write("docs/en/a.md", "# A\n\nOld.\n")
    repo.write("docs/es/a.md", "# A\n\nText.\n")
    repo.commit("first", D1)
    repo.write("docs/en/a.md", "# A\n\nText.\n")  # the same lines, newer
    repo.commit("en", D2)
    history = read_history(repo.path)
    noticed = repo.write("stage/es/content/a.md", "# A\n\nNotice.\n\nText.\n").resolve()
    changed = repo.write("stage/en/content/a.md", "# A\n\nText!\n").resolve()
    written = repo.write("docs/fr/a.md", "# A\n\nText.\n\nEncore.\n").resolve()

    found = adopt_derived(history, [str(noticed), str(changed), str(written)])

    assert found == {str(noticed): b"docs/es/a.md"}  # not docs/en/a.md, newer
    assert _when(history, noticed) == _when(history, repo.path.resolve() / "docs/es/a.md")
    assert not history.tracked(changed) and not history.tracked(written)


def test_added_lines_come_from_the_tracked_files_that_hold_them(tmp_path):
    """``added_sources``: a banner inserted with a placeholder filled in is covered by the
    banner's file (the same folder's first); lines of no tracked file leave the copy
    unexplained; a line a file holds among others (``///``) covers nothing alone."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitignore", "stage/\n")
    banner = "/// note | AI\n\nMade by AI.\n\n[English](URL)\n\n///\n"
    repo.write("docs/es/banner.md", banner)
    repo.write("docs/fr/banner.md", banner)  # the same bytes: Spanish copies take es's
    repo.write("docs/es/a.md", "# A\n\nTexto.\n")
    repo.write("docs/es/b.md", "# B\n\nTexto.\n")
    repo.write("docs/other.md", "/// tip\n\nElsewhere.\n\n///\n")
    repo.commit("first", D1)
    history = read_history(repo.path)
    shown = repo.write("stage/es/a.md", "# A\n\n" + banner.replace("URL", "https://e/a/")
                       + "\nTexto.\n").resolve()
    stray = repo.write("stage/es/b.md", "# B\n\n///\n\nBuilt today.\n\nTexto.\n").resolve()
    bases = adopt_derived(history, [str(shown), str(stray)])
    assert bases == {str(shown): b"docs/es/a.md", str(stray): b"docs/es/b.md"}

    added = added_sources(history, bases)

    assert added.sources == {str(shown): frozenset({b"docs/es/banner.md"})}
    assert added.unexplained == [str(stray)]
