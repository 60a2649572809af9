"""Issue 54, experiment 5 (options): hostile option values are an error naming them,
never a traceback.

Every subcommand was run with NUL bytes, 10,000-character paths, paths of 5,000
folders, non-UTF-8 bytes (``os.fsdecode``), negative and huge numbers, a folder where a
file is expected and the reverse. These raised: a path too long for the system under
``check``, ``changes`` and ``indexnow`` (``OSError: File name too long``), a NUL byte in
``build --site-dir``, ``site_dir`` or ``cache_dir`` (``mkdocs build`` too) and in ``versions``' ``--branch``,
``--deploy-prefix``, ``--remote``, ``--message`` and mike's ``remote_branch``
(``ValueError: embedded null byte``); and ``indexnow`` with a FIFO as its key file
hung, opening it, as ``previous`` naming a FIFO hung ``mkdocs build`` (a NUL byte or a
name too long there: a traceback). Each is now exit 2 with a message naming the option
or the value (printable, and by its start when long); ``previous``, a WARNING.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import yaml

from mkdocs_sitemap_pro.cli.main import main
from tests.plugin.test_ci_clones import clone, in_clone, make_history
from tests.support.dates import D1, utc
from tests.support.git import git_env
from tests.support.mike import deployed, mike_env, tip
from tests.support.sites import Site

LONG = "a" * 10_000
DEEP = "/tmp/" + "x/" * 5_000
NUL = "a\0b"


@pytest.fixture
def env(monkeypatch):
    """The in-process command sees the same isolated git as mike does."""
    for key, value in mike_env().items():
        monkeypatch.setenv(key, value)


def _err_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and "\0" not in err, err
    assert len(max(err.splitlines() or [""], key=len)) < 400, err[:500]  # named by its start
    return err


@pytest.mark.parametrize("path", [LONG, DEEP])
@pytest.mark.parametrize("argv", [["check", "{}"], ["changes", "{}", "{}"],
                                  ["indexnow", "{}", "--all", "--dry-run"]])
def test_a_path_too_long_is_named_not_a_traceback(tmp_path, monkeypatch, capsys, argv, path):
    monkeypatch.chdir(tmp_path)
    assert main([a.format(path) for a in argv]) == 2
    err = _err_line(capsys)
    assert f"({len(path):,} characters)" in err, err


def test_build_site_dir_with_a_nul_byte_is_an_error_naming_it(site: Site, monkeypatch, capsys):
    site.page("index.md", "# Home\n")
    site.commit("first", D1)
    monkeypatch.chdir(site.root)
    assert main(["build", "--site-dir", NUL]) == 2
    assert "--site-dir a\\x00b" in _err_line(capsys)
    site.config["site_dir"] = NUL
    site.write_config()
    assert main(["build"]) == 2
    assert "Config value 'site_dir':" in _err_line(capsys)
    assert main(["build", "-f", NUL]) == 2  # quoted printable, never raw
    assert "a\\x00b" in _err_line(capsys)


@pytest.mark.parametrize("option", ["--branch", "--deploy-prefix", "--message", "--remote",
                                    "remote_branch"])
def test_versions_values_with_a_nul_byte_are_an_error_naming_them(site, env, capsys, option,
                                                                   tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",), version_selector=False)
    before = tip(site)
    config = str(site.root / "mkdocs.yml")
    if option == "remote_branch":  # the same value, from mike's settings in mkdocs.yml
        data = yaml.safe_load((site.root / "mkdocs.yml").read_text())
        data["plugins"][0]["mike"]["remote_branch"] = NUL
        (site.root / "mkdocs.yml").write_text(yaml.safe_dump(data))
        argv = ["versions", "-f", config]
        named = "Plugin 'mike' option 'remote_branch' 'a\\x00b'"
    else:
        argv = ["versions", "-f", config, option, NUL, *(["--push"] * (option == "--remote"))]
        named = f"{option} 'a\\x00b'"
    assert main(argv) == 2
    err = _err_line(capsys)
    assert named in err and "NUL byte" in err, err
    assert tip(site) == before  # nothing committed



@pytest.mark.parametrize("given", [["--key-file", "site/0123456789abcdef.txt"],
                                   ["--key", "0123456789abcdef"]])
def test_a_fifo_as_the_indexnow_key_file_is_never_opened(tmp_path, given):
    """A FIFO where the key file should be: opening it would block for ever (it did)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/</loc></url></urlset>\n", encoding="utf-8")
    os.mkfifo(site / "0123456789abcdef.txt")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs_sitemap_pro", "indexnow", "site", *given, "--all",
         "--dry-run", "--site-url", "https://example.com/"],
        cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2, result.stderr
    assert "0123456789abcdef.txt is not a regular file" in result.stderr, result.stderr


def test_cache_dir_with_a_nul_byte_is_an_error_naming_it(site: Site, monkeypatch, capsys):
    site.set_options(cache_dir=NUL)
    site.page("index.md", "# Home\n")
    site.commit("first", D1)
    built = site.build()  # mkdocs build: the plugin's configuration error, no ValueError
    assert not isinstance(built.error, ValueError), built.error
    assert any("cache_dir 'a\\x00b' holds a NUL byte" in m for m in built.messages()), \
        built.messages()
    monkeypatch.chdir(site.root)
    assert main(["build"]) == 2  # build after Zensical: the same, exit 2
    assert "cache_dir 'a\\x00b' holds a NUL byte" in _err_line(capsys)


@pytest.mark.parametrize("kind", ["fifo", "fifo in folder", "nul", "long"])
def test_a_previous_path_that_cannot_be_a_manifest_is_a_warning(site, tmp_path, kind):
    """``previous`` naming a FIFO (opening it waited for ever: the build hung), a folder
    holding one as the manifest, a NUL byte or a name too long (a traceback in the
    history thread): the build ends, with a WARNING naming it, no date carried."""
    make_history(site)
    folder = clone(f"file://{site.root}", tmp_path / "c", "--depth", "1")
    where = tmp_path / "published"
    where.mkdir()
    if kind == "fifo":
        os.mkfifo(where / "m.json")
        previous = str(where / "m.json")
    elif kind == "fifo in folder":
        os.mkfifo(where / "sitemap.manifest.json")
        previous = str(where)
    else:
        previous = NUL if kind == "nul" else str(where / LONG)
    in_clone(site, folder, previous=previous)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build"], cwd=folder,
                            env=git_env(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    said = [line for line in result.stderr.splitlines() if "previous:" in line]
    assert len(said) == 1 and said[0].startswith("WARNING"), result.stderr
    assert "could not be read" in said[0] and len(said[0]) < 400, said
    assert (folder / "site" / "sitemap.xml").is_file()


def test_cache_files_that_are_fifos_are_never_opened(site, tmp_path):
    """A FIFO in place of a cache file of ``cache_dir`` (opening it waited for ever: the
    build hung) is no cache: the history is walked, the dates the same."""
    site.page("index.md", "# Home\n")
    site.commit("first", D1)
    assert site.build().error is None
    cache = site.root / ".cache" / "plugin" / "sitemap-pro"
    kept = sorted(cache.glob("*.json"))
    assert kept, list(cache.iterdir())
    for path in kept:
        path.unlink()
        os.mkfifo(path)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build"], cwd=site.root,
                            env=git_env(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    sitemap = (site.root / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<lastmod>{utc(D1)}</lastmod>" in sitemap
