"""Each page is dated by everything it shows: real builds with the real plugins.

A site in a real git repository where every file a page shows changed after the page:
pymdownx.snippets (a root file, a line range, a section, a nested snippet),
mkdocs-include-markdown-plugin (``include-markdown`` and ``include``), a hook that inlines
``examples/app.py`` with ``Path.read_text``, a hook with its own include syntax
(``{* ../src/x.py *}``), and mkdocstrings-python (``::: pkg.Thing``, defined in
``pkg/_impl.py`` and re-exported from ``pkg/__init__.py``). Some files change on a side
branch with older commit dates, merged later, so the two history rules differ. Every
expected date is git's own per-file answer (``git log -1 [--first-parent] -- <file>``).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import shutil
from pathlib import Path

import pytest

from tests.support.dates import day, utc
from tests.support.git import git_date
from tests.support.git_calls import GitCalls
from tests.support.sites import SITE_URL, Built, Site

RULES = ("first-parent", "all")

READ_HOOK = '''
import re
from pathlib import Path

def on_page_markdown(markdown, page, config, files):
    """[[app]] becomes examples/app.py; {* path *} is a file relative to the page."""
    root = Path(config.config_file_path).parent
    if "[[app]]" in markdown:
        markdown = markdown.replace("[[app]]", (root / "examples/app.py").read_text())
    folder = Path(page.file.abs_src_path).parent

    def include(match):
        with open(folder / match.group(1), encoding="utf-8") as handle:
            return handle.read()

    return re.sub(r"\\{\\* (.+?) \\*\\}", include, markdown)
'''

# page -> the files it shows (besides its source); these decide its date.
SHOWS = {
    "snip.md": ["CONTRIBUTING.md", "snippets/lines.py", "snippets/section.md", "snippets/nested.md"],
    "inc.md": ["includes/part.md", "includes/code.py"],
    "hooked.md": ["examples/app.py"],
    "custom.md": ["src/x.py"],
    "api.md": ["src/pkg/_impl.py"],
    "plain.md": [],
}


def _site(site: Site, history: str, **options: object) -> Site:
    """Pages first (day 1), then each file they show, one commit each, some on a branch."""
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.page("index.md", "# Home\n")
    site.page("snip.md", '# Snip\n\n--8<-- "CONTRIBUTING.md"\n\n--8<-- "snippets/lines.py:2:3"\n\n'
              '--8<-- "snippets/section.md:keep"\n')
    site.page("inc.md", '# Inc\n\n{% include-markdown "../includes/part.md" %}\n\n'
              '```\n{% include "../includes/code.py" %}\n```\n')
    site.page("hooked.md", "# Hooked\n\n```python\n[[app]]\n```\n")
    site.page("custom.md", "# Custom\n\n```python\n{* ../src/x.py *}\n```\n")
    site.page("api.md", "# API\n\n::: pkg.Thing\n")
    site.page("plain.md", "# Plain\n")
    site.repo.write("hooks/read_hook.py", READ_HOOK)
    site.repo.write("CONTRIBUTING.md", "Contribute.\n")
    site.repo.write("snippets/lines.py", "a = 1\nb = 2\nc = 3\n")
    site.repo.write("snippets/section.md", "# --8<-- [start:keep]\nkept\n--8<-- \"snippets/nested.md\"\n"
                    "# --8<-- [end:keep]\n")
    site.repo.write("snippets/nested.md", "nested\n")
    site.repo.write("includes/part.md", "part\n")
    site.repo.write("includes/code.py", "print('code')\n")
    site.repo.write("examples/app.py", "print('app')\n")
    site.repo.write("src/x.py", "x = 1\n")
    site.repo.write("src/pkg/__init__.py", '"""The package."""\nfrom pkg._impl import Thing\n\n__all__ = ["Thing"]\n')
    site.repo.write("src/pkg/_impl.py", 'class Thing:\n    """A thing."""\n\n    def method(self):\n        """Do."""\n')
    site.repo.write("src/pkg/other.py", '"""Not rendered."""\n')
    site.config.update(
        theme={"name": "material"},
        hooks=["hooks/read_hook.py"],
        markdown_extensions=["pymdownx.snippets", "pymdownx.superfences"],
        plugins=[
            "include-markdown",
            {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
            {"sitemap-pro": {"git_history": history, "dependencies": "files", **options}},
        ],
    )
    site.write_config()
    site.commit("pages", day(1))
    site.repo.git("checkout", "-q", "-b", "side")
    _change(site, "src/pkg/_impl.py", day(3))  # older than the merge that brings it in
    _change(site, "includes/code.py", day(4))
    site.repo.git("checkout", "-q", "main")
    for n, rel in enumerate(["CONTRIBUTING.md", "snippets/lines.py", "snippets/section.md",
                             "snippets/nested.md", "includes/part.md", "examples/app.py",
                             "src/x.py", "src/pkg/__init__.py"]):
        _change(site, rel, day(5 + n))
    site.repo.merge("side", day(20))
    _change(site, "src/pkg/other.py", day(25))  # a module api.md does not render
    _change(site, "mkdocs.yml", day(26), text=None)
    return site


def _change(site: Site, rel: str, date: str, text: str | None = "") -> str:
    path = site.root / rel
    if text is None:
        site.config["extra"] = {"changed": date}
        site.write_config()
    elif rel.endswith(".py"):
        path.write_text(path.read_text() + f"# {date}\n", encoding="utf-8")
    else:
        path.write_text(path.read_text() + f"\n{date}\n", encoding="utf-8")
    return site.commit(f"change {rel}", date)


def expected(root: Path, history: str, shows: dict[str, list[str]]) -> dict[str, str]:
    """Each page's newest date among its source and the files it shows, per git."""
    return {
        page: max(git_date(root, rel, history) for rel in [f"docs/{page}", *files])
        for page, files in shows.items()
    }


def lastmods(built: Built) -> dict[str, str]:
    assert built.error is None, built.messages()
    urls = built.sitemap()
    return {page: urls[SITE_URL + page.removesuffix(".md") + "/"]["lastmod"] for page in SHOWS}


def summary(built: Built) -> str:
    return [m for m in built.infos() if "URLs in" in m][0]


@pytest.mark.parametrize("history", RULES)
def test_every_page_is_dated_by_the_newest_file_it_shows(site: Site, history: str) -> None:
    _site(site, history)
    built = site.build(strict=True)
    got = lastmods(built)
    want = expected(site.root, history, SHOWS)
    assert got == want
    # What the pages show did go in (the build really included them).
    html = (built.site_dir / "snip/index.html").read_text()
    assert "Contribute." in html and "nested" in html and "a = 1" not in html
    assert "A thing." in (built.site_dir / "api/index.html").read_text()
    # Every page but plain.md is dated by a file it shows, not by its source.
    assert all(got[p] > git_date(site.root, f"docs/{p}", history) for p in SHOWS if SHOWS[p])
    assert got["plain.md"] == git_date(site.root, "docs/plain.md", history)
    assert "(4 by an included file, 1 by the whole files of the API objects it shows)" in summary(built)
    debug = built.messages(logging.DEBUG)
    assert "sitemap-pro: page 'api.md': dated by the included file src/pkg/_impl.py" in debug


def test_the_history_rules_differ_on_a_merged_file(site: Site) -> None:
    """_impl.py's change is dated by the merge under first-parent, by its commit under all."""
    _site(site, "first-parent")
    first = lastmods(site.build())["api.md"]
    site.config["plugins"][-1] = {"sitemap-pro": {"git_history": "all", "dependencies": "files"}}
    site.write_config()
    assert first == utc(day(20))
    # Under all, the side commit itself; __init__.py (re-exporting Thing) does not count.
    assert lastmods(site.build())["api.md"] == utc(day(3))


def test_an_auto_appended_file_dates_no_page(site: Site) -> None:
    _site(site, "first-parent")
    site.repo.write("snippets/glossary.md", "Glossary of the site.\n")
    site.config["markdown_extensions"] = [
        {"pymdownx.snippets": {"auto_append": ["snippets/glossary.md"]}}, "pymdownx.superfences",
    ]
    site.write_config()
    site.commit("glossary", day(1, hour=13))
    _change(site, "snippets/glossary.md", day(30))  # the newest change of all
    built = site.build(strict=True)
    assert "Glossary of the site." in (built.site_dir / "plain/index.html").read_text()
    got = lastmods(built)
    want = expected(site.root, "first-parent", SHOWS)
    want["plain.md"] = got["plain.md"]  # mkdocs.yml and the glossary commit date no page
    assert got == want
    assert utc(day(30)) not in got.values()


def test_an_excluded_or_untracked_file_dates_no_page(site: Site) -> None:
    _site(site, "first-parent", dependencies_exclude=["/CONTRIBUTING.md", "snippets/nested.*"])
    site.page("draft.md", '# Draft\n\n--8<-- "drafts/new.md"\n')
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\ndrafts/\n")
    site.commit("a page showing an ignored file", day(27))
    site.repo.write("drafts/new.md", "Not in git.\n")
    built = site.build(strict=True)
    got = lastmods(built)
    shows = dict(SHOWS, **{"snip.md": ["snippets/lines.py", "snippets/section.md"]})
    assert got == expected(site.root, "first-parent", shows)
    assert got["snip.md"] == git_date(site.root, "snippets/section.md", "first-parent")
    assert "Not in git." in (built.site_dir / "draft/index.html").read_text()
    assert built.sitemap()[SITE_URL + "draft/"]["lastmod"] == utc(day(27))
    debug = built.messages(logging.DEBUG)
    assert ("sitemap-pro: page 'draft.md': left out of its date: drafts/new.md cannot be "
            "dated by git (untracked)") in debug
    assert ("sitemap-pro: page 'snip.md': left out of its date: CONTRIBUTING.md matches "
            "dependencies_exclude") in debug
    assert "sitemap-pro: page 'draft.md': dated by its own source (nothing it shows changed later)" in debug


WATCH_HOOK = '''
from pathlib import Path

def on_page_context(context, page, config, nav):
    dates = config.plugins["sitemap-pro"].dates
    when = "none" if dates is None else dates.last_changed(Path(page.file.abs_src_path))
    with open(Path(config.config_file_path).parent / "seen.log", "a") as log:
        log.write(f"{page.file.src_uri} {getattr(when, 'when', when)}\\n")
'''


@pytest.mark.parametrize("dependencies", ["files", False])
def test_dates_are_known_before_templates_render(site: Site, dependencies: str | bool) -> None:
    """The history map is complete before the first template renders: every page's
    source is dated there (``on_page_context``), as git dates it."""
    _site(site, "first-parent", dependencies=dependencies)
    site.repo.write("hooks/watch.py", WATCH_HOOK)
    site.config["hooks"] = [*site.config["hooks"], "hooks/watch.py"]
    site.write_config()
    built = site.build(strict=True)
    want = expected(site.root, "first-parent",
                    SHOWS if dependencies else {p: [] for p in SHOWS})
    assert lastmods(built) == want
    seen = dict(line.split(" ", 1) for line in
                (site.root / "seen.log").read_text().splitlines())
    assert len(seen) >= len(built.sitemap())
    for src_uri, when in seen.items():
        if src_uri.startswith("draft"):
            continue
        git = git_date(site.root, f"docs/{src_uri}")
        assert dt.datetime.fromisoformat(when).astimezone(dt.timezone.utc).isoformat() == git


def test_dependencies_false_dates_by_the_source(site: Site) -> None:
    _site(site, "first-parent", dependencies=False)
    built = site.build(strict=True)
    assert lastmods(built) == {p: git_date(site.root, f"docs/{p}", "first-parent") for p in SHOWS}
    assert "by an included file" not in summary(built)


def test_a_dirty_rebuild_keeps_dependency_dates_from_the_cache(site: Site) -> None:
    _site(site, "first-parent")
    want = expected(site.root, "first-parent", SHOWS)
    assert lastmods(site.build()) == want
    cache = site.root / ".cache/plugin/sitemap-pro/dependencies.json"
    assert cache.is_file()
    # A new dependency change, committed, then a dirty build: no page is re-rendered,
    # yet the cached dependencies are dated afresh.
    _change(site, "includes/part.md", day(40))
    html = site.root / "site/inc/index.html"
    before = html.stat().st_mtime_ns
    dirty = site.build(dirty=True)
    assert html.stat().st_mtime_ns == before  # not re-rendered
    assert lastmods(dirty) == dict(want, **{"inc.md": utc(day(40))})
    # Without the cache, unrendered pages fall back to their source, said at DEBUG.
    shutil.rmtree(site.root / ".cache")
    bare = site.build(dirty=True)
    assert lastmods(bare)["snip.md"] == git_date(site.root, "docs/snip.md", "first-parent")
    assert any("'snip.md': not rendered in this build and not in the dependency cache"
               in m for m in bare.messages(logging.DEBUG))


def test_a_cache_entry_of_the_wrong_shape_is_as_good_as_none(site: Site) -> None:
    """An entry naming a file by a number (a hand-edited ``dependencies.json``): the
    unrendered page is dated as with no cache, said at DEBUG naming the file."""
    _site(site, "first-parent")
    site.build()
    cache = site.root / ".cache/plugin/sitemap-pro/dependencies.json"
    data = json.loads(cache.read_text())
    data["pages"]["inc.md"][1].append(7)
    cache.write_text(json.dumps(data))
    _change(site, "includes/part.md", day(40))
    dirty = site.build(dirty=True)
    assert lastmods(dirty)["inc.md"] == git_date(site.root, "docs/inc.md", "first-parent")
    assert any("dependencies.json cannot be used for 'inc.md'" in m
               for m in dirty.messages(logging.DEBUG))


def test_a_changed_source_invalidates_its_cache_entry(site: Site) -> None:
    _site(site, "first-parent")
    site.build()
    site.page("inc.md", "# Inc, no includes now\n")
    site.commit("inc without includes", day(41))
    got = lastmods(site.build(dirty=True))
    assert got["inc.md"] == utc(day(41))
    site.page("snip.md", "# Snip alone\n")  # not committed: the cache entry goes, git dates
    # the committed source, which no longer includes anything
    got = lastmods(site.build(dirty=True))
    assert got["snip.md"] == git_date(site.root, "docs/snip.md", "first-parent")


@pytest.mark.parametrize("history", RULES)
def test_git_processes_do_not_grow_with_pages(tmp_path: Path, history: str) -> None:
    counts = []
    for pages in (10, 200):
        site = Site(tmp_path / f"site{pages}", options={"git_history": history},
                    markdown_extensions=["pymdownx.snippets"])
        for i in range(pages):
            site.page(f"p{i}.md", f'# P{i}\n\n--8<-- "parts/a{i % 7}.md"\n\n--8<-- "parts/b{i}.md"\n'
                      f'\n--8<-- "CONTRIBUTING.md"\n')
            site.repo.write(f"parts/b{i}.md", f"b{i}\n")
        for j in range(7):
            site.repo.write(f"parts/a{j}.md", f"a{j}\n")
        site.repo.write("CONTRIBUTING.md", "c\n")
        site.commit("pages", day(1))
        for i in range(0, pages, 3):
            _change(site, f"parts/b{i}.md", day(2 + i % 50))
        git = GitCalls(tmp_path / f"bin{pages}")
        built = site.build(env=git.env)
        assert built.error is None, built.messages()
        urls = built.sitemap()
        assert urls[SITE_URL + "p3/"]["lastmod"] == git_date(site.root, "parts/b3.md", history)
        counts.append(len(git.calls()))
    assert counts[0] == counts[1], counts
    assert counts[0] <= 4


def test_a_file_that_dates_most_pages_is_named_once(site: Site) -> None:
    site.config["markdown_extensions"] = ["pymdownx.snippets"]
    site.write_config()
    for i in range(24):
        site.page(f"p{i}.md", f'# P{i}\n\n--8<-- "links.md"\n')
    site.page("alone.md", "# Alone\n")
    site.repo.write("links.md", "[home]: https://example.com/\n")
    site.commit("pages", day(1))
    _change(site, "links.md", day(2))
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    lines = [m for m in built.infos() if "decides the lastmod" in m]
    assert lines == ["sitemap-pro: links.md decides the lastmod of 24 of 25 pages; if it is "
                     "part of every page (a site-wide include), add it to dependencies_exclude "
                     "so that an edit of it does not re-date the whole site"]
    assert built.sitemap()[SITE_URL + "p3/"]["lastmod"] == utc(day(2))
    # Excluded as the line says: no line, and the pages keep their own dates.
    site.config["plugins"] = [{"sitemap-pro": {"dependencies_exclude": ["links.md"]}}]
    site.write_config()
    built = site.build(strict=True)
    assert not [m for m in built.infos() if "decides the lastmod" in m]
    assert built.sitemap()[SITE_URL + "p3/"]["lastmod"] == utc(day(1))
