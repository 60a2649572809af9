"""core.store: every cache file's envelope, reading and writing.

Whatever the file holds, ``load`` gives a value or no cache with why (naming the file),
never an exception; ``save`` writes whole or says why. The caches' own bodies are tested
through real builds in ``tests/hostile/test_cache_trust.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mkdocs_sitemap_pro.core import store

FORM = store.Format("mkdocs-sitemap-pro test", 2)


def _count(data: dict[str, Any]) -> int:
    """A body decoder: the ``count`` key, an int."""
    count = data["count"]
    if type(count) is not int:
        raise TypeError("not a count")
    return count


def test_a_body_written_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "test.json"
    assert store.save(path, FORM, {"count": 3, "b": [1]}) is None
    assert path.read_bytes() == (b'{"b":[1],"count":3,"format":"mkdocs-sitemap-pro test",'
                                 b'"version":2}\n')
    assert store.load(path, FORM, _count) == (3, None)
    assert [p.name for p in path.parent.iterdir()] == ["test.json"]  # no temporary left


def test_a_missing_file_is_no_cache_and_says_nothing(tmp_path: Path) -> None:
    assert store.load(tmp_path / "none.json", FORM, _count) == (None, None)


def _raises(error: Exception) -> Any:
    def decode(data: dict[str, Any]) -> int:
        raise error
    return decode


@pytest.mark.parametrize("content, decode, why", [
    (b"\x00\xff garbage", _count, "Error:"),
    (b"[1, 2]", _count, "not a JSON object"),
    (b"[" * 100_000, _count, "RecursionError"),
    (b'{"count": 3}', _count, "format None version None"),
    (b'{"format": "mkdocs-sitemap-pro test", "version": 1, "count": 3}', _count, "version 1"),
    (b'{"format": "mkdocs-sitemap-pro test", "version": 2.0, "count": 3}', _count, "2.0"),
    (b'{"format": "another", "version": 2, "count": 3}', _count, "'another'"),
    (b'{"format": "mkdocs-sitemap-pro test", "version": 2}', _count, "KeyError"),
    (b'{"format": "mkdocs-sitemap-pro test", "version": 2, "count": "3"}', _count, "TypeError"),
    *[(b'{"format": "mkdocs-sitemap-pro test", "version": 2}', _raises(error),
       type(error).__name__) for error in (ValueError("x"), IndexError("x"),
                                           AttributeError("x"), OverflowError("x"))],
])
def test_a_file_it_cannot_use_is_no_cache_said_naming_it(
        tmp_path: Path, content: bytes, decode: Any, why: str) -> None:
    path = tmp_path / "test.json"
    path.write_bytes(content)
    value, said = store.load(path, FORM, decode)
    assert value is None and said is not None
    assert said.startswith(f"{path} cannot be used (") and why in said


def test_a_folder_for_a_file_is_no_cache(tmp_path: Path) -> None:
    (tmp_path / "test.json").mkdir()
    value, said = store.load(tmp_path / "test.json", FORM, _count)
    assert value is None and said is not None and "test.json cannot be used" in said


def test_a_file_that_cannot_be_written_is_said_not_raised(tmp_path: Path) -> None:
    (tmp_path / "cache").write_text("a file where the folder should be")
    said = store.save(tmp_path / "cache" / "test.json", FORM, {"count": 1})
    assert said is not None and said.startswith(f"{tmp_path / 'cache' / 'test.json'} could not")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]

