"""Issue 54, experiment 8: nothing from a file, a server or a subprocess reaches the
terminal raw.

A robots.txt ``Sitemap:`` line, a ``<loc>``, a version name in mike's versions.json and
git's own stderr (a remote's hook) holding ESC, OSC, BEL or a C1 control were printed as
they were by ``check`` and ``versions``: a terminal would retitle its window, move its
cursor or clear the screen. Every one is printed as ``\\xNN`` now, through the one
function cached messages already used (``core.words.printable``).
"""

from __future__ import annotations

import json
import subprocess

import pytest

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.git.branch import Branch, commit_files
from tests.support.mike import deployed, mike_env, show, tip

OSC = "\x1b]0;PWNED\x07"  # sets the terminal's title
SHOWN = "\\x1b]0;PWNED\\x07"
RAW = ("\x1b", "\x07", "\x9b")


def assert_no_raw_control(text: str) -> None:
    for char in RAW:
        assert char not in text, repr(text)


@pytest.fixture
def env(monkeypatch):
    """The in-process command sees the same isolated git as mike does."""
    for key, value in mike_env().items():
        monkeypatch.setenv(key, value)


def test_check_prints_a_robots_sitemap_line_as_codes(tmp_path, capsys):
    site = tmp_path / "site"
    site.mkdir()
    (site / "robots.txt").write_text(f"User-agent: *\nSitemap: https://example.com/{OSC}s.xml\n",
                                     encoding="utf-8")
    assert main(["check", str(site)]) == 2
    captured = capsys.readouterr()
    assert SHOWN in captured.err, captured.err
    assert_no_raw_control(captured.out + captured.err)


def test_check_prints_a_loc_with_a_c1_control_as_codes(tmp_path, capsys):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>https://example.com/a\x9b2J</loc></url>\n</urlset>\n", encoding="utf-8")
    assert main(["check", str(site / "sitemap.xml"), "--site-url", "https://example.com/"]) == 1
    out = capsys.readouterr().out
    assert "https://example.com/a\\x9b2J" in out, out
    assert_no_raw_control(out)


def add_version(site, name: str, files: dict[str, bytes]) -> None:
    """A version in versions.json and its folder on the branch, as a hostile deploy
    (or a hand-edited versions.json) would leave them."""
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    listed = json.loads(show(site, "versions.json") or "")
    listed.append({"version": name, "title": name, "aliases": []})
    commit_files(branch, {"versions.json": json.dumps(listed).encode(),
                          **{f"{name}/{path}": data for path, data in files.items()}},
                 "a version with a hostile name")


def test_versions_prints_a_version_name_as_codes(site, env, capsys, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    add_version(site, f"0.9{OSC}", {"index.html": b"<p>old</p>"})
    assert main(["versions", "-f", str(site.root / "mkdocs.yml")]) == 0
    captured = capsys.readouterr()
    assert f"version 0.9{SHOWN} is left out" in captured.err, captured.err
    assert_no_raw_control(captured.out + captured.err)

    # Rebuilt: its own lines and the warning logged while rebuilding, as codes too.
    assert main(["versions", "-f", str(site.root / "mkdocs.yml"), "--rebuild", f"0.9{OSC}"]) == 0
    captured = capsys.readouterr()
    assert f"rebuilt the sitemap of version 0.9{SHOWN}" in captured.err, captured.err
    assert f"WARNING -  sitemap-pro: version 0.9{SHOWN}: its pages are listed undated" \
        in captured.err
    assert_no_raw_control(captured.out + captured.err)


def test_versions_prints_gits_own_stderr_as_codes(site, env, capsys, tmp_path, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], env=mike_env(), check=True)
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\nprintf '\\033]0;PWNED\\007rejected by the remote\\n' >&2\n"
                    "exit 1\n", encoding="utf-8")
    hook.chmod(0o755)
    assert main(["versions", "-f", str(site.root / "mkdocs.yml"), "--push",
                 "--remote", str(remote)]) == 1
    captured = capsys.readouterr()
    assert f"{SHOWN}rejected by the remote" in captured.err, captured.err
    assert "git push failed" in captured.err and "\n" in captured.err.strip()  # git's lines
    assert_no_raw_control(captured.out + captured.err)
    assert tip(site) != ""  # committed locally, as before the push

