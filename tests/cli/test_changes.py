"""``mkdocs-sitemap-pro changes OLD NEW``: two real builds of a site, a commit between them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.cli.changes import line
from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.check import CheckOptions
from mkdocs_sitemap_pro.core.deploy.changes import Change, read_urls
from mkdocs_sitemap_pro.core.deploy.manifest import page_key, parse_manifest
from tests.core.check.tree_files import url, urlset, write_tree
from tests.support.browser import serve
from tests.support.dates import day
from tests.support.deploys import rendered_deploys
from tests.support.git import git_env
from tests.support.hreflang import read_with_alternates
from tests.support import mike
from tests.support.sites import SITE_URL, Site

PAGES = ("index.md", "a.md", "b.md", "guide/c.md")


def make_site(root, **options):
    site = Site(root, options=options)
    site.repo.write(".gitignore", "site/\n")
    for n, name in enumerate(PAGES, start=1):
        site.page(name, f"# {name}\n")
        site.commit(f"add {name}", day(n))
    return site


def build(site, keep=None):
    built = site.build()
    assert built.error is None, built.messages()
    if keep is not None:
        shutil.copytree(built.site_dir, keep)
    return built.site_dir


def two_deploys(tmp_path, **options):
    """Build, keep the build as old/, then change a, add d, delete b (day 10), build."""
    site = make_site(tmp_path / "p", **options)
    build(site, tmp_path / "old")
    site.page("a.md", "# a, changed\n")
    site.page("d.md", "# d\n")
    (site.root / "docs" / "b.md").unlink()
    site.commit("change a, add d, drop b", day(10))
    return site, build(site)


def drop_pages(manifest):
    """Make ``manifest`` one an earlier version wrote: no page recorded."""
    data = json.loads(manifest.read_text())
    del data["pages"], data["rendered"]
    manifest.write_text(json.dumps(data))


def test_two_builds_a_commit_apart(tmp_path, capsys):
    _, new = two_deploys(tmp_path)
    assert main(["changes", str(tmp_path / "old"), str(new)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        f"added     {SITE_URL}d/",
        f"removed   {SITE_URL}b/",
        f"updated   {SITE_URL}a/  (2024-01-03T10:00:00+00:00 -> 2024-01-11T10:00:00+00:00)",
    ]
    assert captured.err == ""
    # Nothing changed: nothing printed, still 0.
    assert main(["changes", str(new), str(new)]) == 0
    assert capsys.readouterr().out == ""


def test_json_records_parse_back(tmp_path, capsys):
    _, new = two_deploys(tmp_path)
    assert main(["changes", str(tmp_path / "old"), str(new), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records == [
        {"kind": "added", "url": f"{SITE_URL}d/", "old": None,
         "new": "2024-01-11T10:00:00+00:00", "reason": None},
        {"kind": "removed", "url": f"{SITE_URL}b/", "old": "2024-01-04T10:00:00+00:00",
         "new": None, "reason": None},
        {"kind": "updated", "url": f"{SITE_URL}a/", "old": "2024-01-03T10:00:00+00:00",
         "new": "2024-01-11T10:00:00+00:00", "reason": "rendered"},
    ]
    # A manifest made before pages were recorded: by the lastmods.
    drop_pages(tmp_path / "old" / "sitemap.manifest.json")
    assert main(["changes", str(tmp_path / "old"), str(new), "--json"]) == 0
    assert [json.loads(line)["reason"] for line in capsys.readouterr().out.splitlines()] == [
        None, None, "lastmod"]


def test_sitemap_files_given_directly_sharded_and_gzipped(tmp_path, capsys):
    _, new = two_deploys(tmp_path, max_urls=2)
    assert (new / "sitemap-2.xml").is_file()  # an index and its files, each with a .gz
    old = tmp_path / "old"
    assert main(["changes", str(old / "sitemap.xml.gz"), str(new / "sitemap.xml")]) == 0
    assert [line.split()[:2] for line in capsys.readouterr().out.splitlines()] == [
        ["added", f"{SITE_URL}d/"], ["removed", f"{SITE_URL}b/"], ["updated", f"{SITE_URL}a/"]]
    # The files of an index, and a .gz entry, are fingerprinted by the entry's manifest.
    for target in (new, new / "sitemap.xml", old / "sitemap.xml.gz"):
        read = read_urls(str(target), CheckOptions())
        assert len(read.urls) == 4 and read.rendered.keys() == read.urls.keys(), target
    # One file of the index: only its URLs (sitemap-1.xml holds the home page and a/).
    assert main(["changes", str(old / "sitemap-1.xml"), str(new / "sitemap-1.xml")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"updated   {SITE_URL}a/  (2024-01-03T10:00:00+00:00 -> 2024-01-11T10:00:00+00:00)"]


def test_the_old_tree_over_http(tmp_path, capsys):
    served = tmp_path / "served"
    served.mkdir()
    with serve(served) as base:
        site = Site(tmp_path / "p", site_url=base, plugins=[{"sitemap-pro": {"max_urls": 2}}])
        site.repo.write(".gitignore", "site/\n")
        for n, name in enumerate(PAGES, start=1):
            site.page(name, f"# {name}\n")
            site.commit(f"add {name}", day(n))
        shutil.copytree(build(site), served, dirs_exist_ok=True)  # the deployed site
        site.page("guide/c.md", "# c, changed\n")
        site.commit("change c", day(12))
        new = build(site)
        assert main(["changes", base, str(new)]) == 0
        assert capsys.readouterr().out.splitlines() == [
            f"updated   {base}guide/c/  (2024-01-05T10:00:00+00:00 -> 2024-01-13T10:00:00+00:00)"]
        assert main(["changes", base + "sitemap.xml", base + "sitemap.xml"]) == 0
        assert capsys.readouterr().out == ""
        # No sitemap at a URL (404): the tree cannot be read; each URL said once.
        assert main(["changes", base + "nothing/", str(new)]) == 2
        assert capsys.readouterr().err == (
            f"mkdocs-sitemap-pro changes: cannot compare: there is no sitemap at {base}nothing/: "
            f"{base}nothing/sitemap.xml does not exist\n")
        assert main(["changes", base + "nothing.xml", str(new)]) == 2
        assert capsys.readouterr().err == (
            f"mkdocs-sitemap-pro changes: cannot compare: there is no sitemap at "
            f"{base}nothing.xml: it does not exist\n")


def test_a_lastmod_that_went_back_is_reported_and_warned(tmp_path, capsys):
    site = make_site(tmp_path / "p")
    build(site, tmp_path / "old")
    # A commit dated before the one it follows (history rewritten, a clock set wrong).
    site.page("a.md", "# a, again\n")
    site.commit("dated in the past", "2023-12-25T12:00:00+00:00")
    new = build(site)
    assert main(["changes", str(tmp_path / "old"), str(new)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        f"backwards {SITE_URL}a/  (2024-01-03T10:00:00+00:00 -> 2023-12-25T12:00:00+00:00; "
        "rendered content changed)"]
    assert captured.err == (
        "mkdocs-sitemap-pro changes: warning: 1 URL's lastmod went backwards: the history "
        "was rewritten, or dates were carried wrongly (a shallow clone without the last "
        "deploy's manifest?)\n")


def test_other_content_on_the_same_day_is_an_update_by_the_manifest(tmp_path, capsys):
    site = make_site(tmp_path / "p", lastmod_format="date")
    site.page("a.md", "# a, morning\n")
    site.commit("morning", day(5, hour=9))
    build(site, tmp_path / "old")
    site.page("a.md", "# a, afternoon\n")
    site.commit("afternoon", day(5, hour=15))
    new = build(site)
    assert main(["changes", str(tmp_path / "old"), str(new), "--json"]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == [
        {"kind": "updated", "url": f"{SITE_URL}a/", "old": "2024-01-06", "new": "2024-01-06",
         "reason": "rendered"}]
    assert main(["changes", str(tmp_path / "old"), str(new)]) == 0
    assert capsys.readouterr().out == (
        f"updated   {SITE_URL}a/  (rendered content changed; lastmod 2024-01-06)\n")
    # Manifests that record no page (an earlier version's): by the files that dated it.
    drop_pages(tmp_path / "old" / "sitemap.manifest.json")
    assert main(["changes", str(tmp_path / "old"), str(new), "--json"]) == 0
    assert [json.loads(line)["reason"] for line in capsys.readouterr().out.splitlines()] == [
        "content"]
    assert main(["changes", str(tmp_path / "old"), str(new)]) == 0
    assert capsys.readouterr().out == (
        f"updated   {SITE_URL}a/  (content changed; lastmod 2024-01-06)\n")
    # Without the old tree's manifest the lastmods alone say nothing changed.
    (tmp_path / "old" / "sitemap.manifest.json").unlink()
    assert main(["changes", str(tmp_path / "old"), str(new)]) == 0
    assert capsys.readouterr().out == ""


def test_a_line_says_why_a_page_is_updated_when_its_lastmods_do_not():
    u = f"{SITE_URL}a/"
    assert [line(Change(u, "updated", old, new, "rendered")) for old, new in [
        ("2024-01-06", "2024-01-06"), (None, "2024-01-06"), ("2024-01-06", None), (None, None),
        ("2024-01-06", "2024-01-07")]] == [
        f"updated   {u}  (rendered content changed; lastmod 2024-01-06)",
        f"updated   {u}  (rendered content changed; lastmod 2024-01-06)",
        f"updated   {u}  (rendered content changed)",
        f"updated   {u}  (rendered content changed)",
        f"updated   {u}  (2024-01-06 -> 2024-01-07)"]


def test_a_tree_that_cannot_be_read_exits_2(tmp_path, capsys):
    _, new = two_deploys(tmp_path, max_urls=2)
    old = tmp_path / "old"
    assert main(["changes", str(tmp_path / "missing"), str(new)]) == 2
    assert "does not exist" in capsys.readouterr().err
    # A file of the index gone: its URLs would all look removed, so nothing is compared.
    (old / "sitemap-2.xml").unlink()
    assert main(["changes", str(old), str(new), "--json"]) == 2
    captured = capsys.readouterr()
    # JSON Lines, as check --json: the one line says it could not run.
    assert json.loads(captured.out) == {"old": str(old), "new": str(new), "status": 2,
                                        "error": json.loads(captured.out)["error"]}
    assert captured.out.count("\n") == 1
    # The file named once: its URL says it, so no "sitemap-2.xml: " before it.
    assert (f"could not be read whole: {SITE_URL}sitemap-2.xml does not exist, listed by "
            f"sitemap.xml (looked for {old / 'sitemap-2.xml'})") in captured.err, captured.err
    write_tree(old, {"sitemap-2.xml": "<urlset"})
    assert main(["changes", str(old), str(new)]) == 2
    assert "sitemap-2.xml: not a sitemap: not well-formed XML" in capsys.readouterr().err
    # A folder with no sitemap at all, as NEW.
    empty = tmp_path / "empty"
    write_tree(empty, {"robots.txt": f"Sitemap: {SITE_URL}sitemap.xml\n"})
    assert main(["changes", str(new), str(empty)]) == 2
    assert "there is no sitemap at" in capsys.readouterr().err


def test_an_old_folder_without_robots_txt_is_taken_at_the_new_ones_url(tmp_path, capsys):
    write_tree(tmp_path / "old", {"sitemap.xml": urlset(url(SITE_URL, "2024-01-01"))})
    write_tree(tmp_path / "new", {"robots.txt": f"Sitemap: {SITE_URL}sitemap.xml\n",
                                  "sitemap.xml": urlset(url(SITE_URL, "2024-01-02"),
                                                        url(SITE_URL + "x/"))})
    assert main(["changes", str(tmp_path / "old"), str(tmp_path / "new")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"added     {SITE_URL}x/", f"updated   {SITE_URL}  (2024-01-01 -> 2024-01-02)"]
    # Neither can tell: say so (exit 2), or be told.
    (tmp_path / "new" / "robots.txt").unlink()
    assert main(["changes", str(tmp_path / "old"), str(tmp_path / "new")]) == 2
    assert "pass --site-url" in capsys.readouterr().err
    assert main(["changes", str(tmp_path / "old"), str(tmp_path / "new"),
                 "--site-url", SITE_URL]) == 0


# -- by what each page rendered (the manifests' fingerprints) ---------------------------

CHANGED = [
    {"kind": "added", "url": f"{SITE_URL}new/", "old": None,
     "new": "2024-01-11T10:00:00+00:00", "reason": None},
    {"kind": "removed", "url": f"{SITE_URL}gone/", "old": "2024-01-05T10:00:00+00:00",
     "new": None, "reason": None},
    {"kind": "updated", "url": f"{SITE_URL}word/", "old": "2024-01-04T10:00:00+00:00",
     "new": "2024-01-11T10:00:00+00:00", "reason": "rendered"},
]


@pytest.mark.parametrize("previous", [True, False], ids=["previous", "plain"])
def test_a_page_re_wrapped_is_no_change_a_changed_word_is(tmp_path, capsys, previous):
    new, before, after = rendered_deploys(tmp_path, previous)
    same = f"{SITE_URL}same/"
    assert before[same]["lastmod"] == "2024-01-03T10:00:00+00:00"
    # With previous the build kept its date; built plainly git re-dated it: either way
    # it renders the same, so it is no change.
    assert after[same]["lastmod"] == (before[same]["lastmod"] if previous
                                      else "2024-01-11T10:00:00+00:00")
    assert main(["changes", str(tmp_path / "old"), str(new), "--json"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line) for line in captured.out.splitlines()] == CHANGED
    assert captured.err == ""
    assert main(["changes", str(tmp_path / "old"), str(new)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"added     {SITE_URL}new/", f"removed   {SITE_URL}gone/",
        f"updated   {SITE_URL}word/  (2024-01-04T10:00:00+00:00 -> 2024-01-11T10:00:00+00:00)"]


def site_of(tmp_path, shape):
    """A site with a nested page, a README, a name to escape; in ``shape``: MkDocs with
    directory URLs or without, with static-i18n, or Zensical then our ``build``."""
    site = Site(tmp_path / "p")
    site.repo.write(".gitignore", "site/\n")
    if shape == "flat":
        site.config["use_directory_urls"] = False
    if shape == "i18n":
        site.config["theme"] = {"name": "material"}
        site.config["plugins"] = [{"sitemap-pro": {}}, {"i18n": {
            "docs_structure": "suffix",
            "languages": [{"locale": "en", "default": True, "name": "English"},
                          {"locale": "fr", "name": "Français"}]}}]
    if shape == "zensical":
        site.config["theme"] = {"name": "material"}
    site.write_config()
    names = ["index.md", "guide/README.md", "guide/deep/page.md", "café ü.md"]
    if shape == "i18n":
        names += [name.replace(".md", ".fr.md") for name in names]
    for name in names:
        site.page(name, f"# {name}\n\nText.\n")
    site.commit("pages", day(1))
    return site


@pytest.mark.parametrize("shape", ["mkdocs", "flat", "i18n", "zensical"])
def test_every_listed_loc_is_keyed_as_the_build_recorded_it(tmp_path, shape, monkeypatch):
    site = site_of(tmp_path, shape)
    if shape == "zensical":
        if sys.version_info < (3, 11):
            pytest.skip("Zensical requires Python 3.11 or newer")
        subprocess.run([str(Path(sys.executable).parent / "zensical"), "build", "--clean"],
                       cwd=site.root, env=git_env(), check=True, capture_output=True, timeout=120)
        monkeypatch.chdir(site.root)
        assert main(["build"]) == 0
        folder = site.root / "site"
    else:
        built = site.build(strict=True)
        assert built.error is None, built.messages()
        folder = built.site_dir
    locs = list(read_with_alternates(folder / "sitemap.xml")[0])  # validated
    assert len(locs) == (8 if shape == "i18n" else 4)
    assert all(loc.startswith(SITE_URL) for loc in locs)
    rendered = parse_manifest((folder / "sitemap.manifest.json").read_bytes()).rendered
    assert rendered is not None
    assert rendered.method == ("built-1" if shape == "zensical" else "converted-1")
    # Each listed page by a hash of its URL relative to the site's, and nothing else.
    assert sorted(page_key(loc[len(SITE_URL):]) for loc in locs) == sorted(rendered.pages)
    read = read_urls(str(folder), CheckOptions())
    assert {loc: read.rendered[loc] for loc in locs} == {
        loc: (rendered.method, rendered.pages[page_key(loc[len(SITE_URL):])][0]) for loc in locs}


def export(site, branch, folder):
    """The tree of ``branch`` (what is published) as files in ``folder``."""
    folder.mkdir()
    archive = subprocess.run(["git", "archive", branch], cwd=site.root, env=mike.mike_env(),
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def test_a_versioned_site_read_from_its_root_index(site, monkeypatch, tmp_path, capsys):
    # Each version's manifest lies beside its sitemap, which the root index lists: its
    # pages are keyed from the version's folder.
    for key, value in mike.mike_env().items():
        monkeypatch.setenv(key, value)
    mike.make_site(site)
    site.page("same.md", "# Same\n\nOne two three\nfour five.\n")
    site.commit("same", "2024-01-11T09:00:00+00:00")
    mike.deploy(site, "1.0")
    assert main(["versions", "-f", str(site.root / "mkdocs.yml")]) == 0
    old = export(site, "gh-pages", tmp_path / "old")
    read = read_urls(str(old), CheckOptions())
    assert sorted(read.rendered) == sorted(read.urls) == [
        f"{mike.ROOT}1.0/", f"{mike.ROOT}1.0/guide/", f"{mike.ROOT}1.0/same/"]
    site.page("same.md", "# Same\n\nOne two\nthree four five.\n")  # re-wrapped
    site.page("guide.md", "# Guide, changed\n")
    site.commit("re-wrap same, change guide", "2024-01-12T09:00:00+00:00")
    mike.deploy(site, "1.0")
    assert main(["versions", "-f", str(site.root / "mkdocs.yml")]) == 0
    new = export(site, "gh-pages", tmp_path / "new")
    capsys.readouterr()
    assert main(["changes", str(old), str(new), "--json"]) == 0
    assert [(r["kind"], r["url"], r["reason"])
            for r in map(json.loads, capsys.readouterr().out.splitlines())] == [
        ("updated", f"{mike.ROOT}1.0/guide/", "rendered")]
