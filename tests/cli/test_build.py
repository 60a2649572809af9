"""``mkdocs-sitemap-pro build`` after a real `zensical build` and a real `mkdocs build`."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.support.dates import D1, D2, D3, day, utc
from tests.support.git import git_env
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

ZENSICAL = Path(sys.executable).parent / "zensical"
needs_zensical = pytest.mark.skipif(
    sys.version_info < (3, 11), reason="Zensical requires Python 3.11 or newer"
)


def zensical_build(site: Site) -> None:
    """A real, offline `zensical build` of the project (clean, so no stale output)."""
    result = subprocess.run(
        [str(ZENSICAL), "build", "--clean"], cwd=site.root, env=git_env(),
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def run_build(site: Site, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    """Our command, in the project folder, as a user runs it after the builder."""
    monkeypatch.chdir(site.root)
    return main(["build", *args])


@needs_zensical
def test_after_zensical_every_page_once_dated_exactly(site, monkeypatch, capsys):
    site.config.update(theme={"name": "material"}, plugins=["blog", {"sitemap-pro": {}}])
    site.config["markdown_extensions"] = [{"pymdownx.snippets": {"base_path": ["snippets"]}}]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("guide/README.md", "# Guide\n")
    site.page("guide/usage.md", '# Usage\n\n--8<-- "shared.md"\n')
    site.repo.write("snippets/shared.md", "Shared text.\n")
    site.page("hidden.md", "---\nrobots: noindex\n---\n# Hidden\n")
    site.page("404.md", "# Not found\n")
    site.page("blog/index.md", "# Blog\n")
    for n in (1, 2):
        site.page(f"blog/posts/p{n}.md", f"---\ndate: 2024-01-0{n}\n---\n# Post {n}\n\nText.\n")
    site.commit("first", D1)
    site.page("guide/README.md", "# Guide\n\nMore.\n")
    site.commit("guide", D2)
    site.repo.write("snippets/shared.md", "Shared text, changed.\n")
    site.page("blog/posts/p2.md", "---\ndate: 2024-01-02\n---\n# Post 2\n\nText, edited.\n")
    site.commit("snippet and post", D3)
    zensical_build(site)
    theirs = (site.root / "site" / "sitemap.xml").read_text(encoding="utf-8")
    assert "/404/" in theirs and "<lastmod>" not in theirs  # what Zensical writes itself

    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    root = parse_sitemap(site.root / "site" / "sitemap.xml")
    locs = [url.findtext("{*}loc") for url in root]
    assert len(locs) == len(set(locs))
    dates = {url.findtext("{*}loc"): url.findtext("{*}lastmod") for url in root}
    assert dates == {
        SITE_URL: utc(D1),
        SITE_URL + "guide/": utc(D2),
        SITE_URL + "guide/usage/": utc(D3),  # by the snippet it includes
        SITE_URL + "blog/": utc(D3),  # lists post 2
        SITE_URL + "blog/2024/01/01/post-1/": utc(D1),
        SITE_URL + "blog/2024/01/02/post-2/": utc(D3),
        SITE_URL + "blog/archive/2024/": utc(D3),  # generated: the newest post it lists
    }
    gz = site.root / "site" / "sitemap.xml.gz"
    assert gzip.decompress(gz.read_bytes()) == (site.root / "site" / "sitemap.xml").read_bytes()
    assert (site.root / "site" / "robots.txt").read_text() == f"Sitemap: {SITE_URL}sitemap.xml\n"
    err = capsys.readouterr().err
    assert "INFO    -  sitemap-pro: 7 URLs in 1 file (sitemap.xml, .gz, .html); lastmod: 7 git" in err


@needs_zensical
def test_after_zensical_without_directory_urls(site, monkeypatch, capsys):
    site.config.update(use_directory_urls=False)
    site.write_config()
    site.page("index.md")
    site.page("a.md")
    site.page("sub/index.md")
    site.page("404.md")
    site.commit("first", D1)
    site.page("a.md", "# A\nchanged\n")
    site.commit("second", D2)
    zensical_build(site)
    assert run_build(site, monkeypatch) == 0, capsys.readouterr().err
    urls = {u.findtext("{*}loc"): u.findtext("{*}lastmod") for u in parse_sitemap(site.root / "site" / "sitemap.xml")}
    assert urls == {
        SITE_URL + "index.html": utc(D1),
        SITE_URL + "a.html": utc(D2),
        SITE_URL + "sub/index.html": utc(D1),
    }


@pytest.mark.parametrize("directory_urls", [True, False])
def test_after_mkdocs_the_same_bytes_as_the_plugin(site, monkeypatch, capsys, directory_urls):
    site.config.update(use_directory_urls=directory_urls, not_in_nav="/extra.md\n", draft_docs="drafts/\n")
    site.set_options(changefreq="weekly", max_urls=2)
    site.page("index.md")
    site.page("extra.md")
    site.page("guide/README.md")
    site.page("guide/deep/page.md")
    site.page("fm.md", "---\nsitemap:\n  lastmod: 2024-02-29\n  priority: 0.7\n---\n# FM\n")
    site.page("off.md", "---\nsitemap: false\n---\n# Off\n")
    site.page("drafts/wip.md")
    site.page("404.md")
    site.repo.write("docs/robots.txt", "User-agent: *\r\nDisallow:\r\n")
    site.commit("first", day(0))
    for n, rel in enumerate(["extra.md", "guide/README.md", "guide/deep/page.md"], start=1):
        site.page(rel, f"# {rel}\nchanged {n}\n")
        site.commit(f"change {rel}", day(n))
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    names = sorted(p.name for p in built.site_dir.iterdir() if p.name.startswith(("sitemap", "robots")))
    plugin_files = {name: (built.site_dir / name).read_bytes() for name in names}
    # An index, three shards, their .gz, their html_view pages, the manifest, robots.txt.
    assert len(plugin_files) == 14 and "sitemap.manifest.json" in plugin_files

    plugins = site.config["plugins"]
    site.config["plugins"] = []
    site.write_config()
    assert site.build().error is None  # MkDocs' own sitemap, dated by the build
    assert b"sitemap-1" not in (built.site_dir / "sitemap.xml").read_bytes()
    site.config["plugins"] = plugins
    site.write_config()

    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    after = {name: (built.site_dir / name).read_bytes() for name in names}
    # The same bytes, but for what each recorded of the pages it saw rendered: the plugin
    # the content MkDocs converted, `build` the pages it reads back (issue 55).
    manifests = [json.loads(files.pop("sitemap.manifest.json")) for files in (after, plugin_files)]
    assert after == plugin_files
    assert [m.pop("rendered") for m in manifests] == ["built-1", "converted-1"]
    pages = [m.pop("pages") for m in manifests]
    assert manifests[0] == manifests[1] and pages[0].keys() == pages[1].keys()
    assert [value[11:] for value in pages[0].values()] == [value[11:] for value in pages[1].values()]


def test_no_site_url_is_exit_2_naming_it(site, monkeypatch, capsys):
    site.page("index.md")
    site.commit("first", D1)
    assert site.build().error is None
    del site.config["site_url"]
    site.write_config()
    assert run_build(site, monkeypatch) == 2
    assert "site_url is required" in capsys.readouterr().err


def test_configuration_errors_are_exit_2_naming_the_option(site, monkeypatch, capsys):
    site.page("index.md")
    site.commit("first", D1)
    assert run_build(site, monkeypatch) == 2  # not built yet
    err = capsys.readouterr().err
    assert "site_dir" in err and "does not exist" in err
    assert site.build().error is None
    site.set_options(max_urls=0)
    assert run_build(site, monkeypatch) == 2
    assert "Plugin 'sitemap-pro' option 'max_urls'" in capsys.readouterr().err
    assert run_build(site, monkeypatch, "-f", "missing.yml") == 2
    assert "missing.yml does not exist" in capsys.readouterr().err


def test_strict_with_a_warning_is_exit_1(site, monkeypatch, capsys):
    site.page("index.md")
    site.page("bad.md", "---\nsitemap:\n  priority: high\n---\n# Bad\n")
    site.commit("first", D1)
    assert site.build().error is None
    assert run_build(site, monkeypatch) == 0
    assert "page 'bad.md': front matter 'sitemap.priority: high' is invalid" in capsys.readouterr().err
    assert run_build(site, monkeypatch, "--strict") == 1


def test_site_dir_option_and_builder_sitemap_removed(site, monkeypatch, capsys, tmp_path):
    site.set_options(filename="map.xml", gzip=False)
    site.page("index.md")
    site.commit("first", D1)
    assert site.build().error is None
    out = tmp_path / "elsewhere"
    shutil.copytree(site.root / "site", out)
    (out / "sitemap.xml").write_text("<urlset/>")  # a builder's own
    (out / "sitemap.xml.gz").write_bytes(gzip.compress(b"<urlset/>"))
    assert run_build(site, monkeypatch, "--site-dir", str(out)) == 0, capsys.readouterr().err
    assert not (out / "sitemap.xml").exists() and not (out / "sitemap.xml.gz").exists()
    assert [u.findtext("{*}lastmod") for u in parse_sitemap(out / "map.xml")] == [utc(D1)]


@needs_zensical
def test_after_zensical_nothing_is_injected_into_pages(site, monkeypatch, capsys):
    site.config.update(theme={"name": "material"},
                       plugins=[{"sitemap-pro": {"show_date": True, "meta_modified_time": True}}])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide\n")
    site.commit("first", D1)
    zensical_build(site)
    pages = {path: path.read_bytes() for path in (site.root / "site").rglob("*.html")}
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    dates = {url.findtext("{*}loc"): url.findtext("{*}lastmod")
             for url in parse_sitemap(site.root / "site" / "sitemap.xml")}
    assert dates == {SITE_URL: utc(D1), SITE_URL + "guide/": utc(D1)}
    # The pages are as Zensical wrote them, byte for byte (our sitemap.html is new).
    for path, data in pages.items():
        assert path.read_bytes() == data, path
    assert not any("article:modified_time" in p.read_text("utf-8")
                   for p in (site.root / "site").rglob("*.html"))


def test_a_snippet_range_is_dated_by_its_lines_as_by_the_plugin(site, monkeypatch, capsys):
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("range.md", '# Range\n\n--8<-- "parts/code.txt:2:3"\n')
    site.repo.write("parts/code.txt", "one\ntwo\nthree\nfour\n")
    site.commit("first", day(1))
    site.repo.write("parts/code.txt", "one\nTWO\nthree\nfour\n")
    site.commit("in the range", day(2))
    site.repo.write("parts/code.txt", "one\nTWO\nthree\nFOUR\n")
    site.commit("after it", day(3))
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    by_plugin = (built.site_dir / "sitemap.xml").read_bytes()
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert (built.site_dir / "sitemap.xml").read_bytes() == by_plugin
    dates = {u.findtext("{*}loc"): u.findtext("{*}lastmod")
             for u in parse_sitemap(built.site_dir / "sitemap.xml")}
    assert dates[SITE_URL + "range/"] == utc(day(2))
    site.set_options(dependencies="files")
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    dates = {u.findtext("{*}loc"): u.findtext("{*}lastmod")
             for u in parse_sitemap(built.site_dir / "sitemap.xml")}
    assert dates[SITE_URL + "range/"] == utc(day(3))


def test_a_robots_txt_disallowing_listed_urls_is_the_plugins_warning(site, monkeypatch, capsys):
    """After another builder, the same one WARNING as under the plugin; --strict fails."""
    site.config.update(site_url="https://example.com/", plugins=[])
    site.write_config()
    site.page("index.md")
    site.page("private/a.md")
    site.repo.write("docs/robots.txt", "User-agent: *\nDisallow: /private/\n")
    site.commit("first", D1)
    assert site.build().error is None  # the site, without the plugin
    site.config["plugins"] = [{"sitemap-pro": {}}]
    site.write_config()
    assert run_build(site, monkeypatch) == 0
    err = capsys.readouterr().err
    assert err.count("robots.txt disallows") == 1, err
    assert ("robots.txt disallows 1 of the 2 URLs in the sitemap for every crawler "
            "(User-agent: *)") in err and "https://example.com/private/a/ (line 2: Disallow: /private/)" in err
    assert run_build(site, monkeypatch, "--strict") == 1
