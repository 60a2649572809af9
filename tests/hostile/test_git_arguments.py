"""Issue 54, experiment 1: a remote is never a git option.

``versions --push --remote '--receive-pack=touch PWNED; false'`` ran the command: the
remote reached ``git push`` before any ``--``, so git read it as its option. The same
value can come from mike's ``remote_name`` in mkdocs.yml (a pull request's). Now such a
remote is an error naming where it came from (exit 2, nothing committed or pushed), and
every value reaches git after ``--``. Real ``mike deploy`` runs, a real bare remote.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.support.mike import deployed, mike_env, tip
from tests.support.sites import Site


@pytest.fixture
def env(monkeypatch):
    """The in-process command sees the same isolated git as mike does."""
    for key, value in mike_env().items():
        monkeypatch.setenv(key, value)


def bare_remote(site: Site, tmp_path: Path) -> Path:
    """A real bare repository, the project's ``origin``."""
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], env=mike_env(), check=True)
    site.repo.git("remote", "add", "origin", str(remote))
    return remote


def remote_tip(remote: Path) -> str | None:
    proc = subprocess.run(["git", "rev-parse", "-q", "--verify", "refs/heads/gh-pages"],
                          cwd=remote, env=mike_env(), capture_output=True, text=True)
    return proc.stdout.strip() or None


def versions(site: Site, *args: str) -> int:
    return main(["versions", "-f", str(site.root / "mkdocs.yml"), *args])


def test_a_remote_option_on_the_command_line_runs_nothing(site, env, capsys, tmp_path,
                                                          monkeypatch, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    remote = bare_remote(site, tmp_path)
    marker = tmp_path / "PWNED"
    before = tip(site)
    monkeypatch.chdir(site.root)
    status = versions(site, "--push", "--remote", f"--receive-pack=touch {marker}; false")
    err = capsys.readouterr().err
    assert not marker.exists() and not (site.root / "PWNED").exists()
    assert status == 2, err
    assert "--remote '--receive-pack=touch" in err and "cannot start with '-'" in err, err
    assert tip(site) == before and remote_tip(remote) is None  # nothing committed or pushed

    # The same remote given as it should be (its path): pushed.
    assert versions(site, "--push", "--remote", str(remote)) == 0
    assert remote_tip(remote) == tip(site) != before
    assert not marker.exists()


def test_mikes_remote_name_from_mkdocs_yml_runs_nothing(site, env, capsys, tmp_path,
                                                        monkeypatch, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    remote = bare_remote(site, tmp_path)
    marker = tmp_path / "PWNED"
    site.config["plugins"] = [{"mike": {"remote_name": f"--receive-pack=touch {marker}; false"}},
                              {"sitemap-pro": {}}]
    site.write_config()
    before = tip(site)
    monkeypatch.chdir(site.root)
    status = versions(site, "--push")
    err = capsys.readouterr().err
    assert not marker.exists() and not (site.root / "PWNED").exists()
    assert status == 2 and "Plugin 'mike' option 'remote_name'" in err, err
    assert tip(site) == before and remote_tip(remote) is None

    # mike's remote_name naming the real remote: pushed there.
    site.config["plugins"] = [{"mike": {"remote_name": "origin"}}, {"sitemap-pro": {}}]
    site.write_config()
    assert versions(site, "--push") == 0
    assert remote_tip(remote) == tip(site) != before
    assert "to origin" in capsys.readouterr().out


def test_a_branch_that_is_a_revision_is_an_error_naming_the_option(site, env, capsys,
                                                                   tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    before = tip(site)
    assert versions(site, "--branch", "gh-pages~0") == 2
    err = capsys.readouterr().err
    assert "--branch 'gh-pages~0' is not a branch name git accepts" in err, err
    assert tip(site) == before
