"""RealPaths agrees with os.path.realpath: folder symlinks at any depth, file symlinks."""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs_sitemap_pro.core.page.realpaths import RealPaths


def test_real_paths_agree_with_realpath(tmp_path: Path) -> None:
    real = tmp_path / "real" / "a" / "b"
    real.mkdir(parents=True)
    (real / "page.md").write_text("x")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "target.md").write_text("y")
    os.symlink(tmp_path / "real" / "a", tmp_path / "link-a")  # a folder symlink
    os.symlink(tmp_path / "link-a" / "b", tmp_path / "real" / "b-again")  # via a link
    os.symlink(tmp_path / "elsewhere" / "target.md", real / "linked.md")  # a file symlink
    paths = [
        real / "page.md",
        tmp_path / "link-a" / "b" / "page.md",
        tmp_path / "real" / "b-again" / "page.md",
        tmp_path / "link-a" / "b" / "linked.md",
        tmp_path / "link-a" / "missing" / "new.md",  # not there: left as given below
        tmp_path / "real" / "a" / "b",
    ]
    resolver = RealPaths()
    for path in paths * 2:  # the second pass answers from the cache
        assert resolver.file(str(path)) == os.path.realpath(path), path
    assert resolver.folder(str(tmp_path / "link-a")) == os.path.realpath(tmp_path / "link-a")
