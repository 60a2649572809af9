"""Files of the system a page's code reads (``/proc``, ``/sys``, ``/dev``) date no page.

``/proc/cpuinfo`` has a size of 0, so git hashes it as the empty blob: it was taken for
a copy of any empty tracked file (an ``__init__.py``) and the page read it was dated by
that file. A real ``mkdocs build`` whose hook reads ``/proc/cpuinfo`` (and ``/dev/null``)
while one page converts, beside an empty ``__init__.py`` committed later.
"""

from __future__ import annotations

import json
import logging
import os

import pytest

from tests.support.dates import day, utc
from tests.support.sites import SITE_URL, Site

pytestmark = pytest.mark.skipif(not os.path.isfile("/proc/cpuinfo"), reason="no /proc")

HOOK = '''
def on_page_markdown(markdown, page, **kwargs):
    """The processors of this machine, on the page about them."""
    if page.file.src_uri != "machine.md":
        return markdown
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        count = sum(1 for line in info if line.startswith("processor"))
    with open("/dev/null", encoding="utf-8") as nothing:
        nothing.read()
    return markdown + f"\\n{count} processor(s).\\n"
'''


def test_a_page_reading_proc_keeps_its_own_date(site: Site) -> None:
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("hooks.py", HOOK)
    site.page("index.md", "# Home\n")
    site.page("machine.md", "# Machine\n")
    site.config.update(hooks=["hooks.py"])
    site.write_config()
    site.commit("pages", day(1))
    site.repo.write("src/pkg/__init__.py", "")  # empty, tracked, newer than every page
    site.commit("a package", day(5))

    built = site.build(strict=True)

    assert built.error is None, built.messages()
    assert "processor(s)." in (built.site_dir / "machine/index.html").read_text(encoding="utf-8")
    dates = {loc: fields["lastmod"] for loc, fields in built.sitemap().items()}
    assert dates == {SITE_URL: utc(day(1)), SITE_URL + "machine/": utc(day(1))}
    debug = built.messages(logging.DEBUG)
    assert not any("twin" in message for message in debug), debug
    # The hook rewrote the page, so hooks.py shows too (committed with it): no file newer.
    assert any("page 'machine.md': dated by its own source" in m for m in debug), debug
    # Nor is a system file kept as something the page shows, for the next build.
    cache = json.loads((site.root / ".cache/plugin/sitemap-pro/dependencies.json").read_text())
    kept = json.dumps(cache["pages"]["machine.md"])
    assert "cpuinfo" not in kept and "null" not in kept, kept
