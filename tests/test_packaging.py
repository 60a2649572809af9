"""What users install: the wheel holds the package, py.typed, the licence and the metadata,
and nothing of the tests, benchmarks or example site; the sdist holds those too, so that
downstream packagers can run the tests, and the CHANGELOG."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from tests.support import REPO


def test_sdist_and_wheel_hold_the_package_and_the_sdist_its_tests(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
        check=True, capture_output=True, text=True, timeout=600,
    )
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    names = zipfile.ZipFile(wheel).namelist()
    package = sorted(str(p.relative_to(REPO)) for p in (REPO / "mkdocs_sitemap_pro").rglob("*.py"))
    assert sorted(n for n in names if n.endswith(".py")) == package
    assert "mkdocs_sitemap_pro/py.typed" in names
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert f"{dist_info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    for field in ("Name: mkdocs-sitemap-pro", "License-Expression: MIT", "Requires-Dist: mkdocs>=",
                  "Requires-Dist: lxml>=", "Requires-Dist: pathspec>=", "Requires-Python: >=3.10"):
        assert field in metadata
    points = zipfile.ZipFile(wheel).read(f"{dist_info}/entry_points.txt").decode()
    assert "sitemap-pro = mkdocs_sitemap_pro.plugin.plugin:SitemapProPlugin" in points
    assert "mkdocs-sitemap-pro = mkdocs_sitemap_pro.cli.main:main" in points
    members = [m.split("/", 1)[1] for m in tarfile.open(sdist).getnames() if "/" in m]
    assert "LICENSE" in members and "README.md" in members and "mkdocs_sitemap_pro/py.typed" in members
    for name in names:
        assert not name.startswith(("tests/", "bench/", "example_site/", "docs/", ".ci/")), name
    # The sdist: every tracked file the tests read, and never CI's script or a cache.
    assert "CHANGELOG.md" in members
    listed = subprocess.run(["git", "ls-files", "-z", "tests", "example_site", "bench", "docs"],
                            cwd=REPO, capture_output=True, text=True).stdout
    tracked = [name for name in listed.split("\0") if name and (REPO / name).exists()]
    if tracked:  # a clone (an sdist has no git): what it tracks there is in the sdist
        assert "tests/schemas/sitemap.xsd" in tracked
        assert set(tracked) <= set(members), sorted(set(tracked) - set(members))[:10]
    assert "tests/conftest.py" in members or "tests/support/__init__.py" in members
    assert any(m.startswith("tests/schemas/") for m in members)
    for name in members:
        assert not name.startswith(".ci/"), name
        assert "__pycache__" not in name and "/.cache/" not in name, name
        assert not name.startswith(("example_site/site/", "bench/.work/")), name
    metadata_urls = [line for line in metadata.splitlines() if line.startswith("Project-URL: ")]
    assert any("Documentation, https://" in line for line in metadata_urls), metadata_urls
    assert "Classifier: Programming Language :: Python :: 3.13" in metadata


def test_the_version_is_written_once() -> None:
    # pyproject.toml holds it; the package reads it from the installed metadata, and the
    # CHANGELOG has its entry.
    import re

    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")  # no tomllib on 3.10
    (version,) = re.findall(r'^version = "([^"]+)"$', pyproject, re.M)
    for path in (REPO / "mkdocs_sitemap_pro").rglob("*.py"):
        assert f'"{version}"' not in path.read_text(encoding="utf-8"), path
    import mkdocs_sitemap_pro

    assert mkdocs_sitemap_pro.__version__ == version
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(version)}\]", changelog, re.M), version
    assert "## [Unreleased]" in changelog


def test_plain_pytest_collects_every_module() -> None:
    # `pytest` (not `python -m pytest`) from the repository root: every module imports.
    pytest_bin = Path(sys.executable).parent / "pytest"
    result = subprocess.run(
        [str(pytest_bin), "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "error" not in result.stdout.splitlines()[-1].lower(), result.stdout[-3000:]
