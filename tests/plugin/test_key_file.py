"""``indexnow_key``: the key file IndexNow reads, from real builds."""

from __future__ import annotations

import pytest

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.deploy.indexnow_key import check_indexnow_key
from tests.support.dates import day
from tests.support.sites import SITE_URL, Built, Site

KEY = "a1B2-c3D4e5F6"


def two_pages(site: Site, **options: object) -> None:
    site.set_options(**options)
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide\n")
    site.commit("pages", day(1))


def built_ok(site: Site, **kwargs: object) -> Built:
    built = site.build(**kwargs)  # type: ignore[arg-type]
    assert built.error is None, (built.error, built.messages())
    return built


def test_the_key_file_holds_the_key_at_the_root_and_is_never_listed(site: Site) -> None:
    two_pages(site, indexnow_key=KEY)
    built = built_ok(site, strict=True)
    assert (built.site_dir / f"{KEY}.txt").read_bytes() == KEY.encode("ascii")
    assert sorted(built.sitemap()) == [SITE_URL, SITE_URL + "guide/"]
    assert f"{KEY}.txt" not in (built.site_dir / "sitemap.xml").read_text()
    assert f"{KEY}.txt" not in (built.site_dir / "sitemap.html").read_text()
    again = built_ok(site, dirty=True)  # a rebuild leaves the same file
    assert (again.site_dir / f"{KEY}.txt").read_bytes() == KEY.encode("ascii")


def test_unset_by_default_no_txt_file(site: Site) -> None:
    two_pages(site)
    built = built_ok(site)
    assert [p.name for p in built.site_dir.glob("*.txt")] == ["robots.txt"]


def test_the_sites_own_file_of_that_name_is_never_overwritten(site: Site) -> None:
    two_pages(site, indexnow_key=KEY)
    site.page(f"{KEY}.txt", "another-key-entirely\n")
    built = built_ok(site)
    assert (built.site_dir / f"{KEY}.txt").read_text() == "another-key-entirely\n"
    warnings = [m for m in built.messages() if "indexnow_key" in m]
    assert len(warnings) == 1 and f"{KEY}.txt" in warnings[0] and "left as it is" in warnings[0]
    site.page(f"{KEY}.txt", f"{KEY}\n")  # the site's own, holding the key: all is well
    built = built_ok(site, strict=True)
    assert (built.site_dir / f"{KEY}.txt").read_text() == f"{KEY}\n"


def test_under_serve_no_key_file_is_written(site: Site) -> None:
    two_pages(site, indexnow_key=KEY)
    built = built_ok(site, serve_url="http://127.0.0.1:8000/docs/")
    assert (built.site_dir / "sitemap.xml").exists()
    assert not (built.site_dir / f"{KEY}.txt").exists()


@pytest.mark.parametrize(("value", "error"), [
    ("abc1234", "is 7 characters long"),
    ("a" * 129, "is 129 characters long"),
    ("abcd_1234", "holds '_'"),
    ("abcd 1234", "holds ' '"),
    ("abcdé1234", "holds 'é'"),
    (12345678, "expected a key of 8 to 128 characters"),
])
def test_a_bad_key_stops_the_build_naming_the_option(site: Site, value: object, error: str
                                                      ) -> None:
    two_pages(site, indexnow_key=value)
    built = site.build()
    assert built.error is not None
    said = " ".join([str(built.error), *built.messages()])
    assert "Plugin 'sitemap-pro' option 'indexnow_key'" in said and error in said, said
    assert not (built.site_dir / "sitemap.xml").exists()


@pytest.mark.parametrize("key", ["abcd1234", "A" * 128, "0-0-0-0-", "--------"])
def test_the_bounds_of_the_rule(key: str) -> None:
    assert check_indexnow_key(key) == key


def test_mkdocs_sitemap_pro_build_writes_it_too(site: Site, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    two_pages(site, indexnow_key=KEY)
    plugins = site.config["plugins"]
    site.config["plugins"] = []
    site.write_config()
    built = built_ok(site)  # MkDocs alone
    assert not (built.site_dir / f"{KEY}.txt").exists()
    site.config["plugins"] = plugins
    site.write_config()
    monkeypatch.chdir(site.root)
    assert main(["build", "--strict"]) == 0, capsys.readouterr().err
    assert (built.site_dir / f"{KEY}.txt").read_text() == KEY


def test_under_mike_the_key_file_is_in_the_version_folder(site: Site) -> None:
    from tests.support.mike import deploy, make_site, show, tree

    make_site(site)
    site.set_options(indexnow_key=KEY)
    site.commit("key", "2024-01-11T09:00:00+00:00")
    deploy(site, "1.0")
    assert show(site, f"1.0/{KEY}.txt") == KEY
    assert f"{KEY}.txt" not in tree(site)
    assert f"{KEY}.txt" not in (show(site, "1.0/sitemap.xml") or "")
