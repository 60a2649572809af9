"""Issue 54, experiment 9 (part): a ``git`` that prints garbage is not "not installed".

A program called ``git`` first on PATH that answers every command with lines that are
not git's (exit 0): the build took its first line for the repository's folder, could
not start git there, and said "git is not installed"; ``versions`` printed an empty
error. Now each says what git printed. Real builds, a real ``git`` script on PATH.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs_sitemap_pro.cli.main import main
from tests.support.dates import D1
from tests.support.sites import Site

GARBAGE = "this is not git 4.2"


def _garbage_git(folder: Path) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "git"
    script.write_text("#!/bin/sh\n" + "".join(f"echo '{GARBAGE} {n}'\n" for n in range(4))
                      + "exit 0\n")
    script.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def _site(site: Site) -> Site:
    site.set_options()
    site.page("index.md", "# Home\n")
    site.commit("first", D1)
    return site


def test_a_git_that_prints_garbage_is_named_with_what_it_printed(site, tmp_path):
    _site(site)
    built = site.build(env=_garbage_git(tmp_path / "bin"))
    assert built.error is None, repr(built.error)
    assert {fields.get("lastmod") for fields in built.sitemap().values()} == {None}
    warnings = built.messages()
    assert len(warnings) == 1, warnings
    assert "not installed" not in warnings[0], warnings
    assert f"{GARBAGE} 0" in warnings[0] and "git rev-parse" in warnings[0], warnings
    assert not list(site.root.glob(f"{GARBAGE}*")), "a folder named by git's garbage"


def test_versions_says_what_a_garbage_git_printed(site, tmp_path, capsys, monkeypatch):
    _site(site)
    for key, value in _garbage_git(tmp_path / "bin").items():
        monkeypatch.setenv(key, value)
    status = main(["versions", "-f", str(site.root / "mkdocs.yml")])
    err = capsys.readouterr().err
    assert status == 2, err
    assert f"{GARBAGE} 0" in err and "git rev-parse" in err, err


def test_a_missing_git_is_still_not_installed(site, tmp_path):
    """The true case keeps its message: no ``git`` on PATH at all."""
    _site(site)
    empty = tmp_path / "empty"
    empty.mkdir()
    built = site.build(env={"PATH": str(empty)})
    assert built.error is None, repr(built.error)
    assert any("git is not installed" in m for m in built.messages()), built.messages()
