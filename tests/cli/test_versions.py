"""``mkdocs-sitemap-pro versions`` after real ``mike deploy`` runs: the root index and
robots.txt committed to gh-pages, every sitemap on the branch inside its folder."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest
from lxml import etree

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.git.branch import Branch, commit_files
from tests.support.mike import ROOT, deploy, deployed, make_site, mike_env, show, tip, tree
from tests.support.schemas import SM, parse_sitemap


@pytest.fixture
def env(monkeypatch):
    """The in-process command sees the same isolated git as mike does."""
    for key, value in mike_env().items():
        monkeypatch.setenv(key, value)


def versions(site, *args: str) -> int:
    return main(["versions", "-f", str(site.root / "mkdocs.yml"), *args])


def index_locs(site) -> list[str]:
    text = show(site, "sitemap.xml")
    assert text is not None
    path = site.root.parent / "index.xml"
    path.write_text(text, encoding="utf-8")
    root = parse_sitemap(path)  # validated against siteindex.xsd
    assert root.tag == f"{SM}sitemapindex"
    return [e.text or "" for e in root.iter(f"{SM}loc")]


def check_location_rule(site) -> None:
    """Every sitemap in a version folder (and the root index) lists URLs inside its folder."""
    listed = json.loads(show(site, "versions.json") or "[]")
    for name in [v["version"] for v in listed]:
        text = show(site, f"{name}/sitemap.xml")
        if text is None:
            continue
        for loc in etree.fromstring(text.encode()).iter(f"{SM}loc"):
            assert (loc.text or "").startswith(f"{ROOT}{name}/"), (name, loc.text)
    for loc in index_locs(site):
        assert loc.startswith(ROOT)


def test_root_index_covers_each_version_once_and_robots_keeps_other_lines(site, env, capsys,
                                                                         tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",), ("2.0", "latest", "--update-aliases"))
    # A root robots.txt of the user's own, already on the branch.
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    commit_files(branch, {"robots.txt": b"User-agent: *\nDisallow: /private/\n"}, "robots")
    before, head, status = tip(site), tip(site, "HEAD"), site.repo.git("status", "--porcelain")

    assert versions(site) == 0
    assert "lists 2.0, 1.0" in capsys.readouterr().out
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]
    assert show(site, "robots.txt") == (
        f"User-agent: *\nDisallow: /private/\nSitemap: {ROOT}sitemap.xml\n"
    )
    check_location_rule(site)
    # One commit on top of the old tip, made without a checkout.
    assert site.repo.git("rev-parse", "gh-pages^").strip() == before
    assert site.repo.git("diff", "--name-only", before, "gh-pages").split() == [
        "robots.txt", "sitemap.html", "sitemap.xml", "sitemap.xml.gz"]
    assert tip(site, "HEAD") == head and site.repo.git("status", "--porcelain") == status
    assert tree(site)["latest"] == "120000"  # mike's alias kept

    # Again, through the console entry point: nothing changed, so no empty commit.
    after = tip(site)
    proc = subprocess.run([sys.executable, "-m", "mkdocs_sitemap_pro", "versions"],
                          cwd=site.root, env=mike_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "up to date" in proc.stdout and tip(site) == after

    # A new version moves the alias: the index follows, robots.txt keeps one line.
    deploy(site, "3.0", "latest", "--update-aliases")
    assert show(site, "sitemap.xml") is not None  # mike keeps the root files
    assert versions(site) == 0
    assert index_locs(site) == [f"{ROOT}{v}/sitemap.xml" for v in ("3.0", "2.0", "1.0")]
    assert (show(site, "robots.txt") or "").count("Sitemap:") == 1
    check_location_rule(site)


@pytest.mark.parametrize("alias_type", ["copy", "redirect"])
def test_aliases_of_every_kind_are_not_listed(site, env, alias_type, tmp_path_factory):
    deployed(site, tmp_path_factory,
             ("1.0",), ("2.0", "latest", "--update-aliases", "--alias-type", alias_type))
    assert "latest/index.html" in tree(site)
    assert versions(site) == 0
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml", f"{ROOT}1.0/sitemap.xml"]
    check_location_rule(site)


def test_with_canonical_version_only_that_version_is_listed(site, env, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",), ("2.0",), canonical_version="2.0")
    assert versions(site) == 0
    assert index_locs(site) == [f"{ROOT}2.0/sitemap.xml"]
    check_location_rule(site)


def test_site_url_option_names_the_root(site, env, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    assert versions(site, "--site-url", "https://docs.example.org/") == 2  # 1.0 lists example.com
    assert show(site, "sitemap.xml") is None


def test_unknown_branch_exits_2(site, env, capsys):
    make_site(site)
    assert versions(site, "--branch", "pages") == 2
    assert "no branch 'pages'" in capsys.readouterr().err


def test_branch_without_versions_json_exits_2_and_commits_nothing(site, env, capsys):
    make_site(site)
    site.repo.git("branch", "gh-pages")
    before = tip(site)
    assert versions(site) == 2
    assert "versions.json is not on gh-pages" in capsys.readouterr().err
    assert tip(site) == before


def add_old_versions(site, sitemaps: dict[str, bytes | None]) -> None:
    """Versions deployed before the plugin: their folders as MkDocs left them."""
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    listed = json.loads(show(site, "versions.json") or "")
    files: dict[str, bytes] = {}
    for name, sitemap in sitemaps.items():
        listed.append({"version": name, "title": name, "aliases": []})
        files[f"{name}/index.html"] = b"<p>old</p>"
        if sitemap is not None:
            files[f"{name}/sitemap.xml"] = sitemap
    files["versions.json"] = json.dumps(listed).encode()
    commit_files(branch, files, "versions from before the plugin")


OLD_NONE = (b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
            b'schemas/sitemap/0.9">\n<url><loc>None</loc><lastmod>2021-03-04</lastmod></url>\n'
            b'</urlset>\n')  # MkDocs 1.2.4 to 1.4.2 without site_url
OLD_EMPTY = (b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
             b'schemas/sitemap/0.9">\n</urlset>\n')


def test_old_versions_are_left_out_with_one_warning_each(site, env, capsys, tmp_path,
                                                         tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    add_old_versions(site, {"0.9": None, "0.8": OLD_NONE, "0.7": OLD_EMPTY, "0.6": b"not xml"})
    assert versions(site) == 0
    captured = capsys.readouterr()
    warned = [line for line in captured.err.splitlines() if "warning: version" in line]
    assert len(warned) == 4, captured.err
    assert any("0.9 is left out" in w and "0.9/sitemap.xml is not on gh-pages" in w for w in warned)
    assert any("0.8 is left out" in w and "lists None, outside" in w for w in warned)
    assert any("0.7 is left out" in w and "lists no URL" in w for w in warned)
    assert any("0.6 is left out" in w and "is not a sitemap" in w for w in warned)
    assert all("mike deploy 0." in w for w in warned)
    assert index_locs(site) == [f"{ROOT}1.0/sitemap.xml"]  # valid (schema-checked)
    assert "lists 1.0;" in captured.out or "lists 1.0" in captured.out
    # Our own checker finds nothing wrong with what was committed.
    export = tmp_path / "export"
    subprocess.run(["git", "worktree", "add", "-q", "--detach", str(export), "gh-pages"],
                   cwd=site.root, env=mike_env(), check=True, capture_output=True)
    assert main(["check", str(export / "sitemap.xml"), "--site-url", ROOT]) == 0, capsys.readouterr().out


def test_only_unusable_versions_exits_2_and_commits_nothing(site, env, capsys, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    branch = Branch.find(site.root, "gh-pages")
    assert branch is not None
    commit_files(branch, {"versions.json": b'[{"version": "0.9", "title": "0.9", "aliases": []}]',
                          "0.9/index.html": b"<p>old</p>"}, "a version without a sitemap")
    before = tip(site)
    assert versions(site) == 2
    err = capsys.readouterr().err
    assert "0.9/sitemap.xml is not on gh-pages" in err and "no version on gh-pages" in err
    assert tip(site) == before and show(site, "sitemap.xml") is None


def test_the_root_index_dates_each_version_and_has_a_gz_and_a_page(site, env, capsys,
                                                                   tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",), ("2.0",))
    assert versions(site) == 0
    root = etree.fromstring((show(site, "sitemap.xml") or "").encode())
    dates = {e.findtext(f"{SM}loc"): e.findtext(f"{SM}lastmod") for e in root}
    for name in ("1.0", "2.0"):
        inner = etree.fromstring((show(site, f"{name}/sitemap.xml") or "").encode())
        newest = max(e.findtext(f"{SM}lastmod") or "" for e in inner)
        assert dates[f"{ROOT}{name}/sitemap.xml"] == newest and newest
    gz = subprocess.run(["git", "show", "gh-pages:sitemap.xml.gz"], cwd=site.root,
                        env=mike_env(), capture_output=True, check=True).stdout
    assert gzip.decompress(gz).decode() == show(site, "sitemap.xml")
    page = show(site, "sitemap.html") or ""
    assert 'href="2.0/sitemap.html"' in page and 'href="1.0/sitemap.xml"' in page


def test_a_version_whose_sitemap_is_an_index_is_listed_by_its_files(site, env, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    site.set_options(index="always")
    deploy(site, "2.0")
    assert "sitemapindex" in (show(site, "2.0/sitemap.xml") or "")
    assert versions(site) == 0
    assert index_locs(site) == [f"{ROOT}2.0/sitemap-1.xml", f"{ROOT}1.0/sitemap.xml"]


def test_push_says_what_was_pushed_where(site, env, capsys, tmp_path, tmp_path_factory):
    deployed(site, tmp_path_factory, ("1.0",))
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], env=mike_env(), check=True)
    site.repo.git("remote", "add", "origin", str(remote))
    assert versions(site, "--push") == 0
    out = capsys.readouterr().out
    assert f"pushed gh-pages ({tip(site)[:12]}) to origin" in out, out
    pushed = subprocess.run(["git", "rev-parse", "gh-pages"], cwd=remote, env=mike_env(),
                            capture_output=True, text=True, check=True).stdout.strip()
    assert pushed == tip(site)


@pytest.mark.parametrize("alias_type", ["symlink", "copy", "redirect"])
def test_check_of_the_whole_branch_knows_the_aliases(site, env, capsys, tmp_path, alias_type,
                                                     tmp_path_factory):
    deployed(site, tmp_path_factory,
             ("1.0",), ("2.0", "latest", "--update-aliases", "--alias-type", alias_type))
    assert versions(site) == 0
    export = tmp_path / "export"
    subprocess.run(["git", "worktree", "add", "-q", "--detach", str(export), "gh-pages"],
                   cwd=site.root, env=mike_env(), check=True, capture_output=True)
    capsys.readouterr()
    status = main(["check", "--strict", str(export)])
    out = capsys.readouterr().out
    assert status == 0 and out.rstrip().endswith("no problem found"), out
    # One version folder alone, as published: nothing either; nor the alias's folder.
    assert main(["check", "--strict", str(export / "2.0"), "--site-url", f"{ROOT}2.0/"]) == 0, \
        capsys.readouterr().out
    capsys.readouterr()
    status = main(["check", "--strict", str(export / "latest"), "--site-url", f"{ROOT}latest/"])
    out = capsys.readouterr().out
    # A copy's or symlink's sitemap lists 2.0's URLs: checked as 2.0's. Redirects hold none.
    assert status == (2 if alias_type == "redirect" else 0), out
