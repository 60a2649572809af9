"""Pytest configuration shared by every test module."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# Property tests have no deadline (machines are noisy) and are derandomized in CI, so a
# red CI run can be reproduced from its log.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Material for MkDocs prints a banner about MkDocs 2.0 unless told not to.
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")


@pytest.fixture(autouse=True)
def _no_build_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs as on no CI platform (the shallow-clone advice names the one it
    sees): a test that means one sets its variable itself."""
    from mkdocs_sitemap_pro.core.git.platforms import PLATFORMS

    for platform in PLATFORMS:
        monkeypatch.delenv(platform.variable, raising=False)


@pytest.fixture
def site(tmp_path):  # type: ignore[no-untyped-def]
    """An MkDocs project in a fresh git repository (see ``tests/sites.py``)."""
    from tests.support.sites import Site

    project = Site(tmp_path / "project")
    project.repo.write(".gitignore", "site/\n")
    return project
