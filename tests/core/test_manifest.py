"""core.deploy.manifest: the published manifest's bytes, its safe reading, and carried dates."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re

import pytest

from mkdocs_sitemap_pro.core.deploy import manifest as manifest_module
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions, Known, Unknown
from mkdocs_sitemap_pro.core.deploy.manifest import (
    MAX_BYTES,
    Manifest,
    ManifestError,
    carry,
    manifest_bytes,
    manifest_name,
    parse_manifest,
    path_key,
    path_keys,
)

UTC = dt.timezone.utc
PARIS = dt.timezone(dt.timedelta(hours=2))
T1 = dt.datetime(2024, 5, 1, 10, 0, tzinfo=PARIS)
T2 = dt.datetime(2024, 6, 1, 8, 30, tzinfo=UTC)
OPTIONS = HistoryOptions("first-parent", "committer", ("b" * 40, "a" * 40))


def manifest(**files: tuple[str, dt.datetime]) -> Manifest:
    return Manifest("c" * 40, OPTIONS, {path_key(k.encode()): v for k, v in files.items()})


def test_names_and_keys() -> None:
    assert manifest_name("sitemap.xml") == "sitemap.manifest.json"
    assert manifest_name("docs-map.xml") == "docs-map.manifest.json"
    assert path_key(b"docs/index.md") == hashlib.blake2b(b"docs/index.md", digest_size=16).hexdigest()
    assert path_key(b"docs/a.md") != path_key(b"docs/b.md")
    names = [b"docs/a.md", b"docs/b.md", b"docs/a.md"]
    assert path_keys(names) == [path_key(name) for name in names] and path_keys([]) == []


def test_bytes_are_reproducible_sorted_and_hold_no_path() -> None:
    one = manifest_bytes(manifest(**{"docs/index.md": ("1" * 40, T1), "src/pkg/mod.py": ("2" * 40, T2)}))
    # The same content in another insertion order gives the same bytes.
    two = manifest_bytes(manifest(**{"src/pkg/mod.py": ("2" * 40, T2), "docs/index.md": ("1" * 40, T1)}))
    assert one == two and one.endswith(b"\n") and one.count(b"\n") == 1
    assert b"index.md" not in one and b"docs/" not in one and b"mod.py" not in one
    data = json.loads(one)
    assert list(data) == sorted(data)
    assert data["format"] == "mkdocs-sitemap-pro manifest" and data["version"] == 1
    assert data["options"] == {"git_history": "first-parent", "git_date": "committer",
                               "ignore_commits": ["a" * 40, "b" * 40]}
    assert data["files"][path_key(b"docs/index.md")] == ["1" * 40, int(T1.timestamp())]
    # What json.dumps writes itself, keys sorted (the files part is written by hand).
    assert one == json.dumps(data, sort_keys=True, separators=(",", ":")).encode() + b"\n"


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_bytes_written_in_parts_are_json_dumps_of_the_whole(
        monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    # The files part is written a few entries at a time (2 here): the same bytes.
    monkeypatch.setattr(manifest_module, "_FILES_PER_CHUNK", 2)
    files = {f"docs/{n}.md": (f"{n}" * 40, T1 if n % 2 else T2) for n in range(count)}
    written = manifest(**files)._replace(left_out=frozenset({path_key(b"hidden/")}))
    raw = manifest_bytes(written)
    # the head, "{", the parts, "}", the rest of the head, the final newline
    assert len(list(manifest_module.manifest_chunks(written))) == 5 + (count + 1) // 2
    data = json.loads(raw)
    assert len(data["files"]) == count
    assert raw == json.dumps(data, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def test_round_trip() -> None:
    written = manifest(**{"docs/index.md": ("1" * 40, T1), "docs/a.md": ("3" * 40, T2)})
    written = written._replace(left_out=frozenset({path_key(b"hidden/")}))
    raw = manifest_bytes(written)
    assert b"hidden" not in raw
    read = parse_manifest(raw)
    assert read.left_out == {path_key(b"hidden/")}
    assert read.commit == written.commit
    assert read.options.rule == "first-parent" and read.options.date == "committer"
    assert dict(read.files) == dict(written.files)
    assert read.files[path_key(b"docs/index.md")][1] == T1  # the same moment, in UTC


@pytest.mark.parametrize("data, says", [
    (b"not json", "not JSON"),
    (b"[]", "not a mkdocs-sitemap-pro manifest"),
    (b'{"format": "other"}', "not a mkdocs-sitemap-pro manifest"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 2}', "format version is 2"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 1, "commit": 3}', "lacks"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 1, "commit": "c", "files": {},'
     b' "options": {"git_history": "sideways", "git_date": "committer", "ignore_commits": []}}',
     "options are not valid"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 1, "commit": "c", "files": {},'
     b' "options": {"git_history": "all", "git_date": "committer", "ignore_commits": "x"}}',
     "ignore_commits"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 1, "commit": "c",'
     b' "options": {"git_history": "all", "git_date": "author", "ignore_commits": []},'
     b' "files": {"k": ["oid"]}}', "is not [object id, seconds]"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 1, "commit": "c",'
     b' "options": {"git_history": "all", "git_date": "author", "ignore_commits": []},'
     b' "files": {"k": ["oid", "2024-01-01T00:00:00+00:00"]}}', "is not [object id, seconds]"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 1, "commit": "c",'
     b' "options": {"git_history": "all", "git_date": "author", "ignore_commits": []},'
     b' "files": {"k": ["oid", 99999999999999999999]}}', "no valid date"),
    (b"[" * 100_000 + b"]" * 100_000, "not JSON"),
    (b'{"format": "mkdocs-sitemap-pro manifest", "version": 1, "commit": "c", "files": {},'
     b' "options": {"git_history": "all", "git_date": "author", "ignore_commits": []},'
     b' "left_out": "x"}', "left_out is not a list"),
])
def test_a_bad_manifest_is_refused_saying_why(data: bytes, says: str) -> None:
    with pytest.raises(ManifestError, match=re.escape(says)):
        parse_manifest(data)


def test_too_large_is_refused_before_parsing() -> None:
    with pytest.raises(ManifestError, match="larger than"):
        parse_manifest(b" " * (MAX_BYTES + 1))


def test_carry_dates_only_what_history_could_not() -> None:
    head = Known(dt.datetime(2024, 7, 1, tzinfo=UTC), "h" * 40)
    previous = manifest(**{"same.md": ("s" * 40, T1), "changed.md": ("old" + "0" * 37, T1),
                           "recent.md": ("r" * 40, T1)})
    changes = {
        b"same.md": Unknown("shallow"),  # content as recorded: the recorded date
        b"changed.md": Unknown("shallow"),  # other content: the bound
        b"new.md": Unknown("shallow"),  # not recorded: the bound
        b"recent.md": Known(T2, "k" * 40),  # history knows: untouched
        b"gone.md": Unknown("ignored"),  # another reason: untouched
    }
    objects = {b"same.md": "s" * 40, b"changed.md": "new" + "0" * 37, b"new.md": "n" * 40,
               b"recent.md": "x" * 40}
    carried = carry(changes, objects, previous, head)
    assert carried.changes[b"same.md"] == Known(T1, previous.commit)
    assert carried.changes[b"changed.md"] == head
    assert carried.changes[b"new.md"] == head
    assert carried.changes[b"recent.md"] == Known(T2, "k" * 40)
    assert carried.changes[b"gone.md"] == Unknown("ignored")
    assert (carried.carried, carried.changed) == (1, 1)
    # Without a bound, what cannot be carried stays undated; the input is not changed.
    unbound = carry(changes, objects, previous, None)
    assert unbound.changes[b"changed.md"] == Unknown("shallow")
    assert changes[b"same.md"] == Unknown("shallow")
