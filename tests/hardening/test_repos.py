"""Hardening, odd repositories: each case a real ``mkdocs build`` of a site in a real repo.

Dates are compared with what ``git log -1 --first-parent --format=%cI -- <path>`` says
in the same checkout. Git trouble is a WARNING (so ``--strict`` fails) and never stops
a plain build; a detached HEAD is normal and says nothing.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.dates import D1, D2, D3, day, utc
from tests.support.git import GitRepo, git_date, git_env
from tests.support.git_calls import GitCalls, subcommand
from tests.support.sites import SITE_URL, Built, Site

PLUGIN_LOGGER = "mkdocs.plugins.sitemap-pro"


def plugin_records(built: Built, level: int = logging.WARNING) -> list[logging.LogRecord]:
    return [r for r in built.records if r.name == PLUGIN_LOGGER and r.levelno >= level]


# -- git trouble: one WARNING, --strict fails, a plain build writes undated URLs -------


def _no_git(site: Site, tmp_path: Path) -> dict[str, str]:
    empty = tmp_path / "no-git-bin"
    empty.mkdir()
    assert shutil.which("git", path=str(empty)) is None
    return {"PATH": str(empty)}


def _not_a_repo(site: Site, tmp_path: Path) -> dict[str, str]:
    shutil.rmtree(site.root / ".git")
    # Never find a repository above tmp_path (a developer's checkout, say).
    return {"GIT_CEILING_DIRECTORIES": str(tmp_path)}


def _no_commits(site: Site, tmp_path: Path) -> dict[str, str]:
    return {}


@pytest.mark.parametrize(
    ("make", "needles"),
    [
        (_no_git, ("git is not installed", "PATH")),
        (_not_a_repo, ("not inside a git repository", "; build in a clone of the repository "
                       "(`git clone`, not a download of its files or a copy without `.git`), "
                       "or, if the site is not kept in git, set the option `lastmod: mtime` "
                       "or `lastmod: none`")),
        (_no_commits, ("has no commits yet",)),
    ],
    ids=["no-git-on-PATH", "not-a-repository", "no-commits"],
)
def test_git_trouble_is_one_warning(site: Site, tmp_path: Path, make, needles) -> None:
    site.page("index.md")
    site.page("guide.md")
    env = make(site, tmp_path)
    built = site.build(env=env)
    assert built.error is None, built.messages()
    warnings = [r for r in built.records if r.levelno >= logging.WARNING]
    assert [r.name for r in warnings] == [PLUGIN_LOGGER], [r.getMessage() for r in warnings]
    assert warnings[0].levelno == logging.WARNING
    for needle in needles:
        assert needle in warnings[0].getMessage()
    urls = built.sitemap()
    assert sorted(urls) == [SITE_URL, SITE_URL + "guide/"]
    assert all("lastmod" not in u for u in urls.values())
    assert any(m.startswith("sitemap-pro: 2 URLs") for m in built.infos())
    strict = site.build(strict=True, env=env)
    assert strict.error is not None


def test_no_git_through_the_real_cli(site: Site, tmp_path: Path) -> None:
    site.page("index.md")
    env = _no_git(site, tmp_path)
    proc = site.cli("build", "--strict", env=env)  # sys.executable is absolute: no PATH needed
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "WARNING" in proc.stderr and "git is not installed" in proc.stderr, proc.stderr
    proc = site.cli("build", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "lastmod" not in (site.root / "site" / "sitemap.xml").read_text()


# -- normal but unusual checkouts: exact dates, not a word --------------------------


def test_detached_head_dates_correctly_and_says_nothing(site: Site) -> None:
    site.page("index.md")
    site.page("a.md")
    site.commit("one", D1)
    site.page("a.md", "# A\nchanged\n")
    site.commit("two", D2)
    site.page("index.md", "# Home\nchanged\n")
    site.commit("three", D3)
    site.repo.git("checkout", "-q", "--detach", "HEAD~1")
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert built.messages() == []
    # Not a word at any level (the test's own folder name holds "detached": plugin only).
    assert not any("detached" in r.getMessage().lower()
                   for r in plugin_records(built, logging.DEBUG))
    assert not any("HEAD" in r.getMessage() for r in plugin_records(built, logging.DEBUG))
    urls = built.sitemap()
    assert urls[SITE_URL]["lastmod"] == git_date(site.root, "docs/index.md") == utc(D1)
    assert urls[SITE_URL + "a/"]["lastmod"] == git_date(site.root, "docs/a.md") == utc(D2)


@pytest.mark.parametrize("depth", [1, 5])
def test_shallow_clone(site: Site, tmp_path: Path, depth: int) -> None:
    site.page("index.md")
    for k in range(1, 8):
        site.page(f"p{k}.md", f"# P{k}\n")
    site.commit("c0", day(1))
    for k in range(1, 8):  # commit c<k> changes p<k> only
        site.page(f"p{k}.md", f"# P{k}\nchanged\n")
        site.commit(f"c{k}", day(1 + k))
    clone = tmp_path / f"clone-{depth}"
    subprocess.run(
        ["git", "clone", "-q", "--depth", str(depth), f"file://{site.root}", str(clone)],
        env=git_env(), check=True, capture_output=True,
    )
    built = Site.checkout(clone, site).build()
    assert built.error is None, built.messages()
    warnings = [r for r in built.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert warnings[0].levelno == logging.WARNING and "shallow clone" in message
    assert "fetch-depth: 0" in message and "git fetch --unshallow" in message
    urls = built.sitemap()
    assert len(urls) == 8
    # c8-depth is the boundary: it and everything older cannot be dated.
    boundary = 8 - depth
    for k in range(1, 8):
        got = urls[f"{SITE_URL}p{k}/"].get("lastmod")
        if k > boundary:
            assert got == git_date(clone, f"docs/p{k}.md") == utc(day(1 + k))
        else:
            assert got is None, k
    assert "lastmod" not in urls[SITE_URL]
    undated = 8 - max(0, 7 - boundary)
    assert any(f"{undated} omitted (shallow)" in m for m in built.infos()), built.infos()
    assert Site.checkout(clone, site).build(strict=True).error is not None


def test_docs_folder_is_a_submodule(site: Site, tmp_path: Path) -> None:
    inner = GitRepo(tmp_path / "docs-origin")
    inner.write("index.md", "# Home\n")
    inner.write("a.md", "# A\n")
    inner.commit("docs one", D1)
    inner.write("a.md", "# A\nchanged\n")
    inner.commit("docs two", D2)
    site.repo.git("submodule", "add", "-q", str(inner.path), "docs")
    site.commit("add docs", D3)  # the outer commit is newer than any page's change
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    assert built.messages() == []
    urls = built.sitemap()
    docs = site.root / "docs"
    assert urls[SITE_URL]["lastmod"] == git_date(docs, "index.md") == utc(D1)
    assert urls[SITE_URL + "a/"]["lastmod"] == git_date(docs, "a.md") == utc(D2)


def test_site_built_in_a_worktree(site: Site, tmp_path: Path) -> None:
    site.page("index.md")
    site.page("a.md")
    site.commit("one", D1)
    site.page("a.md", "# A\nchanged on main\n")
    site.commit("two on main", D3)
    worktree = tmp_path / "wt"
    site.repo.git("worktree", "add", "-q", "-b", "feature", str(worktree), "HEAD~1")
    (worktree / "docs" / "index.md").write_text("# Home\nchanged on feature\n")
    env = git_env({"GIT_COMMITTER_DATE": D2, "GIT_AUTHOR_DATE": D2})
    subprocess.run(["git", "commit", "-q", "-am", "feature"], cwd=worktree, env=env, check=True)
    built = Site.checkout(worktree, site).build(strict=True)
    assert built.error is None, built.messages()
    assert built.messages() == []
    urls = built.sitemap()
    assert urls[SITE_URL]["lastmod"] == git_date(worktree, "docs/index.md") == utc(D2)
    assert urls[SITE_URL + "a/"]["lastmod"] == git_date(worktree, "docs/a.md") == utc(D1)
    assert not (site.root / "site").exists()  # built where it was asked, nowhere else


def test_symlinked_page_is_dated_by_the_file_it_reads(site: Site) -> None:
    site.repo.write("shared/snippet.md", "# Shared\n")
    site.page("index.md")
    (site.root / "docs" / "linked.md").symlink_to(Path("..", "shared", "snippet.md"))
    site.commit("one", D1)
    site.repo.write("shared/snippet.md", "# Shared\nchanged\n")
    site.commit("two: the target changes", D2)
    site.page("index.md", "# Home\nchanged\n")
    site.commit("three", D3)
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    assert urls[SITE_URL + "linked/"]["lastmod"] == git_date(site.root, "shared/snippet.md")
    assert urls[SITE_URL + "linked/"]["lastmod"] == utc(D2)
    assert git_date(site.root, "docs/linked.md") == utc(D1)  # not the link's own date
    assert urls[SITE_URL]["lastmod"] == utc(D3)


@pytest.mark.slow
def test_long_history_is_walked_once_then_brought_forward(site: Site, tmp_path: Path) -> None:
    """50,000 old commits (``git fast-import``), then the site: the first build walks it
    all, the next one runs no ``git log``, and after a new commit one reads one commit."""
    lines: list[str] = []
    for i in range(50_000):
        when = 1_600_000_000 + i * 60
        lines += [
            "commit refs/heads/main", f"mark :{i + 1}",
            f"author A <a@x> {when} +0000", f"committer C <c@x> {when} +0000", "data 2\nc",
        ]
        if i:
            lines.append(f"from :{i}")
        lines += ["M 100644 inline old/notes.md", f"data {len(str(i))}\n{i}"]
    subprocess.run(["git", "fast-import", "--quiet"], cwd=site.root, env=git_env(), check=True,
                   input="\n".join(lines).encode() + b"\n")
    site.repo.git("reset", "-q", "--hard", "main")
    site.page("index.md")
    site.page("a.md")
    site.commit("docs", D1)
    site.page("a.md", "# A\nchanged\n")
    site.commit("a", D2)
    site.commit("unrelated", D3)  # an empty commit after the last page change
    calls = GitCalls(tmp_path / "calls")
    for _ in range(2):
        built = site.build(strict=True, env=calls.env)
        assert built.error is None, built.messages()
        urls = built.sitemap()
        assert urls[SITE_URL]["lastmod"] == git_date(site.root, "docs/index.md") == utc(D1)
        assert urls[SITE_URL + "a/"]["lastmod"] == git_date(site.root, "docs/a.md") == utc(D2)
    logs = [c for c in calls.take() if subcommand(c) == "log"]
    walks = [c for c in logs if "--no-walk" not in c]
    assert len(walks) == 1, logs  # the second build kept the map (its dates confirmed once)
    assert len(logs) == 2, logs
    site.page("a.md", "# A\nagain\n")
    site.commit("again", day(400))
    built = site.build(strict=True, env=calls.env)
    assert built.sitemap()[SITE_URL + "a/"]["lastmod"] == utc(day(400))
    debug = built.messages(logging.DEBUG)
    assert "sitemap-pro: git history: the kept map brought forward, 1 new commit read" in debug, debug
    assert int(site.repo.git("rev-list", "--count", "HEAD")) == 50_004
    assert os.path.exists(site.root / "old" / "notes.md")


def test_repository_owned_by_another_user_names_safe_directory(site: Site) -> None:
    """Git refuses a repository another user owns (CI containers, shared runners): the
    warning must say so and give the fix, not claim there is no repository."""
    site.page("index.md")
    site.commit("one", D1)
    if os.geteuid() != 0:
        pytest.skip("making a repository owned by another user needs root")
    for path in [site.root, *site.root.rglob("*")]:
        os.lchown(path, 65534, 65534)
    built = site.build()
    assert built.error is None, built.messages()
    warnings = [r for r in built.records if r.levelno >= logging.WARNING]
    assert [r.name for r in warnings] == [PLUGIN_LOGGER], [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert "not inside a git repository" not in message, message
    assert "safe.directory" in message and str(site.root) in message, message
    assert "lastmod" not in built.sitemap()[SITE_URL]
    assert site.build(strict=True).error is not None
