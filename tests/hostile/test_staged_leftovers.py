"""Temporary files in site_dir (issue 42, experiment 10): one glob names them all, a build
that stops on an error leaves none, and the next build removes what a killed one left."""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path
from typing import BinaryIO

import pytest

from mkdocs_sitemap_pro.core import atomic
from tests.support.dates import D1
from tests.support.files import temporaries
from tests.support.sites import Site

KEY = "0123456789abcdef0123456789abcdef"


class _Interrupted:
    """A real file whose first write is interrupted (Ctrl-C while the build writes it)."""

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle

    def write(self, data: bytes) -> int:
        self._handle.write(bytes(data[:10]))
        raise KeyboardInterrupt

    def __enter__(self) -> _Interrupted:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()

    def __getattr__(self, name: str) -> object:
        return getattr(self._handle, name)


def _interrupt(monkeypatch: pytest.MonkeyPatch, final: str) -> list[str]:
    """Interrupt the first write of the temporary file for ``final``; return every
    temporary name opened."""
    opened: list[str] = []
    real_open = atomic.open_new

    def open_new(path: Path) -> BinaryIO:
        opened.append(path.name)
        handle = real_open(path)
        if path.name.startswith(f".{final}."):
            return _Interrupted(handle)  # type: ignore[return-value]
        return handle

    monkeypatch.setattr(atomic, "open_new", open_new)
    return opened


@pytest.mark.parametrize("final", ["sitemap-1.xml", "sitemap.manifest.json", "robots.txt",
                                   f"{KEY}.txt"])
def test_a_build_interrupted_while_writing_leaves_no_temporary_file(
    site: Site, monkeypatch: pytest.MonkeyPatch, final: str
) -> None:
    site.page("index.md")
    site.page("a.md")
    site.commit("first", D1)
    site.set_options(indexnow_key=KEY)
    opened = _interrupt(monkeypatch, final)
    built = site.build()
    assert isinstance(built.error, KeyboardInterrupt), built.error
    assert any(name.startswith(f".{final}.") for name in opened), opened
    assert temporaries(built.site_dir) == []
    # Every temporary name the build used in site_dir is one a deploy step can exclude.
    assert opened and all(fnmatch(name, atomic.TEMP_GLOB) for name in opened), opened


def test_the_next_build_removes_what_a_killed_build_left(site: Site) -> None:
    """SIGKILL leaves a temporary file of whatever was being written, in this or (from
    0.1.0) the older form; the next build removes each, and nothing else."""
    site.page("index.md")
    site.commit("first", D1)
    site.set_options(indexnow_key=KEY)
    first = site.build()
    assert first.error is None, first.messages()
    left = [".sitemap.manifest.json.tmp-0123456789ab", ".sitemap.manifest.json.0a1b2c3d.tmp",
            f".{KEY}.txt.tmp-0123456789ab", f".{KEY}.txt.0a1b2c3d.tmp",
            ".sitemap.xml.tmp-0123456789ab", ".robots.txt.bak.tmp-0123456789ab"]
    for name in left:
        (first.site_dir / name).write_text("half")
    (first.site_dir / ".notes.tmp-0123456789ab").write_text("not ours")
    built = site.build(dirty=True)  # mkdocs' clean step would keep hidden files anyway
    assert built.error is None, built.messages()
    assert temporaries(built.site_dir) == [".notes.tmp-0123456789ab"]
