"""Real ``mike deploy`` runs into a test repository's gh-pages branch (no network)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.git import git_env
from tests.support.shared import made_once
from tests.support.sites import Site

BIN = Path(sys.executable).parent
DEPLOY_DATE = "2024-05-01T12:00:00+00:00"
ROOT = "https://example.com/proj/"


def make_site(site: Site, **mike_options: object) -> None:
    """Two committed pages at ``ROOT``; with ``mike_options``, mike's plugin configured.

    The theme is named: mike builds with ProperDocs when it is installed (mkdocs-redirects
    brings it), which warns about a theme left to its default.
    """
    site.config["site_url"] = ROOT
    site.config["theme"] = {"name": "mkdocs"}
    if mike_options:
        site.config["plugins"] = [{"mike": mike_options}, {"sitemap-pro": {}}]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide\n")
    site.commit("docs", "2024-01-10T09:00:00+00:00")


def deployed(site: Site, factory: pytest.TempPathFactory, *deploys: tuple[str, ...],
             **mike_options: object) -> None:
    """``site`` as ``make_site(site, **mike_options)`` then ``deploy(site, *args)`` for
    each of ``deploys`` leave it: made once a run by those real deploys, then copied."""

    def make(origin: Site) -> None:
        make_site(origin, **mike_options)
        for args in deploys:
            deploy(origin, *args)

    made_once(site, factory, repr(("mike", sorted(mike_options.items()), deploys)), make)


def mike_env() -> dict[str, str]:
    """git's isolated environment, fixed dates, and this venv's programs first on PATH."""
    return git_env({
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "GIT_COMMITTER_DATE": DEPLOY_DATE,
        "GIT_AUTHOR_DATE": DEPLOY_DATE,
        "NO_MKDOCS_2_WARNING": "1",
    })


def deploy(site: Site, *args: str) -> subprocess.CompletedProcess[str]:
    """``mike deploy <args>`` in the site's folder; fails the test if mike fails."""
    proc = subprocess.run([str(BIN / "mike"), "deploy", *args], cwd=site.root, env=mike_env(),
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc


def show(site: Site, path: str, branch: str = "gh-pages") -> str | None:
    """A file's text on the branch (symlinks not followed), or None."""
    proc = subprocess.run(["git", "show", f"{branch}:{path}"], cwd=site.root, env=git_env(),
                          capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def tree(site: Site, branch: str = "gh-pages") -> dict[str, str]:
    """Every path of the branch's tree with its mode."""
    out = site.repo.git("ls-tree", "-r", branch)
    return {line.split("\t")[1]: line.split()[0] for line in out.splitlines()}


def tip(site: Site, branch: str = "gh-pages") -> str:
    return site.repo.git("rev-parse", branch).strip()
