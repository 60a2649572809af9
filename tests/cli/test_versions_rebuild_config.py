"""``versions --rebuild-all-stale -f mkdocs.sp.yml`` on versions deployed (by real
``mike deploy``) from commits that lack that config, as fastapi-users' old versions do:
each is rebuilt with its own commit's mkdocs.yml, said once; a commit with no config at
all is not rebuilt, exit 2, nothing committed."""

from __future__ import annotations

import datetime as dt

from mkdocs_sitemap_pro.cli.main import main
from tests.cli.test_versions_rebuild import (
    PAGES,
    branch_sitemap,
    commit_old_sitemap,
    env,  # noqa: F401 - the fixture
    mike_subject,
    worktrees,
)
from tests.support.mike import ROOT, deploy, show, tip
from tests.support.sites import Site


def source_dates(site: Site, commit: str, version: str) -> dict[str, dt.datetime]:
    """git's own date of each page's source in the history of ``commit``, by URL."""
    out = {}
    for page in PAGES:
        iso = site.repo.git("log", "-1", "--first-parent", "--format=%cI", commit,
                            "--", f"docs/{page}").strip()
        path = "" if page == "index.md" else f"{page[:-3]}/"
        out[f"{ROOT}{version}/{path}"] = dt.datetime.fromisoformat(iso)
    return out


def deploy_two_old_then_sp(site: Site) -> tuple[str, str]:
    """0.9 and 1.0 deployed (without the plugin) from commits holding mkdocs.yml only,
    both left with an empty sitemap (stale); then mkdocs.sp.yml added and 2.0 deployed
    with the plugin. Returns 0.9's and 1.0's source commits."""
    site.config.update(site_url=ROOT, theme={"name": "mkdocs"}, plugins=[])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("guide.md", "# Guide\n")
    site.page("old.md", "# Old\n")
    first = site.commit("docs", "2024-01-10T09:00:00+00:00")
    deploy(site, "0.9")
    site.page("old.md", "# Old\n\nFor 1.0.\n")
    second = site.commit("old page for 1.0", "2024-02-01T10:00:00+00:00")
    deploy(site, "1.0")
    for version, source in (("0.9", first), ("1.0", second)):
        commit_old_sitemap(site, mike_subject(source[:7], version), folder=version)
    site.page("guide.md", "# Guide\n\nRewritten for 2.0.\n")
    site.config["plugins"] = [{"sitemap-pro": {}}]
    site.write_config()
    (site.root / "mkdocs.sp.yml").write_text((site.root / "mkdocs.yml").read_text())
    site.commit("sitemap-pro, in mkdocs.sp.yml too", "2024-03-05T12:00:00+00:00")
    deploy(site, "2.0")
    return first, second


def test_old_commits_without_the_config_are_rebuilt_with_their_mkdocs_yml(
        site, env, capsys, tmp_path):
    first, second = deploy_two_old_then_sp(site)
    capsys.readouterr()
    assert main(["versions", "-f", str(site.root / "mkdocs.sp.yml"), "--rebuild-all-stale"]) == 0
    err = capsys.readouterr().err
    for version, source in (("0.9", first), ("1.0", second)):
        listed = branch_sitemap(site, f"{version}/sitemap.xml", tmp_path)
        assert {url: dt.datetime.fromisoformat(text or "") for url, text in listed.items()} == (
            source_dates(site, source, version)), version
        assert (f"rebuilt the sitemap of version {version} (dated by commit {source[:12]} "
                f"with its mkdocs.yml)") in err, err
    assert err.count("mkdocs.sp.yml is not in every commit") == 1, err
    assert "undated" not in err and "left out" not in err, err
    # 1.0's old page is dated by 1.0's commit, 0.9's by its own.
    assert branch_sitemap(site, "0.9/sitemap.xml", tmp_path)[f"{ROOT}0.9/old/"].startswith("2024-01-10")
    assert branch_sitemap(site, "1.0/sitemap.xml", tmp_path)[f"{ROOT}1.0/old/"].startswith("2024-02-01")


def test_a_commit_with_no_config_at_all_is_not_rebuilt_and_nothing_is_committed(
        site, env, capsys):
    site.config.update(site_url=ROOT, theme={"name": "mkdocs"}, plugins=[])
    (site.root / "mkdocs.yml").unlink()
    (site.root / "site.yml").write_text(
        f"site_name: Test\nsite_url: {ROOT}\ntheme: {{name: mkdocs}}\n")
    for page in PAGES:
        site.page(page, f"# {page}\n")
    source = site.commit("docs, configured in site.yml", "2024-01-10T09:00:00+00:00")
    deploy(site, "-F", "site.yml", "1.0")
    commit_old_sitemap(site, mike_subject(source[:7]))
    site.config["plugins"] = [{"sitemap-pro": {}}]
    site.write_config()
    (site.root / "mkdocs.sp.yml").write_text((site.root / "mkdocs.yml").read_text())
    site.commit("mkdocs.yml and mkdocs.sp.yml", "2024-03-05T12:00:00+00:00")
    deploy(site, "2.0")
    before = tip(site)
    capsys.readouterr()
    assert main(["versions", "-f", str(site.root / "mkdocs.sp.yml"), "--rebuild-all-stale"]) == 2
    err = capsys.readouterr().err
    assert (f"version 1.0: commit {source[:7]}, which mike deployed it from, holds none of "
            "mkdocs.sp.yml, mkdocs.yml, properdocs.yml, so it cannot be rebuilt") in err, err
    assert tip(site) == before and show(site, "sitemap.xml") is None
    assert len(worktrees(site)) == 1
