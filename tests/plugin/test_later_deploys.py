"""Two deploys of one repository: the second, given the first's manifest (``previous``),
keeps a page's date while what it renders is unchanged, and re-dates it when it changed.

Every build is a real ``mkdocs build`` (Material, mkdocstrings, a hooks module) of a real
repository with fixed commit dates; the first deploy's site folder is kept aside, as a
CI artifact or the published site would be, and named by the second's ``previous``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.support.dates import day, utc
from tests.support.shared import made_once
from tests.support.sites import SITE_URL, Built, Site

# A hook that adds a table row per line of a data file outside the repository, read when
# the hook is imported: data the plugin never sees read, as a site's API response would be.
ROWS_HOOK = '''\
import os
from pathlib import Path

ROWS = Path(os.environ["SITE_ROWS"]).read_text().split()


def on_page_markdown(markdown, page, **kwargs):
    if page.file.src_uri != "table.md":
        return markdown
    return markdown + "\\n| row |\\n|---|\\n" + "".join(f"| {row} |\\n" for row in ROWS)
'''

QUIET = 'class Quiet:\n    """A quiet thing."""\n\n    def run(self):\n        """Run it."""\n        return 1\n'
# A comment in the body and a private member: neither is rendered.
QUIET_EDITED = ('class Quiet:\n    """A quiet thing."""\n\n    def run(self):\n        """Run it."""\n'
                '        # faster this way\n        return 1\n\n    def _helper(self):\n'
                '        """Private."""\n')
LOUD = 'class Loud:\n    """A loud thing."""\n'
LOUD_EDITED = 'class Loud:\n    """A very loud thing."""\n'


def _url(page: str) -> str:
    return f"{SITE_URL}{page}/" if page else SITE_URL


def make_site(site: Site, rows: Path, **options: object) -> None:
    """Day 1: every page; the first deploy is built from here."""
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    rows.write_text("alpha\nbeta\n")
    site.page("index.md", "# Home\n\nWelcome.\n")
    site.page("spaces.md", "# Spaces\n\nA paragraph of words that\nwraps here.\n\nAnother one.\n")
    site.repo.write("docs/crlf.md", "# Line ends\r\n\r\nWritten on Windows.\r\n")
    site.page("word.md", "# Word\n\nOne word.\n")
    site.page("quiet.md", "# Quiet\n\n::: pkg.Quiet\n")
    site.page("loud.md", "# Loud\n\n::: pkg.Loud\n")
    site.page("table.md", "# Table\n")
    site.repo.write("src/pkg/__init__.py", "from pkg.quiet import Quiet\nfrom pkg.loud import Loud\n")
    site.repo.write("src/pkg/quiet.py", QUIET)
    site.repo.write("src/pkg/loud.py", LOUD)
    site.repo.write("hooks/rows.py", ROWS_HOOK)
    site.config.update(
        theme={"name": "material"},
        hooks=["hooks/rows.py"],
        markdown_extensions=["tables"],
        plugins=[
            {"mkdocstrings": {"handlers": {"python": {
                "paths": ["src"], "options": {"show_source": False}}}}},
            {"sitemap-pro": {"dependencies": "lines", "show_date": True, **options}},
        ],
    )
    site.write_config()
    site.commit("pages", day(1))


def change_everything(site: Site, rows: Path) -> None:
    """Day 10, one commit: changes a reader does not see, and changes they do."""
    site.page("spaces.md", "# Spaces \n\n\nA paragraph of words\nthat wraps here. \n\n\n\nAnother one.\n")
    site.repo.write("docs/crlf.md", "# Line ends\n\nWritten on Windows.\n")
    site.page("word.md", "# Word\n\nOne other word.\n")
    site.repo.write("src/pkg/quiet.py", QUIET_EDITED)
    site.repo.write("src/pkg/loud.py", LOUD_EDITED)
    site.page("new.md", "# New\n")
    rows.write_text("alpha\nbeta\ngamma\n")  # no commit changes it: the data did
    site.commit("edits", day(10))


class Deployed(Built):
    """A deploy built by the ``mkdocs`` command (one process a deploy, as in CI: MkDocs
    keeps a hooks module loaded for the life of a process), and what it printed."""

    printed: str = ""


def deploy(site: Site, rows: Path, keep: Path | None = None) -> Deployed:
    run = site.cli("build", "--strict", "-v", env={"SITE_ROWS": str(rows)})
    assert run.returncode == 0, run.stderr
    built = Deployed(site.root / "site")
    built.printed = run.stderr
    if keep is not None:
        shutil.copytree(built.site_dir, keep)
    return built


def with_previous(site: Site, first: Path) -> Site:
    """The site's plugin options with ``previous`` naming the first deploy's folder."""
    site.config["plugins"][-1]["sitemap-pro"]["previous"] = str(first)
    site.write_config()
    return site


def _date_line(page: Path) -> str:
    """The "last update" line Material shows at the foot of a page."""
    found = re.search(r'<aside class="md-source-file">.*?</aside>', page.read_text(), re.S)
    return found.group(0) if found else ""


def lastmods(built: Built) -> dict[str, str | None]:
    return {loc: fields.get("lastmod") for loc, fields in built.sitemap().items()}


@pytest.fixture
def deploys(site: Site, tmp_path: Path,
            tmp_path_factory: pytest.TempPathFactory) -> tuple[Site, Path, Path]:
    """The site with its first deploy kept in ``first/``, and its later changes made
    (made once a run, then copied: ``made_once``)."""
    made_once(site, tmp_path_factory, "later deploys", _first_deploy_then_changes)
    return site, tmp_path / "rows.txt", tmp_path / "first"


def _first_deploy_then_changes(site: Site) -> None:
    rows = site.root.parent / "rows.txt"
    make_site(site, rows)
    first = deploy(site, rows, site.root.parent / "first")
    assert set(lastmods(first).values()) == {utc(day(1))}
    change_everything(site, rows)


def test_what_a_reader_does_not_see_keeps_the_last_deploys_date(deploys) -> None:
    site, rows, first = deploys
    plain = lastmods(deploy(site, rows))  # without the last deploy: git's dates
    assert plain[_url("spaces")] == plain[_url("crlf")] == utc(day(10))
    second = deploy(with_previous(site, first), rows)
    got = lastmods(second)
    # Blank lines, trailing spaces and a re-wrapped paragraph; CRLF -> LF; a comment
    # and a private member inside a shown object: the first deploy's date.
    for page in ("spaces", "crlf", "quiet"):
        assert got[_url(page)] == utc(day(1)), page
    # A changed word, a changed shown docstring: git's date of the change.
    assert got[_url("word")] == got[_url("loud")] == utc(day(10))
    # A row from data the plugin never saw read: git says day 1, the content changed,
    # so the commit being built (never older than the truth).
    assert plain[_url("table")] == utc(day(1))
    assert got[_url("table")] == utc(day(10))
    assert got[_url("new")] == utc(day(10)) and got[_url("")] == utc(day(1))
    summary = [m for m in second.printed.splitlines() if "URLs in" in m][0]
    # quiet.md's lines: git's own date is day 1 already (``dependencies: lines``).
    assert "2 kept the last deploy's date" in summary, summary
    assert "1 re-dated by the commit" in summary, summary
    assert "page 'table.md': dated by the commit being built" in second.printed
    assert "page 'crlf.md': kept the last deploy's date" in second.printed
    # The page shows the date its entry gives: the first deploy's "last update" line.
    shown = [_date_line(folder / "spaces" / "index.html") for folder in (first, second.site_dir)]
    assert shown[0] and shown[0] == shown[1]
    assert _date_line(second.site_dir / "word" / "index.html") != shown[0]


def test_the_manifest_records_each_listed_page_in_under_40_bytes(deploys) -> None:
    site, rows, first = deploys
    manifest = json.loads((first / "sitemap.manifest.json").read_bytes())
    listed = lastmods(Built(first))
    assert manifest["rendered"] == "converted-1" and len(manifest["pages"]) == len(listed)
    part = json.dumps(manifest["pages"], separators=(",", ":"))
    assert len(part) / len(listed) <= 40, len(part) / len(listed)
    second_site = deploy(site, rows)  # another commit: the changed pages' records differ
    again = json.loads((second_site.site_dir / "sitemap.manifest.json").read_bytes())["pages"]
    differ = {key for key in again if again[key][:11] != manifest["pages"].get(key, "")[:11]}
    assert len(differ) == 4  # word, loud, table, and new (not in the first)


def test_two_builds_of_one_commit_give_the_same_fingerprints(deploys, tmp_path) -> None:
    site, rows, _ = deploys
    one = deploy(site, rows, tmp_path / "one")
    two = deploy(site, rows)
    pages = [json.loads((folder / "sitemap.manifest.json").read_bytes())["pages"]
             for folder in (tmp_path / "one", two.site_dir)]
    assert pages[0] == pages[1] and len(pages[0]) == len(lastmods(one))


def test_a_dirty_build_records_the_pages_it_did_not_render(deploys) -> None:
    site, rows, _ = deploys
    whole = deploy(site, rows)
    recorded = (whole.site_dir / "sitemap.manifest.json").read_bytes()
    dirty = site.cli("build", "--dirty", env={"SITE_ROWS": str(rows)})
    assert dirty.returncode == 0, dirty.stderr
    assert (whole.site_dir / "sitemap.manifest.json").read_bytes() == recorded


@pytest.mark.parametrize("shape", ["blog", "languages"])
def test_a_blog_or_three_languages_give_the_same_fingerprints_twice(site: Site, tmp_path,
                                                                    shape: str) -> None:
    # Material's blog (listing pages render their posts' excerpts), or static-i18n (one
    # build a language, one manifest for all): two builds of one commit, equal records,
    # one for every listed URL.
    site.repo.write(".gitignore", "site/\n.cache/\n")
    languages = ("en", "fr", "de") if shape == "languages" else ("",)
    for language in languages:
        folder = f"{language}/" if language else ""
        site.page(f"{folder}index.md", f"# Home {language}\n")
        site.page(f"{folder}blog/index.md", f"# Blog {language}\n")
        for n in (1, 2, 3):
            site.page(f"{folder}blog/posts/p{n}.md",
                      f"---\ndate: 2024-01-0{n}\n---\n# Post {n} {language}\n\nExcerpt {n}.\n\n"
                      "<!-- more -->\n\nThe rest.\n")
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = [{"blog": {"pagination_per_page": 2}} if shape == "blog" else
                              {"i18n": {"docs_structure": "folder", "languages": [
                                  {"locale": "en", "default": True, "name": "English"},
                                  {"locale": "fr", "name": "Français"},
                                  {"locale": "de", "name": "Deutsch"}]}},
                              {"sitemap-pro": {}}]
    site.write_config()
    site.commit("pages", day(1))
    records = []
    for name in ("one", "two"):
        run = site.cli("build", "--strict")
        assert run.returncode == 0, run.stderr
        shutil.copytree(site.root / "site", tmp_path / name)
        records.append(json.loads((tmp_path / name / "sitemap.manifest.json").read_bytes()))
    assert records[0]["pages"] == records[1]["pages"]
    listed = (tmp_path / "one" / "sitemap.xml").read_text().count("<loc>")
    assert len(records[0]["pages"]) == listed >= 6
    if shape != "blog":
        return
    # A post's excerpt is what its listing pages show: changed, they change too.
    site.page("blog/posts/p3.md", "---\ndate: 2024-01-03\n---\n# Post 3\n\nExcerpt three.\n\n"
              "<!-- more -->\n\nThe rest.\n")
    site.commit("excerpt", day(2))
    run = site.cli("build", "--strict")
    assert run.returncode == 0, run.stderr
    after = json.loads((site.root / "site" / "sitemap.manifest.json").read_bytes())["pages"]
    changed = {key for key, value in after.items() if value[:11] != records[0]["pages"][key][:11]}
    # the post, the blog's index (post 3 is on its first page) and the archive of 2024
    assert len(changed) == 3, len(changed)
