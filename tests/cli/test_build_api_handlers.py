"""``:::`` blocks of mkdocstrings handlers other than python under
``mkdocs-sitemap-pro build``, which runs none of them: a block whose identifier names a
file (mkdocstrings-shell's ``::: scripts/tool.sh``) dates its page by that file; any
other is left out of the page's date, said at DEBUG and counted on the INFO line. The
plugin under ``mkdocs build`` sees both: it observes what the handler reads.
"""

from __future__ import annotations

import pytest

from tests.cli.test_build import needs_zensical, run_build
from tests.cli.test_build_api import _dates, _site
from tests.cli.test_build_config import SUMMARY, zensical_build
from tests.support.dates import D1, D2, D3, utc
from tests.support.sites import SITE_URL, Site

SCRIPT = """\
#!/bin/bash
## \\brief A tool.
## \\desc Does things.

## \\function hello
## \\function-brief Say hello.
hello() { echo hi; }
"""

# A handler of the site's own, whose identifiers are names, not paths: `::: Thing`
# renders symbols/Thing.txt.
HANDLER = '''\
"""``::: Name`` renders the text of ``symbols/Name.txt``."""
from pathlib import Path

from mkdocstrings import BaseHandler


class NamesHandler(BaseHandler):
    name = "names"
    domain = "names"

    def get_options(self, local_options):
        return dict(local_options)

    def collect(self, identifier, options):
        return Path("symbols", f"{identifier}.txt").read_text()

    def render(self, data, options, *, locale=None):
        return f"<p>{data}</p>"


def get_handler(handler_config, tool_config, **kwargs):
    return NamesHandler(**kwargs)
'''


@needs_zensical
def test_a_shell_block_dates_its_page_by_the_script(site: Site, monkeypatch, capsys) -> None:
    pytest.importorskip("mkdocstrings_handlers.shell")
    _site(site, "lines")
    site.repo.write("scripts/tool.sh", SCRIPT)
    site.page("tool.md", "# Tool\n\n::: scripts/tool.sh\n    handler: shell\n")
    site.commit("first", D1)
    site.repo.write("scripts/tool.sh", SCRIPT.replace("Say hello.", "Say hello twice."))
    site.commit("script", D3)

    zensical_build(site)
    assert "Say hello twice." in (site.root / "site" / "tool" / "index.html").read_text()
    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    assert _dates(site)[SITE_URL + "tool/"] == utc(D3)
    assert "1 by the whole files of the API objects it shows" in capsys.readouterr().err

    built = site.build(strict=True)  # the plugin, under MkDocs: the same date
    assert built.error is None, built.messages()
    assert built.sitemap()[SITE_URL + "tool/"]["lastmod"] == utc(D3)


@needs_zensical
def test_a_block_build_cannot_follow_is_said(site: Site, monkeypatch, capsys) -> None:
    _site(site, "lines")
    site.repo.write("mkdocstrings_handlers/names/__init__.py", HANDLER)
    for theme in ("material", "mkdocs"):  # mkdocstrings wants a templates folder
        site.repo.write(f"mkdocstrings_handlers/names/templates/{theme}/.keep", "")
    site.repo.write("symbols/Thing.txt", "Thing's text.\n")
    site.page("thing.md", "# Thing\n\n::: Thing\n    handler: names\n")
    site.commit("first", D1)
    site.page("index.md", "# Home, changed\n")
    site.commit("home", D2)
    site.repo.write("symbols/Thing.txt", "Thing's text, changed.\n")
    site.commit("symbol", D3)

    zensical_build(site)
    assert "Thing's text, changed." in (site.root / "site" / "thing" / "index.html").read_text()
    assert run_build(site, monkeypatch, "-v") == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert _dates(site)[SITE_URL + "thing/"] == utc(D1)  # its own file: the block unseen
    assert f"{SUMMARY}2 URLs in 1 file (sitemap.xml, .gz, .html); lastmod: 2 git " \
           "(1 with a ::: block not followed)" in err, err
    assert "page 'thing.md': its '::: Thing' block (handler names) is not followed" in err

    monkeypatch.syspath_prepend(str(site.root))
    built = site.build(strict=True)  # the plugin observes the handler's read
    assert built.error is None, built.messages()
    assert built.sitemap()[SITE_URL + "thing/"]["lastmod"] == utc(D3)
