"""The collector is held off inside, and left as it was found after (even on error)."""

import gc

import pytest

from mkdocs_sitemap_pro.plugin.plugin import collector_paused


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_held_off_inside_and_on_again_after(collector_on: None) -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error(collector_on: None) -> None:
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("a failed write")
    assert gc.isenabled()


def test_left_off_when_it_was_off(collector_on: None) -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
