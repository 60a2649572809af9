"""Issue 42, experiment 5: a cache in ``cache_dir`` is checked before it is believed.

Each test builds a real site twice in a real git repository: the first build keeps its
cache, the test forges it as a hostile user could, and the second build must publish
git's dates (or none of the cache), never the forged ones, and never a traceback.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.support.dates import D1, D2, utc
from tests.support.sites import SITE_URL, Built, Site

CACHE = ".cache/plugin/sitemap-pro"


def _site(site: Site, **options: object) -> Site:
    site.set_options(**options)
    site.page("index.md", "# Home\n")
    site.page("a.md", "# A\n")
    site.commit("first", D1)
    site.page("a.md", "# A\n\nMore.\n")
    site.commit("second", D2)
    return site


def _dates(built: Built) -> dict[str, str]:
    assert built.error is None, repr(built.error)
    return {loc: fields.get("lastmod", "") for loc, fields in built.sitemap().items()}


TRUE = {SITE_URL: utc(D1), SITE_URL + "a/": utc(D2)}


def _forge(site: Site, change) -> None:  # type: ignore[no-untyped-def]
    path = site.root / CACHE / "history.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _rebuild_with(site: Site, change) -> Built:  # type: ignore[no-untyped-def]
    assert _dates(site.build()) == TRUE
    _forge(site, change)
    return site.build()


def test_a_forged_history_map_does_not_publish_its_dates(site):
    """Every commit dated 2001-01-01 in a well-formed map for this very HEAD."""
    def to_2001(data: dict) -> None:
        for row in data["commits"]:
            row[1] = "2001-01-01T00:00:00+00:00"

    built = _rebuild_with(_site(site), to_2001)
    assert _dates(built) == TRUE
    assert not built.messages()


def test_a_map_naming_a_commit_the_repository_lacks_is_not_used(site):
    def unknown(data: dict) -> None:
        for row in data["commits"]:
            row[0], row[1] = "0" * 40, "2001-01-01T00:00:00+00:00"

    assert _dates(_rebuild_with(_site(site), unknown)) == TRUE


@pytest.mark.parametrize("iso", [
    "2024-01-10T07:00:00",  # naive
    "0001-01-01T00:00:00+14:00",  # before the epoch, beyond UTC's year 1
    "9999-12-31T23:59:59-14:00",  # beyond year 9999 in UTC
])
def test_a_bad_datetime_in_the_map_is_as_good_as_none(site, iso):
    def bad(data: dict) -> None:
        for row in data["commits"]:
            row[1] = iso

    built = _rebuild_with(_site(site), bad)
    assert _dates(built) == TRUE
    assert not built.messages()
    assert any("history.json" in m for m in built.messages(logging.DEBUG))


@pytest.mark.parametrize("field, value", [
    ("head", "HEAD; rm -rf /"),
    ("files", {"docs/a.md": [7, ""]}),  # a commit the table does not have
    ("files", {"docs/a.md": [0, "not-an-object-id"]}),
    ("files", {"docs/a.md": ["no-such-reason", ""]}),
    ("boundary", ["zz"]),
    ("links", [1]),
])
def test_a_map_of_the_wrong_shape_is_as_good_as_none(site, field, value):
    def bad(data: dict) -> None:
        data[field] = value

    built = _rebuild_with(_site(site), bad)
    assert _dates(built) == TRUE
    assert not built.messages()


def test_messages_kept_in_the_map_are_replayed_without_control_characters(site):
    def said(data: dict) -> None:
        data["said"] = ["\x1b[2J\x1b[31mgit said\x07 this\r"]

    built = _rebuild_with(_site(site), said)
    assert _dates(built) == TRUE
    for message in built.messages(logging.DEBUG):
        assert not any(ord(ch) < 32 or ord(ch) == 127 for ch in message), repr(message)


def _lines_site(site: Site) -> Site:
    site.config["markdown_extensions"] = [{"pymdownx.snippets": {"base_path": ["."]}}]
    site.set_options()
    site.repo.write("code.txt", "one\ntwo\nthree\nfour\n")
    site.page("index.md", "# Home\n")
    site.page("a.md", '# A\n\n--8<-- "code.txt:1:2"\n')
    site.commit("first", D1)
    site.repo.write("code.txt", "one\ntwo\nthree\nFOUR\n")
    site.commit("second", D2)
    return site


@pytest.mark.parametrize("runs, refused", [
    ([1, 4, 10**15, 0], True),  # an epoch no datetime holds
    ([1, 4, 978307200, 100000], True),  # minutes east of UTC beyond a day
    ([1, 2, 978307200, 0], False),  # two lines of a file of four: a well-formed file's
])
def test_a_bad_blame_cache_is_as_good_as_none(site, runs, refused):
    """``blame.json`` (dependencies: lines) with a run git could not have written: one
    out of range is refused at DEBUG; one of another length is simply not this file's."""
    _lines_site(site)
    first = _dates(site.build())
    assert first[SITE_URL + "a/"] == utc(D1)  # lines 1-2 changed first, line 4 second
    path = site.root / CACHE / "blame.json"
    data = json.loads(path.read_text())
    for entry in data["files"].values():
        entry[1] = runs
    path.write_text(json.dumps(data))
    (site.root / CACHE / "history.json").unlink()
    built = site.build()
    assert _dates(built) == first
    assert not built.messages()
    said = any("blame.json cannot be used" in m for m in built.messages(logging.DEBUG))
    assert said == refused


def _garbage(path: Path) -> None:
    path.write_bytes(b"\x00\xff{\"version\": ")


def _older(path: Path) -> None:
    """Valid JSON of the version before (the body as this version writes it)."""
    data = json.loads(path.read_text())
    data["version"] -= 1
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("damage", [_garbage, _older])
@pytest.mark.parametrize("name", ["history.json", "dependencies.json", "blame.json"])
def test_a_cache_file_the_store_cannot_use_is_as_good_as_none(site, name, damage):
    """Every cache file (``core.store``): garbage, or a file of another version, gives
    the dates of a build without it, and one DEBUG line naming the file; no warning."""
    _lines_site(site)
    first = _dates(site.build())
    damage(site.root / CACHE / name)
    built = site.build()
    assert _dates(built) == first
    assert not built.messages()
    said = [m for m in built.messages(logging.DEBUG) if f"{name} cannot be used" in m]
    assert len(said) == 1, built.messages(logging.DEBUG)
