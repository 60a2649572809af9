"""MaterialX (mkdocs-materialx, theme ``materialx``, a fork of Material 9.7) is treated
as Material is: ``show_date`` puts the date where Material's templates read it, and the
instant-navigation advice is given. Real builds where MaterialX is installed.

Its import package is ``material``, as Material's is, so the two cannot be installed
side by side and it is not in the test extra. ``.ci/run`` installs it into a folder of
its own, puts that folder first on PYTHONPATH and runs this file with
``SITEMAP_PRO_TEST_MATERIALX=1``: then a missing MaterialX fails the test; without the
variable it is skipped, saying why.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest
from babel.dates import format_date

from tests.support.dates import D1, D2
from tests.support.sites import SITE_URL, Site

# Set by .ci/run's MaterialX step: there the test must run, never skip.
REQUIRED = "SITEMAP_PRO_TEST_MATERIALX"


def _materialx_absent() -> str | None:
    """Why MaterialX's templates are not the ones imported here, or None if they are."""
    try:
        dist = distribution("mkdocs-materialx")
    except PackageNotFoundError:
        return "mkdocs-materialx is not installed"
    spec = importlib.util.find_spec("material")
    installed = Path(str(dist.locate_file(""))).resolve()
    if spec is None or spec.origin is None or Path(spec.origin).resolve().parents[1] != installed:
        return (f"mkdocs-materialx is installed in {installed}, but the import package "
                "`material` comes from elsewhere (Material's): put that folder first on PYTHONPATH")
    return None


@pytest.fixture(autouse=True)
def _materialx() -> None:
    absent = _materialx_absent()
    if absent is None:
        return
    if os.environ.get(REQUIRED):
        pytest.fail(f"{REQUIRED} is set, so MaterialX must be tested: {absent}", pytrace=False)
    pytest.skip(f"{absent}; it replaces Material's import package `material`, so .ci/run "
                f"tests it in a step of its own ({REQUIRED}=1)")


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
