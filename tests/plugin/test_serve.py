"""``mkdocs serve`` rebuilds: history read once while HEAD stays, read again after a commit.

Each test runs a serve session the way ``mkdocs.commands.serve`` does (one
``on_startup``, the same plugin instance for every ``build(config, serve_url=...)`` with
a freshly loaded config, one ``on_shutdown``), with the real plugins, in a real git
repository, and counts the git processes each build starts with a wrapper first on
PATH. Expected dates are git's own (``git log -1 --format=%cI -- <file>``).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.support.dates import day, utc
from tests.support.git import git_date
from tests.support.git_calls import GitCalls, subcommand
from tests.support.serving import SERVE_URL, Serving, snippet_site
from tests.support.sites import Built, Site



def lastmods(built: Built) -> dict[str, str]:
    assert built.error is None, (built.error, built.messages())
    return {loc[len(SERVE_URL):]: url["lastmod"] for loc, url in built.sitemap().items()}


def logs(calls: list[str]) -> list[str]:
    return [c for c in calls if subcommand(c) == "log"]


@pytest.mark.parametrize("history", ["first-parent", "all"])
@pytest.mark.parametrize(
    "dirty, dependencies", [(False, True), (True, True), (False, False)],
    ids=["serve", "serve-dirty", "no-dependencies"],
)
def test_a_rebuild_runs_no_git_log_while_nothing_is_committed(
    site: Site, tmp_path: Path, dirty: bool, dependencies: bool, history: str
) -> None:
    snippet_site(site)
    site.set_options(dependencies=dependencies, git_history=history)
    git = GitCalls(tmp_path / "bin")
    with Serving(site, dirty=dirty, env=git.env) as serving:
        first = lastmods(serving.rebuild())
        shown = "parts/p1.md" if dependencies else "docs/p1.md"
        assert first["p1/"] == git_date(site.root, shown)
        assert first["p2/"] == git_date(site.root, "docs/p2.md")
        assert logs(git.take()), "the first build reads history"
        site.page("p2.md", "# P2, edited but not committed\n")  # a save while serving
        site.repo.write("parts/p1.md", "an uncommitted edit\n")
        second = lastmods(serving.rebuild())
        calls = git.take()
        assert logs(calls) == [], calls
        assert [subcommand(c) for c in calls] == ["rev-parse"], calls
        assert second == first
        # A third rebuild still answers from memory.
        assert lastmods(serving.rebuild()) == first
        assert logs(git.take()) == []


def test_after_a_commit_the_next_rebuild_carries_its_date(site: Site, tmp_path: Path) -> None:
    snippet_site(site)
    git = GitCalls(tmp_path / "bin")
    with Serving(site, env=git.env) as serving:
        before = lastmods(serving.rebuild())
        site.repo.write("parts/p3.md", "part 3, committed while serving\n")
        site.commit("part 3", day(9))
        git.take()
        after = lastmods(serving.rebuild())
        assert logs(git.take()), "a new HEAD is read"
        assert after["p3/"] == utc(day(9)) == git_date(site.root, "parts/p3.md")
        assert before["p3/"] != after["p3/"]
        assert {k: v for k, v in after.items() if k != "p3/"} == {
            k: v for k, v in before.items() if k != "p3/"
        }
        # A checkout of the older commit moves HEAD back: its dates come back (by a
        # walk: only the last map is kept, and an older HEAD is not brought forward).
        site.repo.git("checkout", "-q", "HEAD~1")
        assert lastmods(serving.rebuild()) == before
        assert len(logs(git.take())) == 1
        # An amended commit is a new HEAD: read.
        site.repo.write("parts/p4.md", "part 4, amended in\n")
        site.repo.git("add", "-A")
        site.repo.git("commit", "-q", "--amend", "--no-edit",
                      env={"GIT_COMMITTER_DATE": day(12), "GIT_AUTHOR_DATE": day(12)})
        amended = lastmods(serving.rebuild())
        assert logs(git.take())
        assert amended["p4/"] == utc(day(12)) == git_date(site.root, "parts/p4.md")


def test_changed_options_read_history_again(site: Site, tmp_path: Path) -> None:
    snippet_site(site)
    git = GitCalls(tmp_path / "bin")
    with Serving(site, env=git.env) as serving:
        committer = lastmods(serving.rebuild())
        site.set_options(git_date="author")  # mkdocs.yml saved while serving
        git.take()
        author = lastmods(serving.rebuild())
        assert logs(git.take())
        assert author["p1/"] == git_date(site.root, "parts/p1.md", date="author") != committer["p1/"]
        ignored = site.repo.git("rev-parse", "HEAD").strip()
        site.set_options(git_date="author", ignore_commits=[ignored])
        without = lastmods(serving.rebuild())
        assert logs(git.take())
        assert without["p1/"] == git_date(site.root, "docs/p1.md", date="author")


def test_two_repositories_in_one_process_do_not_share_answers(tmp_path: Path) -> None:
    # The same files, committed at other dates: the same plugin instance must not mix them.
    a = snippet_site(Site(tmp_path / "a"))
    b = Site(tmp_path / "b")
    b.repo.write(".gitignore", "site/\nserved/\n.cache/\n")
    b.config["markdown_extensions"] = ["pymdownx.snippets"]
    b.write_config()
    for i in range(5):
        b.page(f"p{i}.md", f'# P{i}\n\n--8<-- "parts/p{i}.md"\n')
        b.repo.write(f"parts/p{i}.md", f"part {i}\n")
    b.commit("pages", day(20))
    with Serving(a) as serving:
        got_a = lastmods(serving.rebuild())
        plugin = serving.plugin
    with Serving(b) as serving:
        assert serving.plugin is plugin
        got_b = lastmods(serving.rebuild())
    assert got_a["p2/"] == utc(day(1))
    assert set(got_b.values()) == {utc(day(20))}


def test_the_git_walk_ends_with_on_shutdown(site: Site) -> None:
    snippet_site(site)
    with Serving(site) as serving:
        lastmods(serving.rebuild())
        lastmods(serving.rebuild())
        workers = [t for t in threading.enumerate() if t.name.startswith("sitemap-pro-git")]
    assert not [t for t in workers if t.is_alive()]
    assert not [t for t in threading.enumerate() if t.name.startswith("sitemap-pro-git")]
    assert not _git_children(), "no git process is left running"


def _git_children() -> list[str]:
    """The git processes that are children of this one (read from /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines()
                          if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(os.getpid()) and fields.get("Name", "").strip() == "git":
            found.append(status.parent.name)
    return found


def _stamps(folder: Path) -> dict[str, tuple[int, int]]:
    names = ("sitemap.xml", "sitemap.xml.gz", "sitemap.html")
    return {n: ((folder / n).stat().st_mtime_ns, (folder / n).stat().st_ino) for n in names}


def test_a_rebuild_that_changes_nothing_writes_nothing(site: Site) -> None:
    snippet_site(site)
    with Serving(site, dirty=True) as serving:
        first = lastmods(serving.rebuild())
        written = _stamps(serving.site_dir)
        # (its title, shown on the page for people, kept: a new title is a new page)
        site.page("p2.md", "# P2\n\nEdited but not committed.\n")
        assert lastmods(serving.rebuild()) == first
        assert _stamps(serving.site_dir) == written, "the same bytes are not written again"
        # A sitemap file removed (or changed) on disk is written again.
        (serving.site_dir / "sitemap.xml.gz").unlink()
        assert lastmods(serving.rebuild()) == first
        assert (serving.site_dir / "sitemap.xml.gz").exists()
        assert _stamps(serving.site_dir)["sitemap.xml"] != written["sitemap.xml"]


def test_a_saved_front_matter_change_shows_in_the_next_dirty_rebuild(site: Site) -> None:
    snippet_site(site)
    with Serving(site, dirty=True) as serving:
        assert "p3/" in lastmods(serving.rebuild())
        site.page("p3.md", "---\nsitemap:\n  exclude: true\n---\n# P3\n")
        assert "p3/" not in lastmods(serving.rebuild())
        site.page("p4.md", "---\nsitemap:\n  priority: 0.3\n---\n# P4\n")
        built = serving.rebuild()
        assert built.sitemap()[SERVE_URL + "p4/"]["priority"] == "0.3"
        assert "p3/" not in lastmods(built), "a page not rebuilt keeps what it said"


def test_unshallowing_while_serving_is_read_again(site: Site, tmp_path: Path) -> None:
    # HEAD stays the same commit; only the shallow boundary moves.
    snippet_site(site)
    site.repo.write("parts/p4.md", "part 4, later\n")
    site.commit("part 4", day(5))
    clone = tmp_path / "clone"
    site.repo.git("clone", "-q", "--depth", "1", f"file://{site.root}", str(clone))
    shallow = Site.checkout(clone, site)
    git = GitCalls(tmp_path / "bin")
    with Serving(shallow, env=git.env) as serving:
        before = serving.rebuild()
        assert before.error is None
        urls = before.sitemap()
        assert "lastmod" not in urls[SERVE_URL + "p0/"], "older than the shallow history"
        site.repo.git("-C", str(clone), "fetch", "-q", "--unshallow")
        git.take()
        after = lastmods(serving.rebuild())
        assert logs(git.take()), "a new shallow state is read"
        assert after["p0/"] == utc(day(1))
        assert after["p1/"] == utc(day(3))
        assert after["p4/"] == utc(day(5))
