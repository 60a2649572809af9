"""The documentation site (docs/) is held to the code: every option of SitemapProConfig
has a description and a row in the options page, with the type and default the code
declares; the site builds with --strict, and check --strict passes on what it wrote."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from tests.support import REPO

DOCS = REPO / "docs"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("options_table", DOCS / "hooks" / "options_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OPTIONS = [name for name, _ in SitemapProConfig._schema]


def test_every_option_has_a_description_and_no_description_is_of_no_option() -> None:
    described = _hook().descriptions()
    assert sorted(described) == sorted(OPTIONS)
    assert all(len(text) > 10 for text in described.values())


def test_the_table_has_one_row_per_option_with_the_code_s_default() -> None:
    hook = _hook()
    rows = [line for line in hook.table().splitlines() if line.startswith("| `")]
    assert [re.match(r"\| `([^`]+)`", row).group(1) for row in rows] == OPTIONS  # type: ignore[union-attr]
    by_name = dict(zip(OPTIONS, rows))
    assert "| `50000` |" in by_name["max_urls"] and "1..50,000" in by_name["max_urls"]
    assert "`first-parent` \\| `all`" in by_name["git_history"]
    assert "| unset |" in by_name["previous"]


def test_an_option_without_a_description_stops_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs.exceptions import PluginError

    hook = _hook()
    described = hook.descriptions()
    del described["feed_size"]
    monkeypatch.setattr(hook, "descriptions", lambda: described)
    with pytest.raises(PluginError, match="feed_size"):
        hook.table()


def test_the_options_page_holds_the_table_and_it_is_the_code_s() -> None:
    """The table is in the page's source (it reads right in the repository), equal to
    the one the code makes, with every option's name and default as config.py has them."""
    hook = _hook()
    page = (DOCS / "pages" / "options.md").read_text(encoding="utf-8")
    written = hook.table_in(page)
    assert written == hook.table()
    rows = [row.split(" | ") for row in written.splitlines() if row.startswith("| `")]
    assert [row[0].removeprefix("| `").removesuffix("`") for row in rows] == OPTIONS
    for (name, option), row in zip(SitemapProConfig._schema, rows):
        default = option.default
        shown = "unset" if default is None else (
            f"`{default}`" if isinstance(default, str) else f"`{json.dumps(default)}`")
        assert row[2] == shown, (name, row[2], default)


def test_a_page_whose_table_drifted_from_the_code_stops_the_build() -> None:
    from mkdocs.exceptions import PluginError

    hook = _hook()
    page = (DOCS / "pages" / "options.md").read_text(encoding="utf-8")
    drifted = page.replace("| `max_urls` | integer, 1..50,000 | `50000` |",
                           "| `max_urls` | integer, 1..50,000 | `40000` |")
    assert drifted != page

    class _Page:
        class file:
            src_uri = "options.md"

    with pytest.raises(PluginError, match="options_table.py"):
        hook.on_page_markdown(drifted, _Page())
    assert hook.TABLE_START not in hook.on_page_markdown(page, _Page())


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="the site's dates need a git clone")
def test_the_site_builds_strict_and_passes_check_strict(tmp_path: Path) -> None:
    out = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(DOCS / "mkdocs.yml"), "-d", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=300, env=env,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    options_page = (out / "options" / "index.html").read_text(encoding="utf-8")
    for name in OPTIONS:
        assert f"<td><code>{name}</code></td>" in options_page, name
    assert "## [Unreleased]" not in (out / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Unreleased" in (out / "changelog" / "index.html").read_text(encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "mkdocs_sitemap_pro", "check", "--strict", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
    assert (out / "sitemap.atom").is_file()
