"""``mkdocs-sitemap-pro build`` dates pages by what mdx_include, markdown-include-variants
and mkdocs-macros show, after a real `zensical build`; the plugin under a real
`mkdocs build` dates an mdx_include ``[ln:...]`` by its lines too (issue 40)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.support.dates import day, utc
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

EXAMPLE = "".join(f"example_line_{n} = {n}\n" for n in range(1, 8))


@pytest.fixture(autouse=True)
def root_handlers() -> Iterator[None]:
    """mdx_include calls ``logging.basicConfig()`` when MkDocs' config check imports
    it: the root logger's handlers are put back after each test."""
    handlers = logging.root.handlers[:]
    yield
    logging.root.handlers[:] = handlers


def dates(site: Site) -> dict[str, str | None]:
    return {url.findtext("{*}loc") or "": url.findtext("{*}lastmod")
            for url in parse_sitemap(site.root / "site" / "sitemap.xml")}


def changed(text: str, line: int) -> str:
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(" = ", " = 100 + ")
    return "".join(lines)


def include_site(site: Site, **options: object) -> None:
    site.config.update(
        markdown_extensions=["mdx_include", "markdown_include_variants", "pymdownx.superfences"],
        plugins=[{"macros": {"include_dir": "includes"}}, {"sitemap-pro": options}],
    )
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("whole.md", "# Whole\n\n```python\n{! src/example.py !}\n```\n")
    site.page("part.md", "# Part\n\n```python\n{! src/example.py [ln:1-3] !}\n```\n")
    site.page("variants.md", "# Variants\n\n{* src/app.py ln[1:2] hl[1] *}\n")
    site.page("macro.md", "# Macro\n\n{% include 'notice.md' %}\n")
    site.repo.write("src/example.py", EXAMPLE)
    site.repo.write("src/app.py", "app_default = 1\napp_two = 2\napp_three = 3\n")
    site.repo.write("src/app_py310.py", "app_py310_only = 1\n")
    site.repo.write("src/app_an.py", "app_an_only = 1\n")
    site.repo.write("includes/notice.md", "macro_notice_text\n")
    site.commit("first", day(1))


@needs_zensical
def test_after_zensical_each_include_syntax_dates_its_page(site, monkeypatch, capsys):
    include_site(site)
    site.repo.write("src/example.py", changed(EXAMPLE, 5))
    site.commit("line 5", day(10))
    site.repo.write("src/app_an.py", "app_an_only = 2\n")  # a sibling variant alone
    site.commit("variant", day(11))
    site.repo.write("includes/notice.md", "macro_notice_text, changed\n")
    site.commit("template", day(12))
    zensical_build(site)
    html = {name: (site.root / "site" / name / "index.html").read_text(encoding="utf-8")
            for name in ("part", "variants", "macro")}
    # Zensical really ran each of them: the slice, every variant, the template.
    assert "example_line_3" in html["part"] and "example_line_4" not in html["part"]
    assert all(word in html["variants"] for word in ("app_three", "app_py310_only", "app_an_only"))
    assert "macro_notice_text" in html["macro"]

    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    expected = {
        SITE_URL: utc(day(1)),
        SITE_URL + "whole/": utc(day(10)),
        SITE_URL + "part/": utc(day(1)),  # line 5 is not shown
        SITE_URL + "variants/": utc(day(11)),  # the full-file previews show every variant
        SITE_URL + "macro/": utc(day(12)),
    }
    assert dates(site) == expected

    site.config["plugins"][1] = {"sitemap-pro": {"dependencies": "files"}}
    site.write_config()
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert dates(site) == {**expected, SITE_URL + "part/": utc(day(10))}  # the whole file

    site.config["plugins"][1] = {"sitemap-pro": {}}
    site.write_config()
    site.repo.write("src/example.py", changed(changed(EXAMPLE, 5), 2))
    site.commit("line 2", day(13))
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert dates(site) == {**expected, SITE_URL + "whole/": utc(day(13)),
                           SITE_URL + "part/": utc(day(13))}


@needs_zensical
def test_after_zensical_a_variant_folder_and_a_recursive_include(site, monkeypatch, capsys):
    site.config.update(markdown_extensions=["mdx_include", "markdown_include_variants"])
    site.write_config()
    site.page("index.md", "# Home\n\n{* src/tut/main.py *}\n")
    site.page("outer.md", "# Outer\n\n{! parts/outer.md !}\n")
    site.page("flat.md", "# Flat\n\n{!- parts/outer.md !}\n")
    site.repo.write("src/tut/main.py", "tut_main = 1\n")
    site.repo.write("src/tut_an/main.py", "tut_an_main = 1\n")
    site.repo.write("parts/outer.md", "outer_text\n\n{! parts/inner.md !}\n")
    site.repo.write("parts/inner.md", "inner_text\n")
    site.commit("first", day(1))
    site.repo.write("src/tut_an/main.py", "tut_an_main = 2\n")
    site.repo.write("parts/inner.md", "inner_text, changed\n")
    site.commit("folder variant and inner", day(2))
    zensical_build(site)
    flat = (site.root / "site" / "flat" / "index.html").read_text(encoding="utf-8")
    assert "inner_text" not in flat and "{! parts/inner.md !}" in flat  # not recursive
    assert run_build(site, monkeypatch, "--strict") == 0, capsys.readouterr().err
    assert dates(site) == {
        SITE_URL: utc(day(2)),  # by src/tut_an/main.py, a folder variant
        SITE_URL + "outer/": utc(day(2)),  # by what parts/outer.md includes
        SITE_URL + "flat/": utc(day(1)),  # '{!-': parts/inner.md is not included
    }


def test_under_mkdocs_an_mdx_include_slice_is_dated_by_its_lines(site):
    site.config.update(markdown_extensions=["mdx_include"])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("part.md", "# Part\n\n{! src/example.py [ln:1-3] !}\n")
    site.page("whole.md", "# Whole\n\n{! src/example.py !}\n")
    site.repo.write("src/example.py", EXAMPLE)
    site.commit("first", day(1))
    site.repo.write("src/example.py", changed(EXAMPLE, 5))
    site.commit("line 5", day(10))
    result = site.cli("build", "--strict")
    assert result.returncode == 0, result.stderr
    assert "example_line_3" in (site.root / "site" / "part" / "index.html").read_text()
    assert dates(site) == {
        SITE_URL: utc(day(1)),
        SITE_URL + "part/": utc(day(1)),  # line 5 is not shown
        SITE_URL + "whole/": utc(day(10)),
    }
    site.repo.write("src/example.py", changed(changed(EXAMPLE, 5), 2))
    site.commit("line 2", day(11))
    result = site.cli("build", "--strict")
    assert result.returncode == 0, result.stderr
    assert dates(site)[SITE_URL + "part/"] == utc(day(11))
