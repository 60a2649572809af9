"""The plugin under ProperDocs: the same sitemap as under MkDocs, also without MkDocs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO
from tests.support.dates import D1, D2, utc
from tests.support.git import git_env
from tests.support.sites import SITE_URL, Site
from tests.support.venvs import cached_venv

PROPERDOCS = Path(sys.executable).parent / "properdocs"


def sample_site(site: Site) -> None:
    site.config["theme"] = "mkdocs"  # ProperDocs wants the theme named
    site.write_config()
    site.page("index.md")
    site.page("a.md")
    site.page("sub/README.md")
    site.page("404.md")
    site.page("fm.md", "---\nsitemap:\n  lastmod: 2024-02-29\n---\n# FM\n")
    site.commit("first", D1)
    site.page("a.md", "# A\nchanged\n")
    site.commit("second", D2)


def properdocs_build(site: Site, program: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(program), "build", "--strict", "-f", "mkdocs.yml", "-d", str(out)],
        cwd=site.root, env=git_env(), capture_output=True, text=True, timeout=120,
    )


def outputs(folder: Path) -> dict[str, bytes]:
    return {n: (folder / n).read_bytes() for n in ("sitemap.xml", "sitemap.xml.gz", "robots.txt")}


def test_properdocs_build_gives_the_same_sitemap_as_mkdocs(site, tmp_path):
    sample_site(site)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert built.sitemap()[SITE_URL + "a/"]["lastmod"] == utc(D2)
    result = properdocs_build(site, PROPERDOCS, tmp_path / "pd")
    assert result.returncode == 0, result.stderr
    assert "sitemap-pro: 4 URLs in 1 file (sitemap.xml, .gz, .html); lastmod: 3 git, 1 front matter" in result.stderr
    assert outputs(tmp_path / "pd") == outputs(built.site_dir)


@pytest.fixture(scope="session")
def properdocs_only_venv() -> Path:
    """A virtual environment with ProperDocs and this project, but no MkDocs (cached)."""
    return cached_venv("properdocs", lambda pip: [
        [*pip, "install", "-q", "properdocs", "properdocs-theme-mkdocs", "lxml", "pathspec"],
        # --no-deps: the project declares mkdocs, which a ProperDocs-only user leaves out.
        [*pip, "install", "-q", "--no-deps", str(REPO)],
    ])


def test_properdocs_without_mkdocs_installed(site, tmp_path, properdocs_only_venv):
    sample_site(site)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    bin_dir = properdocs_only_venv / "bin"
    no_mkdocs = subprocess.run(
        [str(bin_dir / "python"), "-c", "import importlib.util as u; print(u.find_spec('mkdocs'))"],
        capture_output=True, text=True,
    )
    assert no_mkdocs.stdout.strip() == "None"
    result = properdocs_build(site, bin_dir / "properdocs", tmp_path / "pd")
    assert result.returncode == 0, result.stderr
    assert outputs(tmp_path / "pd") == outputs(built.site_dir)
    # Our command runs there too (compat maps mkdocs.* to properdocs.*).
    cli = subprocess.run(
        [str(bin_dir / "mkdocs-sitemap-pro"), "build", "--strict", "--site-dir", str(tmp_path / "pd")],
        cwd=site.root, env=git_env(), capture_output=True, text=True, timeout=120,
    )
    assert cli.returncode == 0, cli.stderr
    assert outputs(tmp_path / "pd") == outputs(built.site_dir)
