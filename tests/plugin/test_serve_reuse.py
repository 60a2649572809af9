"""``mkdocs serve --dirty`` rebuilds that take over the last build's work are never stale.

A warm rebuild reuses, for every page MkDocs did not render again, what that page said
in the last build (front matter, rendered head, what it showed, git's answers) and, when
nothing it depends on changed, the whole sitemap part. Each test runs two serve sessions
of one site side by side, each in its own site folder: a warm one, and a cold one told
to forget everything before each rebuild (``plugin.forget()``: it reads every page back
from disk and asks git for every file, as every rebuild did before). After each change
both rebuild; their sitemaps, parsed back, must be equal and show what the change must.
"""

from __future__ import annotations

import os
import shutil
from types import TracebackType

from tests.plugin.test_i18n import make_site
from tests.support.dates import day, utc
from tests.support.git import git_date
from tests.support.hreflang import read_with_alternates
from tests.support.serving import SERVE_URL, Serving, snippet_site
from tests.support.sites import SITE_URL, Site

Urls = dict[str, dict[str, str]]
EPOCH = 1893456000  # 2030-01-01T00:00:00Z (as SOURCE_DATE_EPOCH: the build time)


class Twins:
    """A warm and a cold ``mkdocs serve --dirty`` session of one site."""

    def __init__(self, site: Site, env: dict[str, str] | None = None) -> None:
        self.warm = Serving(site, dirty=True, env=env, site_dir="served", own_plugins=True)
        self.cold = Serving(site, dirty=True, env=env, site_dir="served-cold", own_plugins=True)

    def __enter__(self) -> "Twins":
        self.warm.__enter__()
        self.cold.__enter__()
        assert self.warm.plugin is not self.cold.plugin
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.cold.__exit__(kind, error, tb)
        self.warm.__exit__(kind, error, tb)

    def rebuild(self) -> Urls:
        """Both rebuild; the warm sitemap, once it is shown to equal the cold one."""
        warm = self.warm.rebuild()
        self.cold.plugin.forget()
        cold = self.cold.rebuild()
        assert warm.error is None, (warm.error, warm.messages())
        assert cold.error is None, (cold.error, cold.messages())
        urls, alternates = read_with_alternates(warm.site_dir / "sitemap.xml")
        assert (urls, alternates) == read_with_alternates(cold.site_dir / "sitemap.xml")
        return {loc[len(SERVE_URL):]: fields for loc, fields in urls.items()}



def test_saves_front_matter_pages_commits_and_options_while_serving(site: Site) -> None:
    snippet_site(site, 6)
    with Twins(site) as twins:
        first = twins.rebuild()
        assert first["p1/"]["lastmod"] == utc(day(3)) and first["p2/"]["lastmod"] == utc(day(1))
        site.page("p0.md", '# P0, saved\n\n--8<-- "parts/p0.md"\n')
        assert twins.rebuild() == first
        # Front matter saved, not committed: it counts at once, and stays when another
        # page is saved afterwards (the page is then not rendered again).
        site.page("p3.md", "---\nsitemap:\n  exclude: true\n---\n# P3\n")
        assert "p3/" not in twins.rebuild()
        site.page("p4.md", '---\nsitemap:\n  priority: 0.3\n---\n# P4\n\n--8<-- "parts/p4.md"\n')
        assert twins.rebuild()["p4/"]["priority"] == "0.3"
        site.page("p0.md", '# P0, saved again\n\n--8<-- "parts/p0.md"\n')
        again = twins.rebuild()
        assert "p3/" not in again and again["p4/"]["priority"] == "0.3"
        site.page("p4.md", '# P4\n\n--8<-- "parts/p4.md"\n')
        assert "priority" not in twins.rebuild()["p4/"]
        site.page("p2.md", "---\nrobots: noindex\n---\n# P2\n")
        assert "p2/" not in twins.rebuild()
        # A page added (untracked: no date), then committed (a new HEAD: dated).
        site.page("new.md", "# New\n")
        added = twins.rebuild()
        assert "new/" in added and "lastmod" not in added["new/"]
        site.commit("new page", day(7))
        assert twins.rebuild()["new/"]["lastmod"] == utc(day(7))
        # A page removed: gone, though its HTML stays in the site folder under --dirty.
        (site.root / "docs/p5.md").unlink()
        assert "p5/" not in twins.rebuild()
        # A committed change of a file a page includes: the page is not rendered again,
        # yet it is dated by that commit.
        site.repo.write("parts/p1.md", "part 1, committed while serving\n")
        site.commit("part 1 again", day(9))
        dated = twins.rebuild()
        assert dated["p1/"]["lastmod"] == utc(day(9)) == git_date(site.root, "parts/p1.md")
        assert dated["p0/"]["lastmod"] == utc(day(7))  # saved before: committed with new.md
        # A page that now includes another file is dated by it too.
        site.page("p0.md", '# P0\n\n--8<-- "parts/p0.md"\n\n--8<-- "parts/p1.md"\n')
        assert twins.rebuild()["p0/"]["lastmod"] == utc(day(9))
        # Options saved in mkdocs.yml while serving.
        site.set_options(exclude=["p4.md"], priority=0.7)
        optioned = twins.rebuild()
        assert "p4/" not in optioned and optioned["p1/"]["priority"] == "0.7"
        site.set_options()
        assert "p4/" in twins.rebuild()


def _with_hook(site: Site, name: str, source: str) -> Site:
    """The site with an MkDocs hook ``hooks/<name>.py``, committed on day 4."""
    site.repo.write(f"hooks/{name}.py", source)
    site.config["hooks"] = [f"hooks/{name}.py"]
    site.write_config()
    site.commit("hook", day(4))
    return site


FAIL_HOOK = """import os

def on_post_build(config):
    if os.path.exists(os.path.join(os.path.dirname(config.config_file_path), "fail-now")):
        raise RuntimeError("told to fail")
"""


def test_a_failed_rebuild_leaves_nothing_stale(site: Site) -> None:
    """A page written by a rebuild that then failed is judged by what it is on disk."""
    _with_hook(snippet_site(site, 6), "fail", FAIL_HOOK)
    with Twins(site) as twins:
        assert "p3/" in twins.rebuild()
        (site.root / "fail-now").write_text("", encoding="utf-8")
        site.page("p3.md", "---\nsitemap:\n  priority: 0.2\n---\n# P3\n")
        assert twins.warm.rebuild().error is not None  # written, then failed
        (site.root / "fail-now").unlink()
        site.page("p0.md", '# P0, saved\n\n--8<-- "parts/p0.md"\n')
        warm = twins.warm.rebuild()  # p3 is not rendered again: its HTML is newer
        assert warm.error is None
        assert warm.sitemap()[SERVE_URL + "p3/"]["priority"] == "0.2"
        assert twins.rebuild()["p3/"]["priority"] == "0.2"


# Replaces the HTML of p1 with a noindex stub while a marker file exists, in its own
# on_post_build (before sitemap-pro's), as a plugin writing redirect stubs would.
STUB_HOOK = """import os

def on_post_build(config):
    root = os.path.dirname(config.config_file_path)
    if os.path.exists(os.path.join(root, "stub-p1")):
        with open(os.path.join(config.site_dir, "p1", "index.html"), "w") as out:
            out.write('<html><head><meta name="robots" content="noindex"></head></html>')
"""


def test_a_page_whose_html_another_plugin_replaced(site: Site) -> None:
    _with_hook(snippet_site(site, 6), "stub", STUB_HOOK)
    with Twins(site) as twins:
        assert "p1/" in twins.rebuild()
        (site.root / "stub-p1").write_text("", encoding="utf-8")
        site.page("p1.md", '# P1, saved\n\n--8<-- "parts/p1.md"\n')
        assert "p1/" not in twins.rebuild()  # rendered, then replaced
        site.page("p2.md", '# P2, saved\n\n--8<-- "parts/p2.md"\n')
        assert "p1/" not in twins.rebuild()  # not rendered; replaced again
        (site.root / "stub-p1").unlink()
        site.page("p2.md", '# P2, saved again\n\n--8<-- "parts/p2.md"\n')
        assert "p1/" not in twins.rebuild()  # the stub is still what the site serves
        site.page("p1.md", '# P1, saved again\n\n--8<-- "parts/p1.md"\n')
        assert "p1/" in twins.rebuild()  # rendered: the page again


def test_a_blog_while_serving(site: Site) -> None:
    """Listing pages are rendered in every build, and dated by the posts they list.

    (Material's blog lists no post on a listing page in a --dirty rebuild that does not
    render that post, so such a page is then undated: warm and cold alike.)
    """
    site.repo.write(".gitignore", "site/\nserved*/\n.cache/\n")
    site.page("index.md")
    site.page("blog/index.md", "# Blog\n")
    site.page("blog/posts/a.md", "---\ndate: 2024-01-05\ncategories: [News]\n---\n# A\n\nText.\n")
    site.page("blog/posts/b.md", POST_B.format("More."))
    site.commit("blog", day(1))
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = [{"blog": {"pagination_per_page": 1}}, "sitemap-pro"]
    site.write_config()
    site.commit("material", day(2))
    with Twins(site) as twins:
        first = twins.rebuild()
        assert first["blog/archive/2024/"]["lastmod"] == utc(day(1))
        site.page("blog/posts/b.md", POST_B.format("Edited."))
        assert twins.rebuild()["blog/category/news/"] == first["blog/category/news/"]
        site.commit("post b", day(6))
        assert twins.rebuild()["blog/2024/02/07/b/"]["lastmod"] == utc(day(6))
        site.page("blog/posts/b.md", POST_B.format("Edited again."))
        listed = twins.rebuild()
        assert listed["blog/archive/2024/"]["lastmod"] == utc(day(6))  # lists b, rendered
        assert listed["blog/category/news/"]["lastmod"] == utc(day(6))
        site.page("blog/posts/c.md", "---\ndate: 2024-03-01\ncategories: [News]\n---\n# C\n")
        site.commit("post c", day(8))
        assert twins.rebuild()["blog/2024/03/01/c/"]["lastmod"] == utc(day(8))


POST_B = "---\ndate: 2024-02-07\ncategories: [News]\n---\n# B\n\n{}\n"


def test_a_deleted_site_folder_is_built_afresh(site: Site) -> None:
    """Every page is rendered again, and listed as before."""
    snippet_site(site, 6)
    with Twins(site) as twins:
        first = twins.rebuild()
        shutil.rmtree(twins.warm.site_dir)
        assert twins.rebuild() == first


def test_lastmod_mtime_follows_each_save(site: Site) -> None:
    snippet_site(site, 6)
    site.set_options(lastmod="mtime")
    with Twins(site) as twins:
        twins.rebuild()
        page = site.page("p2.md", '# P2, saved\n\n--8<-- "parts/p2.md"\n')
        saved = 1717243200  # 2024-06-01T12:00:00Z
        os.utime(page, (saved, saved))
        for html in ("served", "served-cold"):  # older still: MkDocs renders it again
            os.utime(site.root / html / "p2/index.html", (saved - 60, saved - 60))
        assert twins.rebuild()["p2/"]["lastmod"] == "2024-06-01T12:00:00+00:00"


def test_the_dependency_cache_holds_the_last_save_after_serving(site: Site) -> None:
    """A save that changes no include is written to the cache when serving ends, for a
    later ``mkdocs build --dirty`` that does not render the page."""
    snippet_site(site, 6)
    site.build()
    with Serving(site, dirty=True, own_plugins=True) as serving:
        assert serving.rebuild().error is None
        source = site.page("p1.md", '# P1, saved\n\n--8<-- "parts/p1.md"\n')
        assert serving.rebuild().error is None
    later = source.stat().st_mtime + 60
    os.utime(site.root / "site/p1/index.html", (later, later))  # not rendered by --dirty
    built = site.build(dirty=True)
    assert built.error is None
    assert built.sitemap()[SITE_URL + "p1/"]["lastmod"] == utc(day(3))  # by parts/p1.md


def test_a_translated_site_while_serving(site: Site) -> None:
    """static-i18n builds every language in the same plugin instance: each keeps its own."""
    make_site(site, "folder", "after")
    site.repo.write(".gitignore", "site/\nserved*/\n.cache/\nprobe.jsonl\n")
    site.commit("ignore", day(200))
    with Twins(site) as twins:
        first = twins.rebuild()
        assert "de/about/" not in first and "fr/about/" in first  # de: a fallback copy
        site.page("fr/guide.md", "# guide fr, saved\n")
        assert twins.rebuild() == first
        site.page("de/about.md", "# about de\n")  # a translation at last
        added = twins.rebuild()
        assert "de/about/" in added and "lastmod" not in added["de/about/"]
        site.commit("about de", day(201))
        done = twins.rebuild()
        assert done["de/about/"]["lastmod"] == utc(day(201))
        assert done["fr/guide/"]["lastmod"] == utc(day(201))  # its saved edit, committed
        assert done["about/"] == added["about/"]


def test_a_lastmod_refused_as_future_is_accepted_once_it_is_not(site: Site) -> None:
    snippet_site(site, 6)
    site.page("soon.md", "---\nsitemap:\n  lastmod: 2030-01-03\n---\n# Soon\n")
    site.commit("soon", day(4))
    env = {"SOURCE_DATE_EPOCH": str(EPOCH)}
    with Twins(site, env) as twins:
        assert twins.rebuild()["soon/"]["lastmod"] == utc(day(4))  # refused: git dates it
        env["SOURCE_DATE_EPOCH"] = str(EPOCH + 3 * 86400)
        assert twins.rebuild()["soon/"]["lastmod"] == "2030-01-03"


def test_a_build_time_fallback_follows_the_build_time(site: Site) -> None:
    snippet_site(site, 6)
    site.set_options(lastmod_fallback="build_time")
    site.page("untracked.md", "# Not committed\n")
    env = {"SOURCE_DATE_EPOCH": str(EPOCH)}
    with Twins(site, env) as twins:
        assert twins.rebuild()["untracked/"]["lastmod"] == "2030-01-01T00:00:00+00:00"
        env["SOURCE_DATE_EPOCH"] = str(EPOCH + 3 * 86400)
        assert twins.rebuild()["untracked/"]["lastmod"] == "2030-01-04T00:00:00+00:00"


def test_without_dependencies_a_commit_dates_pages_not_rendered_again(site: Site) -> None:
    snippet_site(site, 6)
    site.set_options(dependencies=False)
    with Twins(site) as twins:
        assert twins.rebuild()["p2/"]["lastmod"] == utc(day(1))
        site.page("p2.md", '# P2, saved\n\n--8<-- "parts/p2.md"\n')
        twins.rebuild()
        site.commit("p2", day(12))  # the file is as it was saved: not rendered again
        assert twins.rebuild()["p2/"]["lastmod"] == utc(day(12))
