"""What the import system reads while a page converts is none of the page's files.

Real builds of a site whose hook imports a helper module of the repository the first
time a page needs it, and asks ``importlib.metadata`` for a version, with a setuptools
editable install's import-hook entry on ``sys.path`` (relative, as its ``.pth`` puts it).
An import is made once per process, by whichever page comes first, and reads the source
only where no bytecode is cached (a fresh clone, CI): dated by it, one page of two would
move with every edit to the helper, and only in CI.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import sys
from pathlib import Path

import pytest

from tests.support.dates import day, utc
from tests.support.sites import SITE_URL, Site

HOOK = '''
import importlib
import importlib.metadata


def on_page_markdown(markdown, page, **kwargs):
    importlib.metadata.version("mkdocs")  # scans sys.path, the import hook's entry too
    shout = importlib.import_module("shouting").shout  # imported by the first page only
    return shout(markdown)
'''

HELPER = 'def shout(text):\n    """Louder."""\n    return text.replace("!", "!!")\n'

# setuptools' editable install: ``__editable__.<dist>.finder.__path_hook__`` on sys.path.
IMPORT_HOOK_ENTRY = "__editable__.demo-1.0.finder.__path_hook__"


def test_a_module_imported_while_a_page_converts_does_not_date_it(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("hooks/shouting_hook.py", HOOK)
    site.repo.write("tools/shouting.py", HELPER)
    site.page("index.md", "# Home\n\nHello!\n")
    site.page("other.md", "# Other\n\nHi!\n")
    site.config["hooks"] = ["hooks/shouting_hook.py"]
    site.write_config()
    site.commit("pages", day(1))
    site.repo.write("tools/shouting.py", HELPER.replace('"""Louder."""', '"""Louder, twice."""'))
    site.commit("the helper's docstring", day(5))
    monkeypatch.setattr(sys, "path", [IMPORT_HOOK_ENTRY, str(site.root / "tools"), *sys.path])
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # as in a fresh clone: no .pyc
    monkeypatch.delitem(sys.modules, "shouting", raising=False)
    try:
        built = site.build(strict=True)
    finally:
        sys.modules.pop("shouting", None)
    assert built.error is None, built.messages()
    assert "Hello!!" in (built.site_dir / "index.html").read_text(encoding="utf-8")
    lastmods = {loc: entry["lastmod"] for loc, entry in built.sitemap().items()}
    # Each page by its own source: the helper's edit is shown by neither.
    assert lastmods == {SITE_URL: utc(day(1)), SITE_URL + "other/": utc(day(1))}
    # Nor are they files a page read, left out of its date as untracked.
    ours = [m for m in built.messages(logging.DEBUG) if m.startswith("sitemap-pro:")]
    assert not [m for m in ours if "shouting.py" in m or "__path_hook__" in m], ours


def test_a_module_read_to_be_shown_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an import is left out: a loader's ``get_source`` and ``pkgutil.get_data``
    (a page showing a module's text, a package's data) are reads like any other."""
    from mkdocs_sitemap_pro.core.page.reads import Observer

    package = tmp_path / "readpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "shown.py").write_text("X = 1\n")
    (package / "data.txt").write_text("data\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    observer = Observer()
    observer.open()
    try:
        module = importlib.import_module("readpkg.shown")
        assert observer.close() == set()  # imported: the import system's reads only
        observer.open()
        assert module.__loader__.get_source("readpkg.shown") == "X = 1\n"
        assert pkgutil.get_data("readpkg", "data.txt") == b"data\n"
        assert observer.close() == {str(package / "shown.py"), str(package / "data.txt")}
    finally:
        for name in ("readpkg.shown", "readpkg"):
            sys.modules.pop(name, None)
