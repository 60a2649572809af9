"""Read the Docs builds the documentation site as .ci/run does (issue 41): its
configuration names docs/mkdocs.yml, installs the plugin from the checkout with an
extra that holds the theme docs/mkdocs.yml names, deepens its shallow clone (the plugin
dates pages from git) and fails on warnings; the build it runs passes here, and the
README says where the docs live and gives an install line that works before a release."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from tests.support import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _config() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((REPO / ".readthedocs.yaml").read_text(encoding="utf-8"))


def test_read_the_docs_installs_the_plugin_with_the_docs_theme_and_full_history() -> None:
    config = _config()
    assert config["version"] == 2
    assert config["mkdocs"] == {"configuration": "docs/mkdocs.yml", "fail_on_warning": True}
    (install,) = config["python"]["install"]
    assert install["method"] == "pip" and install["path"] == "."
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    wanted = [req for name in install["extra_requirements"] for req in extras[name]]
    theme = yaml.safe_load((REPO / "docs" / "mkdocs.yml").read_text(encoding="utf-8"))["theme"]
    assert theme["name"] == "material" and any(r.startswith("mkdocs-material") for r in wanted)
    assert any("--unshallow" in job for job in config["build"]["jobs"]["post_checkout"])


def test_the_build_read_the_docs_runs_passes(tmp_path: Path) -> None:
    """Its own command line for an MkDocs project, with --strict for fail_on_warning."""
    out = tmp_path / "html"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--clean", "--site-dir", str(out),
         "--config-file", _config()["mkdocs"]["configuration"], "--strict"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stderr[-3000:]
    assert (out / "sitemap.xml").is_file() and (out / "cli" / "index.html").is_file()


def test_the_readme_names_where_the_docs_are_and_its_first_install_line_works_today() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "(docs/pages/)" in readme
    first = re.search(r"```sh\n(.*?)```", readme, re.DOTALL)
    assert first is not None
    commands = first.group(1)
    source = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["urls"]["Source"]
    # pip installs from the repository itself: no release on PyPI is needed.
    assert commands == f'pip install "mkdocs-sitemap-pro @ git+{source}"\n', commands
