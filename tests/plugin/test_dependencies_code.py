"""A page the site's own code rewrote is dated by that code and the modules it imports.

Real ``mkdocs build`` runs (a fresh process each: the modules are imported at start-up,
as in CI) of a site whose ``hooks:`` module imports a data module of the repository at
start-up and writes a table from it into one page. The data module is never read while
a page converts, so no observation of reads sees it: the page must be dated by the code
that rewrote it, and only that page.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

from tests.support.dates import day, utc
from tests.support.sites import SITE_URL, Built, Site

HOOK = '''"""Writes the table of rows into the page that asks for it."""
from mydata import ROWS


def on_page_markdown(markdown, page, **kwargs):
    table = "| Name | Since |\\n|---|---|\\n" + "\\n".join(f"| {n} | {s} |" for n, s in ROWS)
    return markdown.replace("<!-- rows -->", table)  # every page: only one asks
'''

DATA = 'ROWS = [\n    ("alpha", "1.0"),\n]\n'

PAGES = {
    "index.md": "# Home\n\nWelcome.\n",
    "table.md": "# Rows\n\n<!-- rows -->\n",
    "other.md": "# Other\n\nNo table here.\n",
}


def _site(site: Site) -> None:
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("hooks/table.py", HOOK)
    site.repo.write("hooks/mydata.py", DATA)
    for name, text in PAGES.items():
        site.page(name, text)
    site.config["hooks"] = ["hooks/table.py"]
    site.write_config()
    site.commit("pages, the hook and its data", day(1))


def _build(site: Site, *path: Path) -> tuple[dict[str, str], str]:
    """The real ``mkdocs build -v`` (``path``: on ``PYTHONPATH`` too): each page's
    lastmod, and what it logged."""
    run = site.cli("build", "--strict", "-v", env={"PYTHONPATH": _our_path(*path)})
    assert run.returncode == 0, run.stderr
    urls = Built(site.root / "site").sitemap()
    return {loc.removeprefix(SITE_URL): entry["lastmod"] for loc, entry in urls.items()}, \
        run.stderr


def _our_path(*path: Path) -> str:
    """This checkout's package first, as the test's own process imports it."""
    import mkdocs_sitemap_pro

    ours = str(Path(mkdocs_sitemap_pro.__file__).parent.parent)
    return os.pathsep.join(filter(None, [ours, *map(str, path),
                                         os.environ.get("PYTHONPATH", "")]))


def test_a_row_added_to_data_a_hook_imported_at_start_up_dates_the_page(site: Site) -> None:
    _site(site)
    site.repo.write("hooks/mydata.py", DATA.replace("]", '    ("beta", "2.0"),\n]'))
    site.commit("a row", day(4))
    lastmods, log = _build(site)
    html = (site.root / "site/table/index.html").read_text(encoding="utf-8")
    assert "<td>beta</td>" in html  # the row is shown
    assert lastmods == {"": utc(day(1)), "table/": utc(day(4)), "other/": utc(day(1))}
    assert ("DEBUG   -  sitemap-pro: page 'table.md': dated by the code that rewrote it, "
            "hooks/mydata.py") in log
    assert ("sitemap-pro: page 'table.md': rewritten by code of the site: hooks/mydata.py, "
            "hooks/table.py") in log
    # Pages the hook left as they were are not dated by it, nor said to be.
    assert "page 'other.md': rewritten" not in log and "page 'index.md': rewritten" not in log
    assert "1 by the code that rewrote it" in log


def test_an_edit_to_the_hook_itself_dates_the_page_it_rewrites(site: Site) -> None:
    _site(site)
    site.repo.write("hooks/table.py", HOOK.replace("(f\"| {n}", "(f\"| {n.title()}"))
    site.commit("the hook writes names capitalised", day(6))
    lastmods, log = _build(site)
    html = (site.root / "site/table/index.html").read_text(encoding="utf-8")
    assert "<td>Alpha</td>" in html
    assert lastmods == {"": utc(day(1)), "table/": utc(day(6)), "other/": utc(day(1))}
    assert "sitemap-pro: page 'table.md': dated by the code that rewrote it, hooks/table.py" \
        in log


def test_a_page_the_hook_does_not_change_keeps_its_own_date(site: Site) -> None:
    """The hook runs on every page; the one whose text it returns unchanged, or as an
    equal new string, is dated by its source alone, whatever the hook's commits."""
    _site(site)
    site.repo.write("hooks/table.py", HOOK + '''

def on_page_content(html, page, **kwargs):
    return str(html + " ")[:-1]  # an equal text, in a new string
''')
    site.commit("the hook copies the HTML", day(3))
    lastmods, log = _build(site)
    assert lastmods == {"": utc(day(1)), "table/": utc(day(3)), "other/": utc(day(1))}
    assert "page 'other.md': dated by its source docs/other.md" in log
    assert "page 'other.md': rewritten" not in log


def test_a_data_file_read_as_the_hook_loads_dates_the_page(site: Site) -> None:
    """The data module reads a JSON file when it is imported (the hook's start-up):
    a row added to that file re-dates the page the hook writes it into."""
    _site(site)
    site.repo.write("hooks/rows.json", '[["alpha", "1.0"]]\n')
    site.repo.write("hooks/mydata.py", "import json\nfrom pathlib import Path\n\n"
                    "ROWS = json.loads((Path(__file__).parent / 'rows.json').read_text())\n")
    site.commit("rows as JSON", day(2))
    site.repo.write("hooks/rows.json", '[["alpha", "1.0"], ["beta", "2.0"]]\n')
    site.commit("a row", day(7))
    lastmods, log = _build(site)
    assert "<td>beta</td>" in (site.root / "site/table/index.html").read_text(encoding="utf-8")
    assert lastmods == {"": utc(day(1)), "table/": utc(day(7)), "other/": utc(day(1))}
    assert "sitemap-pro: page 'table.md': dated by the code that rewrote it, hooks/rows.json" \
        in log


PLUGIN = '''"""A plugin of the repository itself: writes the rows into the page that asks."""
from mkdocs.plugins import BasePlugin

from .rows import ROWS


class RowsPlugin(BasePlugin):
    def on_page_markdown(self, markdown, page, **kwargs):
        return markdown.replace("<!-- rows -->", ", ".join(name for name, _ in ROWS))
'''


def test_a_plugin_installed_from_the_repository_is_code_of_the_site(
    site: Site, tmp_path: Path
) -> None:
    """As an editable install leaves it: the distribution's metadata among installed
    packages, its code in the repository (relative imports inside its package)."""
    _site(site)
    site.repo.write("tools/rowsplugin/__init__.py", "")
    site.repo.write("tools/rowsplugin/plugin.py", PLUGIN)
    site.repo.write("tools/rowsplugin/rows.py", DATA)
    site.config["hooks"] = []
    site.config["plugins"] = ["rows", *site.config["plugins"]]
    site.write_config()
    site.commit("the plugin", day(2))
    site.repo.write("tools/rowsplugin/rows.py", DATA.replace("]", '    ("beta", "2.0"),\n]'))
    site.commit("a row", day(5))
    info = tmp_path / "installed/rowsplugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rowsplugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[mkdocs.plugins]\nrows = rowsplugin.plugin:RowsPlugin\n")
    lastmods, log = _build(site, info.parent, site.root / "tools")
    assert "alpha, beta" in (site.root / "site/table/index.html").read_text(encoding="utf-8")
    assert lastmods == {"": utc(day(1)), "table/": utc(day(5)), "other/": utc(day(1))}
    assert ("sitemap-pro: page 'table.md': rewritten by code of the site: "
            "tools/rowsplugin/plugin.py, "
            "tools/rowsplugin/rows.py") in log


def test_handlers_are_watched_once_and_keep_what_mkdocs_knows_of_them(site: Site) -> None:
    """A collection watched again (the next build of ``mkdocs serve``) is not wrapped
    twice; MkDocs still names the hook in its DEBUG lines and orders by its priority.
    Installed plugins' handlers are left as they are."""
    from mkdocs.config import load_config

    from mkdocs_sitemap_pro.plugin.dependencies.rewriters import Rewriters

    _site(site)
    config = load_config(str(site.root / "mkdocs.yml"))
    plugins = config.plugins
    before = list(plugins.events["page_markdown"])
    content = list(plugins.events["page_content"])
    rewriters = Rewriters()
    rewriters.watch(plugins)
    rewriters.watch(plugins)
    after = plugins.events["page_markdown"]
    assert rewriters.watching and len(after) == len(before)
    hook = [h for h in after if h not in before]
    assert len(hook) == 1 and getattr(hook[0], "handler") in before  # one layer
    assert plugins._event_origins[hook[0]] == "hooks/table.py"
    assert getattr(hook[0], "mkdocs_priority", 0) == 0
    assert plugins.events["page_content"] == content  # ours only: left as it is
    # A copied collection (a plugin copying the config) keeps its hook watched.
    copied = copy.deepcopy(hook[0])
    assert type(copied) is type(hook[0]) and getattr(copied, "rewriters") is rewriters
