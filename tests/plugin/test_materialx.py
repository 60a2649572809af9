"""MaterialX (mkdocs-materialx, theme ``materialx``, a fork of Material 9.7) is treated
as Material is: ``show_date`` puts the date where Material's templates read it, and the
instant-navigation advice is given. Real builds where MaterialX is installed; its
import package is ``material``, as Material's is, so the two cannot be installed
side by side and it is not in the test extra (run these with it first on PYTHONPATH)."""

from __future__ import annotations

import datetime as dt
from importlib.metadata import entry_points

import pytest
from babel.dates import format_date

from tests.support.dates import D1, D2
from tests.support.sites import SITE_URL, Site

pytestmark = pytest.mark.skipif(
    not entry_points(group="mkdocs.themes", name="materialx"),
    reason="mkdocs-materialx is not installed (it replaces Material's import package)",
)

# A page template that prints what Material's "last update" fact reads.
_SHOWS = "{% extends 'main.html' %}{% block content %}{{ super() }}" \
    "<p id='shown'>{{ page.meta.revision_date }}</p>{% endblock %}"


def test_materialx_gets_show_date_and_the_instant_navigation_advice(site: Site) -> None:
    site.repo.write("overrides/shown.html", _SHOWS)
    site.page("index.md", "---\ntemplate: shown.html\n---\n# Home\n")
    site.commit("home", D1)
    site.page("a.md", "---\ntemplate: shown.html\n---\n# A\n")
    site.commit("a", D2)
    site.config["theme"] = {"name": "materialx", "custom_dir": "overrides",
                            "features": ["navigation.instant"]}
    site.set_options(index="always", show_date=True)
    built = site.build()
    assert built.error is None, built.messages()
    assert any("navigation.instant" in m for m in built.messages())
    lastmods = built.sitemap("sitemap-1.xml")
    assert len(lastmods) == 2
    for loc, entry in lastmods.items():
        page = built.site_dir / loc[len(SITE_URL):] / "index.html"
        text = page.read_text(encoding="utf-8")
        shown = text.split("<p id='shown'>", 1)[1].split("</p>", 1)[0]
        # Babel's long English date of the sitemap's day, e.g. "January 10, 2024".
        day = dt.date.fromisoformat(entry["lastmod"][:10])
        assert shown == format_date(day, format="long", locale="en"), (loc, shown)
