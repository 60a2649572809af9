"""What users install: the sdist and wheel hold the package, py.typed, the licence and the
metadata, and nothing of the tests, benchmarks or example site."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from tests.support import REPO


def test_sdist_and_wheel_hold_the_package_and_nothing_else(tmp_path: Path) -> None:
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
    for name in names + members:
        assert not name.startswith(("tests/", "bench/", "example_site/", ".ci/")), name


def test_plain_pytest_collects_every_module() -> None:
    # `pytest` (not `python -m pytest`) from the repository root: every module imports.
    pytest_bin = Path(sys.executable).parent / "pytest"
    result = subprocess.run(
        [str(pytest_bin), "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "error" not in result.stdout.splitlines()[-1].lower(), result.stdout[-3000:]
