"""Pages other plugins make or fill, dated by the lines they render (``dependencies:
lines``, the default), not by the whole file those lines live in: real MkDocs builds with
the real plugins.

- mkdocs-gen-files: a generated page whose script calls ``set_edit_path`` is dated as the
  same ``:::`` block on a hand-written page is (the edit path is a link, not shown).
- mkdocs-click: a page is dated by the commands it renders (decorators, signature,
  docstring), not by an internal function of the same module.

Every expected date is the commit that changed a rendered line; a later commit outside
them must move no page.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from tests.support.dates import day, utc
from tests.support.sites import SITE_URL, Built, Site


def _lastmods(built: Built) -> dict[str, str | None]:
    assert built.error is None, built.messages()
    return {loc.removeprefix(SITE_URL): fields.get("lastmod")
            for loc, fields in built.sitemap().items()}


def _edit(site: Site, rel: str, old: str, new: str, date: str) -> None:
    path = site.root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    site.commit(f"edit {rel}", date)


# ------------------------------------------------------------------ mkdocs-gen-files

GEN_SCRIPT = '''
import mkdocs_gen_files

for name, edit in (("edited", "../src/pkg/mod.py"), ("plain", None)):
    with mkdocs_gen_files.open(f"reference/{name}.md", "w") as fd:
        fd.write("::: pkg.mod\\n")
    if edit:
        mkdocs_gen_files.set_edit_path(f"reference/{name}.md", edit)
'''

MOD = '''\
"""The module."""

import os


def one() -> int:
    """One."""
    return len(os.sep)
'''


def test_a_generated_page_with_an_edit_path_is_dated_by_the_lines_it_renders(site: Site) -> None:
    """pawamoy's git-changelog providers page: an imports-only commit re-dated it."""
    site.config["plugins"] = [
        "search",
        {"gen-files": {"scripts": ["gen_pages.py"]}},
        {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
        {"sitemap-pro": {}},
    ]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("written.md", "# Written\n\n::: pkg.mod\n")  # the same block, by hand
    site.repo.write("gen_pages.py", GEN_SCRIPT)
    site.repo.write("src/pkg/__init__.py", "")
    site.repo.write("src/pkg/mod.py", MOD)
    site.commit("site", day(1))
    _edit(site, "src/pkg/mod.py", '"""One."""', '"""One, said better."""', day(5))
    _edit(site, "src/pkg/mod.py", "import os\n", "import os\nimport sys\n", day(9))
    built = site.build(strict=True)
    assert "One, said better." in (built.site_dir / "reference/edited/index.html").read_text()
    got = _lastmods(built)
    shown = utc(day(5))  # the docstring's commit; the imports' (day 9) shows nothing
    assert {page: got[page] for page in ("written/", "reference/plain/", "reference/edited/")} \
        == dict.fromkeys(("written/", "reference/plain/", "reference/edited/"), shown)
    assert got[""] == utc(day(1))
