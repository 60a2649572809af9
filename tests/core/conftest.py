"""Fixtures of the core's tests."""

from __future__ import annotations

import os

import pytest

from tests.support.git import git_env


@pytest.fixture
def isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the code under test with the same isolated git environment as ``GitRepo``."""
    for key in list(os.environ):
        if key.startswith("GIT_"):
            monkeypatch.delenv(key)
    for key, value in git_env().items():
        monkeypatch.setenv(key, value)
