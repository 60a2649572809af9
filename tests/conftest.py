"""Pytest configuration shared by every test module."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator

import pytest
from hypothesis import settings

from tests.support.build_marker import ProcessGuard, reaching, roots_of

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


# The build marker (issue 57): set by a rule, never by hand, so `-m "not build"` is the
# quick loop between edits; tests/support/build_marker.py says what the rule is. Its
# guard is an audit hook, made once a session (hooks cannot be removed).
_GUARD = pytest.StashKey[ProcessGuard]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_GUARD] = ProcessGuard()


@pytest.hookimpl(tryfirst=True)  # before -m deselects by it
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    roots = {id(item): roots_of(item) for item in items}
    marked = reaching([root for item_roots in roots.values() for root in item_roots])
    for item in items:
        # A large case (slow) counts as build too: the loop leaves out what takes seconds.
        if item.get_closest_marker("slow") or any(id(root) in marked for root in roots[id(item)]):
            item.add_marker(pytest.mark.build)
    # The long tests first, the quick ones last (each group in its own order): under
    # `-n auto --dist worksteal` the workers end on tests of milliseconds, taken from each
    # other's queues, not on one of seconds while the other core waits.
    items.sort(key=lambda item: 0 if item.get_closest_marker("slow")
               else 1 if item.get_closest_marker("build") else 2)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    return (yield from _guarded(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    return (yield from _guarded(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    return (yield from _guarded(item))


def _guarded(item: pytest.Item) -> Generator[None, None, None]:
    """A test not marked build is held to it in each phase: a process it starts fails it,
    even when the code under test turned the guard's error into a value."""
    if item.get_closest_marker("build") is not None:
        return (yield)
    guard = item.config.stash[_GUARD]
    guard.active, guard.caught = item.nodeid, []
    try:
        result = yield
    finally:
        guard.active = None
    if guard.caught:
        pytest.fail(f"not marked build, yet started a process: {guard.caught}; "
                    "tests/support/build_marker.py's rule missed it", pytrace=False)
    return result


@pytest.fixture
def process_guard(request: pytest.FixtureRequest) -> ProcessGuard:
    """The session's guard (tests/test_build_marker.py tests it)."""
    return request.config.stash[_GUARD]
