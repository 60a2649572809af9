"""``mkdocs-sitemap-pro versions --rebuild`` after real ``mike deploy`` runs: a version
deployed before the plugin gets the plugin's sitemap from its pages on the branch, dated
by the history of the commit mike deployed it from, committed with the root index."""

from __future__ import annotations

import datetime as dt
import gzip
import subprocess

import pytest
from lxml import etree

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.git.branch import Branch, commit_files
from tests.support.shared import made_once
from tests.support.mike import ROOT, deploy, mike_env, show, tip, tree
from tests.support.schemas import SM, parse_sitemap
from tests.support.sites import Site

EMPTY = (b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
         b'schemas/sitemap/0.9">\n</urlset>\n')
PAGES = ("index.md", "guide.md", "old.md")


@pytest.fixture
def env(monkeypatch):
    """The in-process command sees the same isolated git as mike does."""
    for key, value in mike_env().items():
        monkeypatch.setenv(key, value)


def versions(site: Site, *args: str) -> int:
    return main(["versions", "-f", str(site.root / "mkdocs.yml"), *args])


def deploy_old_then_new(site: Site, factory: pytest.TempPathFactory, *mike_args: str,
                        first: tuple[str, ...] = ()) -> str:
    """1.0 deployed without the plugin (``first``: more of mike's arguments for it), then
    later commits (which must not date 1.0's pages) and 2.0 deployed with it (made once a
    run, then copied: ``made_once``). Returns 1.0's source commit."""
    return made_once(site, factory, repr(("old then new", mike_args, first)),
                     lambda origin: _deploy_old_then_new(origin, *mike_args, first=first))


def _deploy_old_then_new(site: Site, *mike_args: str, first: tuple[str, ...]) -> str:
    site.config.update(site_url=ROOT, theme={"name": "mkdocs"}, plugins=[])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide\n")
    site.commit("docs", "2024-01-10T09:00:00+00:00")
    site.page("old.md", "# Old\n")
    source = site.commit("old page", "2024-02-01T10:00:00+00:00")
    deploy(site, *mike_args, *first, "1.0")
    site.page("guide.md", "# Guide\n\nRewritten for 2.0.\n")
    site.commit("guide for 2.0", "2024-03-01T11:00:00+00:00")
    site.config["plugins"] = [{"sitemap-pro": {}}]
    site.write_config()
    site.commit("sitemap-pro", "2024-03-05T12:00:00+00:00")
    deploy(site, *mike_args, "2.0")
    return source


def commit_old_sitemap(site: Site, subject: str, folder: str = "1.0") -> None:
    """An empty sitemap in the version's folder, committed as an old deploy would be."""
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    commit_files(branch, {f"{folder}/sitemap.xml": EMPTY}, subject)


def mike_subject(rev: str, version: str = "1.0") -> str:
    return f"Deployed {rev} to {version} with MkDocs 1.6.1 and mike 2.2.0"


def source_dates(site: Site, commit: str) -> dict[str, dt.datetime]:
    """git's own date of each page's source in the history of ``commit``, by URL."""
    out = {}
    for page in PAGES:
        iso = site.repo.git("log", "-1", "--first-parent", "--format=%cI", commit,
                            "--", f"docs/{page}").strip()
        url = f"{ROOT}1.0/" if page == "index.md" else f"{ROOT}1.0/{page[:-3]}/"
        out[url] = dt.datetime.fromisoformat(iso)
    return out


def branch_sitemap(site: Site, path: str, tmp_path) -> dict[str, str | None]:
    """A urlset on the branch, validated against the schema: {loc: lastmod text}."""
    text = show(site, path)
    assert text is not None, f"{path} is not on gh-pages"
    file = tmp_path / path.replace("/", "_")
    file.write_text(text, encoding="utf-8")
    root = parse_sitemap(file)
    assert root.tag == f"{SM}urlset"
    return {u.findtext(f"{SM}loc") or "": u.findtext(f"{SM}lastmod") for u in root}


def index_locs(site: Site, name: str = "sitemap.xml") -> list[str]:
    root = etree.fromstring((show(site, name) or "").encode())
    assert root.tag == f"{SM}sitemapindex"
    return [e.text or "" for e in root.iter(f"{SM}loc")]


def worktrees(site: Site) -> list[str]:
    return [line for line in site.repo.git("worktree", "list", "--porcelain").splitlines()
            if line.startswith("worktree ")]


def check_branch(site: Site, tmp_path, capsys) -> None:
    """Our checker finds nothing wrong with the whole branch."""
    export = tmp_path / "export"
    subprocess.run(["git", "worktree", "add", "-q", "--detach", str(export), "gh-pages"],
                   cwd=site.root, env=mike_env(), check=True, capture_output=True)
    capsys.readouterr()
    status = main(["check", "--strict", str(export)])
    out = capsys.readouterr().out
    assert status == 0 and out.rstrip().endswith("no problem found"), out


def test_rebuild_dates_an_old_version_by_the_commit_it_was_deployed_from(
        site, env, capsys, tmp_path, tmp_path_factory):
    source = deploy_old_then_new(site, tmp_path_factory)
    stock = show(site, "1.0/sitemap.xml") or ""
    assert "<lastmod>" in stock and "sitemap-pro" not in (show(site, "1.0/sitemap.html") or "-")
    before, head, status = tip(site), tip(site, "HEAD"), site.repo.git("status", "--porcelain")

    assert versions(site, "--rebuild", "1.0") == 0
    captured = capsys.readouterr()
    assert "rebuilt the sitemap of version 1.0 (dated by commit" in captured.err, captured.err
    assert "left out" not in captured.err

    listed = branch_sitemap(site, "1.0/sitemap.xml", tmp_path)
    expected = source_dates(site, source)
    assert set(listed) == set(expected)  # every page of 1.0, nothing else
    for url, when in expected.items():
        lastmod = listed[url]
        assert lastmod is not None and dt.datetime.fromisoformat(lastmod) == when, (url, lastmod)
    # The guide changed after 1.0 was deployed: that date is not 1.0's.
    assert dt.datetime.fromisoformat(listed[f"{ROOT}1.0/guide/"] or "").month == 1
    gz = subprocess.run(["git", "show", "gh-pages:1.0/sitemap.xml.gz"], cwd=site.root,
                        env=mike_env(), capture_output=True, check=True).stdout
    assert gzip.decompress(gz).decode() == show(site, "1.0/sitemap.xml")
    assert "1.0/sitemap.html" in tree(site) and "1.0/robots.txt" not in tree(site)
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]
    root = etree.fromstring((show(site, "sitemap.xml") or "").encode())
    dates = {e.findtext(f"{SM}loc"): e.findtext(f"{SM}lastmod") for e in root}
    assert dt.datetime.fromisoformat(dates[f"{ROOT}1.0/sitemap.xml"] or "") == max(expected.values())
    # One commit on top of the old tip; the user's checkout untouched, no worktree left.
    assert site.repo.git("rev-parse", "gh-pages^").strip() == before
    assert site.repo.git("log", "-1", "--format=%s", "gh-pages").strip() == (
        "Sitemap index for 2.0, 1.0; 1.0 rebuilt (mkdocs-sitemap-pro versions)")
    assert tip(site, "HEAD") == head and site.repo.git("status", "--porcelain") == status
    assert len(worktrees(site)) == 1
    check_branch(site, tmp_path, capsys)


def test_rebuild_all_stale_rebuilds_only_the_versions_it_would_leave_out(
        site, env, capsys, tmp_path, tmp_path_factory):
    source = deploy_old_then_new(site, tmp_path_factory)
    commit_old_sitemap(site, mike_subject(source[:7]))  # an old deploy: an empty urlset
    new_sitemap = show(site, "2.0/sitemap.xml")
    assert versions(site) == 0
    assert "version 1.0 is left out" in capsys.readouterr().err
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml"]

    assert versions(site, "--rebuild-all-stale") == 0
    err = capsys.readouterr().err
    assert "left out" not in err and "rebuilding the sitemap of version 2.0" not in err, err
    listed = branch_sitemap(site, "1.0/sitemap.xml", tmp_path)
    expected = source_dates(site, source)
    assert {url: dt.datetime.fromisoformat(text or "") for url, text in listed.items()} == expected
    assert show(site, "2.0/sitemap.xml") == new_sitemap
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]
    # Nothing is stale any more: the next run changes nothing.
    after = tip(site)
    assert versions(site, "--rebuild-all-stale") == 0
    assert "up to date" in capsys.readouterr().out and tip(site) == after
    check_branch(site, tmp_path, capsys)


@pytest.mark.parametrize("first, subject, said", [
    ((), mike_subject("deadbee"), "commit deadbee, which mike deployed it from"),
    (("-m", "Release 1.0"), "sitemap by hand", "says which commit it was built from"),
])
def test_without_its_source_commit_the_pages_are_listed_undated_with_a_warning(
        site, env, capsys, tmp_path, first, subject, said, tmp_path_factory):
    deploy_old_then_new(site, tmp_path_factory, first=first)
    commit_old_sitemap(site, subject)
    assert versions(site, "--rebuild", "1.0") == 0
    err = capsys.readouterr().err
    warned = [line for line in err.splitlines() if line.startswith("WARNING")]
    assert len(warned) == 1 and "version 1.0" in warned[0] and said in warned[0], err
    assert "listed undated" in warned[0]
    if not first:  # says how to get the commit
        assert "is not in this repository" in warned[0] and "git fetch" in warned[0]
    assert branch_sitemap(site, "1.0/sitemap.xml", tmp_path) == {
        f"{ROOT}1.0/": None, f"{ROOT}1.0/guide/": None, f"{ROOT}1.0/old/": None}
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]
    check_branch(site, tmp_path, capsys)


def test_rebuild_under_a_deploy_prefix(site, env, capsys, tmp_path, tmp_path_factory):
    source = deploy_old_then_new(site, tmp_path_factory, "--deploy-prefix", "docs")
    assert f"Deployed {source[:7]} to 1.0 in docs with" in site.repo.git(
        "log", "--format=%s", "gh-pages")
    assert versions(site, "--deploy-prefix", "docs", "--rebuild", "1.0") == 0
    listed = branch_sitemap(site, "docs/1.0/sitemap.xml", tmp_path)
    assert {url: dt.datetime.fromisoformat(text or "") for url, text in listed.items()} == \
        source_dates(site, source)
    assert index_locs(site, "docs/sitemap.xml") == [f"{ROOT}2.0/sitemap.xml",
                                                    f"{ROOT}1.0/sitemap.xml"]


@pytest.mark.parametrize("name, said", [
    ("3.0", "lists no version 3.0 (its versions: 2.0, 1.0)"),
    ("latest", "latest is an alias of version 2.0"),
])
def test_a_version_not_in_versions_json_exits_2_and_commits_nothing(
        site, env, capsys, name, said, tmp_path_factory):
    deploy_old_then_new(site, tmp_path_factory)
    deploy(site, "2.0", "latest", "--update-aliases")
    before = tip(site)
    assert versions(site, "--rebuild", "1.0", name) == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert tip(site) == before and show(site, "sitemap.xml") is None
    assert len(worktrees(site)) == 1


def test_a_failed_rebuild_commits_nothing_not_even_the_versions_rebuilt_before(
        site, env, capsys, tmp_path_factory):
    deploy_old_then_new(site, tmp_path_factory)
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    listed = (show(site, "versions.json") or "").rstrip().removesuffix("]")
    commit_files(branch, {"versions.json": f'{listed}, {{"version": "0.9", "title": "0.9", '
                                           f'"aliases": []}}]'.encode()}, "0.9, folder lost")
    before = tip(site)
    assert versions(site, "--rebuild", "1.0", "0.9") == 2
    captured = capsys.readouterr()
    assert "rebuilt the sitemap of version 1.0" in captured.err  # first, then 0.9 failed
    assert "0.9/ is not a folder on gh-pages" in captured.err, captured.err
    assert tip(site) == before and len(worktrees(site)) == 1


def test_a_version_whose_sitemap_had_another_name_gets_the_one_the_index_reads(
        site, env, capsys, tmp_path, tmp_path_factory):
    deploy_old_then_new(site, tmp_path_factory)
    site.config["plugins"] = [{"sitemap-pro": {"filename": "map.xml"}}]
    site.write_config()
    site.commit("another name", "2024-03-10T12:00:00+00:00")
    deploy(site, "1.5")
    assert show(site, "1.5/map.xml") is not None
    site.config["plugins"] = [{"sitemap-pro": {}}]
    site.write_config()
    site.commit("the usual name", "2024-03-11T12:00:00+00:00")
    assert versions(site, "--rebuild-all-stale") == 0
    listed = branch_sitemap(site, "1.5/sitemap.xml", tmp_path)
    assert set(listed) == {f"{ROOT}1.5/", f"{ROOT}1.5/guide/", f"{ROOT}1.5/old/"}
    assert dt.datetime.fromisoformat(listed[f"{ROOT}1.5/guide/"] or "").month == 3
    assert index_locs(site) == [f"{ROOT}{v}/sitemap.xml" for v in ("2.0", "1.5", "1.0")]
