"""A robots.txt that disallows listed URLs: one WARNING from the build (so ``--strict``
fails), one ``loc-disallowed`` error per URL from ``check``; real builds, real sites."""

from __future__ import annotations

import json

from mkdocs_sitemap_pro.cli.main import main
from tests.support.dates import D1
from tests.support.schemas import parse_sitemap
from tests.support.sites import Site

ROOT = "https://example.com/"
ROBOTS = (
    "User-agent: *\n"
    "Disallow: /private/\n"
    "Allow: /private/open/\n"
    "\n"
    "User-agent: Googlebot-Image\n"  # one crawler's group: it binds that crawler alone
    "Disallow: /\n"
)


def disallowing_site(site: Site, **options: object) -> Site:
    site.config["site_url"] = ROOT
    site.set_options(**options)
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide\n")
    for name in ("a", "b", "c", "d"):
        site.page(f"private/{name}.md", f"# {name}\n")
    site.page("private/open/index.md", "# Open\n")
    site.repo.write("docs/robots.txt", ROBOTS)
    site.commit("first", D1)
    return site


def warnings_about_robots(messages: list[str]) -> list[str]:
    return [m for m in messages if "robots.txt disallows" in m]


def test_the_build_warns_once_and_strict_fails(site, capsys):
    disallowing_site(site)
    built = site.build()
    assert built.error is None
    (warning,) = warnings_about_robots(built.messages())
    assert warning == (
        "sitemap-pro: robots.txt disallows 4 of the 7 URLs in the sitemap for every crawler "
        "(User-agent: *), and search engines report a listed URL they may not crawl as an "
        f"error: {ROOT}private/a/, {ROOT}private/b/, {ROOT}private/c/ and 1 more "
        "(line 2: Disallow: /private/); leave these pages out of the sitemap (the `exclude` "
        "option, or `sitemap: false` in their front matter), or change robots.txt to allow them"
    )
    # The sitemap is still written, whole and valid; robots.txt names it.
    locs = {u[0].text for u in parse_sitemap(built.site_dir / "sitemap.xml")}
    assert f"{ROOT}private/a/" in locs and len(locs) == 7
    robots = (built.site_dir / "robots.txt").read_text()
    assert robots == ROBOTS + f"Sitemap: {ROOT}sitemap.xml\n"

    assert site.build(strict=True).error is not None

    # check: one error per disallowed URL, exit 1; the allowed folder inside is fine.
    assert main(["check", str(built.site_dir), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    disallowed = [f for f in report["findings"] if f["rule"] == "loc-disallowed"]
    assert [(f["severity"], f["file"], f["url"]) for f in disallowed] == [
        ("error", "sitemap.xml", f"{ROOT}private/{name}/") for name in "abcd"
    ]
    assert "line 2: Disallow: /private/" in disallowed[0]["message"]
    assert report["errors"] == 4

    # The first way out: the pages left out of the sitemap.
    site.set_options(exclude=["private/*.md"])
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert warnings_about_robots(built.messages()) == []
    assert main(["check", str(built.site_dir), "--strict"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "no problem found"


def test_every_url_disallowed_and_the_option_off(site, capsys):
    """``Disallow: /`` in a robots.txt the plugin leaves alone (``robots_txt: false``)
    is still the one crawlers read: the build says so."""
    disallowing_site(site, robots_txt=False)
    site.repo.write("docs/robots.txt", "User-agent: *\nDisallow: /\n")
    site.commit("block all", "2024-01-20T10:00:00+00:00")
    built = site.build()
    (warning,) = warnings_about_robots(built.messages())
    assert "disallows all 7 URLs in the sitemap" in warning
    assert "(line 2: Disallow: /)" in warning
    assert (built.site_dir / "robots.txt").read_text() == "User-agent: *\nDisallow: /\n"

    # Crawlers read robots.txt only at the host's root: one in /docs/ disallows nothing.
    site.config["site_url"] = "https://example.com/docs/"
    site.write_config()
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert main(["check", str(built.site_dir), "--site-url", "https://example.com/docs/"]) == 0


def test_validate_says_it_once(site):
    """With ``validate: true`` the checker runs too: the build's one warning stands for
    its per-URL errors."""
    disallowing_site(site, validate=True)
    built = site.build()
    assert len(warnings_about_robots(built.messages())) == 1
    assert [m for m in built.messages() if "loc-disallowed" in m] == []
