"""``check --strict`` finds nothing in our own correct output (issue: no finding, ever).

Real builds of sites whose pages the plugin leaves out on purpose (front matter, the
``exclude`` option, redirect stubs, translation fallbacks, a blog), each checked as a
user would, from the built folder.
"""

from __future__ import annotations

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.plugin.test_i18n import make_site as make_i18n_site
from tests.support.dates import D1, D2
from tests.support.sites import SITE_URL, Site


def check_strict(site_dir, capsys) -> str:  # type: ignore[no-untyped-def]
    status = main(["check", "--strict", str(site_dir)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.rstrip().endswith("no problem found"), out
    return out


def test_pages_left_out_on_purpose_are_not_unlisted(site: Site, capsys) -> None:  # type: ignore[no-untyped-def]
    site.page("index.md", "# Home\n")
    site.page("kept.md", "# Kept\n")
    site.page("hidden.md", "---\nsitemap: false\n---\n# Hidden\n")
    site.page("hidden2.md", "---\nsitemap:\n  exclude: true\n---\n# Hidden too\n")
    site.page("private.md", "---\nrobots: noindex\n---\n# Private\n")  # the theme prints no meta
    site.page("internal/notes.md", "# Notes\n")
    site.page("old.md", "# Old\n")
    site.page("new.md", "# New\n")
    site.commit("first", D1)
    site.config["plugins"] = [{"redirects": {"redirect_maps": {"old.md": "new.md"}}},
                              {"sitemap-pro": {"exclude": ["internal/"]}}]
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert sorted(built.sitemap()) == [SITE_URL, SITE_URL + "kept/", SITE_URL + "new/"]
    for page in ("hidden", "hidden2", "private", "internal/notes"):
        assert (built.site_dir / page / "index.html").is_file()  # built, on the site
    check_strict(built.site_dir, capsys)
    # Without the manifest, the checker cannot know: it says so (the test can fail).
    (built.site_dir / "sitemap.manifest.json").unlink()
    assert main(["check", "--strict", str(built.site_dir)]) == 1
    assert "4 built pages are not in the sitemap" in capsys.readouterr().out


@pytest.mark.parametrize("layout", ["folder", "suffix"])
def test_a_translated_site_with_fallback_copies(site: Site, capsys, layout: str) -> None:  # type: ignore[no-untyped-def]
    make_i18n_site(site, layout, "after")
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert (built.site_dir / "de/about/index.html").is_file()  # a fallback copy, not listed
    check_strict(built.site_dir, capsys)


def test_a_blog(site: Site, capsys) -> None:  # type: ignore[no-untyped-def]
    site.config.update(theme={"name": "material"}, plugins=["blog", {"sitemap-pro": {}}])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("blog/index.md", "# Blog\n")
    for n in (1, 2):
        site.page(f"blog/posts/p{n}.md", f"---\ndate: 2024-01-0{n}\n---\n# Post {n}\n\nText.\n")
    site.commit("first", D1)
    site.page("blog/posts/p2.md", "---\ndate: 2024-01-02\n---\n# Post 2\n\nEdited.\n")
    site.commit("edit", D2)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    check_strict(built.site_dir, capsys)


def test_theme_templates_kept_inside_docs_are_not_pages(site: Site, capsys) -> None:  # type: ignore[no-untyped-def]
    # textual and dbt-bouncer keep theme.custom_dir inside docs_dir: MkDocs copies the
    # templates into the site as plain files, which are not pages.
    site.config.update(theme={"name": "material", "custom_dir": "docs/overrides"})
    site.write_config()
    site.page("index.md", "# Home\n")
    site.repo.write("docs/overrides/main.html",
                    '{% extends "base.html" %}\n{% block content %}{{ super() }}{% endblock %}\n')
    site.repo.write("docs/overrides/partials/footer.html", '<footer class="md-footer">x</footer>\n')
    site.commit("first", D1)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert (built.site_dir / "overrides/main.html").is_file()  # copied, as MkDocs does
    check_strict(built.site_dir, capsys)
    # A real page left unlisted is still found (the rule can fail).
    (built.site_dir / "overrides/page.html").write_text(
        "<!doctype html><html><head><title>x</title></head><body></body></html>", encoding="utf-8")
    assert main(["check", "--strict", str(built.site_dir)]) == 1
    assert "1 built page is not in the sitemap" in capsys.readouterr().out
