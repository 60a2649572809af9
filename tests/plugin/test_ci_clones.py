"""Where sites are really built: the platform's advice, ``fetch_history``, the manifest,
and dates carried by ``previous`` into shallow clones, each against a full clone's dates.

Every repository is real: an origin with fixed commit dates, clones made by git itself
(``--depth``), a bare remote over ``file://``, a manifest served by a local
``http.server``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.support.browser import serve
from tests.support.dates import day, utc
from tests.support.git import git_env
from tests.support.sites import SITE_URL, Built, Site

PAGES = 12  # p1..p12; commit c<k> changes p<k> only, one day apart: 13 commits


def make_history(site: Site) -> None:
    """index and p1..p12 at day 1; then one commit per page, p<k> on day 1 + k."""
    site.page("index.md", "# Home\n")
    for k in range(1, PAGES + 1):
        site.page(f"p{k}.md", f"# P{k}\n")
    site.commit("c0", day(1))
    for k in range(1, PAGES + 1):
        site.page(f"p{k}.md", f"# P{k}\nchanged\n")
        site.commit(f"c{k}", day(1 + k))


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=git_env(), check=True,
                          capture_output=True, text=True).stdout


def clone(source: str, dest: Path, *args: str) -> Path:
    subprocess.run(["git", "clone", "-q", *args, source, str(dest)], env=git_env(),
                   check=True, capture_output=True)
    return dest


def lastmods(built: Built) -> dict[str, str | None]:
    assert built.error is None, built.messages()
    return {loc: fields.get("lastmod") for loc, fields in built.sitemap().items()}


def warnings(built: Built) -> list[str]:
    return [r.getMessage() for r in built.records if r.levelno >= logging.WARNING]


def in_clone(site: Site, folder: Path, **options: object) -> Site:
    """The project as checked out in ``folder``, with the plugin's ``options``."""
    other = Site.checkout(folder, site)
    other.set_options(**options)
    return other


@pytest.fixture
def history_site(site: Site) -> Site:
    make_history(site)
    return site


# -- the platform's advice -----------------------------------------------------------


@pytest.mark.parametrize("variable, fix, fetch", [
    ("READTHEDOCS", "`git fetch --unshallow || true` to `build.jobs.post_checkout`", True),
    ("GITHUB_ACTIONS", "set `fetch-depth: 0` under `with:` of the actions/checkout step", True),
    ("VERCEL", "since Vercel's clone has no remote", False),
])
def test_the_shallow_warning_names_the_platforms_fix(history_site, tmp_path, variable, fix, fetch):
    shallow = in_clone(history_site, clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "1"))
    built = shallow.build(env={variable: "true", "CI": "true"})
    said = warnings(built)
    assert len(said) == 1 and "shallow clone" in said[0] and fix in said[0], said
    assert ("fetch_history: auto" in said[0]) is fetch and "previous: auto" in said[0]
    assert "\n" not in said[0]


# -- fetch_history ---------------------------------------------------------------------


@pytest.fixture
def remote(history_site: Site, tmp_path: Path) -> str:
    """A bare copy of the origin that serves blobless fetches, as hosting services do."""
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(history_site.root), str(bare)],
                   env=git_env(), check=True, capture_output=True)
    git(bare, "config", "uploadpack.allowFilter", "true")
    return f"file://{bare}"


def test_fetch_history_deepens_a_shallow_clone_without_file_contents(history_site, remote, tmp_path):
    truth = lastmods(history_site.build())
    folder = clone(remote, tmp_path / "c", "--depth", "1")
    built = in_clone(history_site, folder, fetch_history="auto").build(strict=True)
    assert lastmods(built) == truth
    assert all(truth.values()) and len(truth) == PAGES + 1
    assert warnings(built) == []
    fetched = [m for m in built.infos() if m.startswith("sitemap-pro: fetch_history:")]
    assert len(fetched) == 1 and "fetched the whole history from origin in" in fetched[0], fetched
    # What outlasts the build is said: git made it a partial clone of origin.
    assert fetched[0].endswith(": the clone is now a partial clone (blob:none), which fetches "
                               "an old file's content from origin when a git command needs it")
    assert git(folder, "config", "remote.origin.partialclonefilter").strip() == "blob:none"
    assert git(folder, "rev-parse", "--is-shallow-repository").strip() == "false"
    # Blobless: the old versions of the pages were not downloaded, only HEAD's checkout.
    kinds = git(folder, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype)").split()
    origin_kinds = git(history_site.root, "cat-file", "--batch-all-objects",
                       "--batch-check=%(objecttype)").split()
    assert kinds.count("commit") == origin_kinds.count("commit") == PAGES + 1
    assert kinds.count("blob") < origin_kinds.count("blob")


def test_fetch_history_without_a_remote_warns_and_dates_as_before(history_site, tmp_path):
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "1")
    git(folder, "remote", "remove", "origin")
    built = in_clone(history_site, folder, fetch_history="auto").build()
    said = warnings(built)
    assert any("fetch_history: the clone is shallow and has no remote" in m for m in said), said
    assert any("shallow clone" in m for m in said)
    dates = lastmods(built)
    assert dates[f"{SITE_URL}p1/"] is None and dates[SITE_URL] is None


def test_fetch_history_that_fails_warns_and_dates_as_before(history_site, tmp_path):
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "2")
    git(folder, "remote", "set-url", "origin", f"file://{tmp_path / 'gone.git'}")
    built = in_clone(history_site, folder, fetch_history="auto").build()
    said = warnings(built)
    assert any("fetch_history: `git fetch --unshallow origin` failed (" in m for m in said), said
    dates = lastmods(built)
    assert dates[f"{SITE_URL}p{PAGES}/"] == utc(day(1 + PAGES))  # inside the clone: dated
    assert dates[f"{SITE_URL}p1/"] is None


def test_fetch_history_never_fetches_into_a_full_clone(history_site, tmp_path):
    folder = clone(f"file://{history_site.root}", tmp_path / "c")
    # A remote that cannot be reached: any attempt to fetch would be a warning.
    git(folder, "remote", "set-url", "origin", f"file://{tmp_path / 'gone.git'}")
    built = in_clone(history_site, folder, fetch_history="auto").build(strict=True)
    assert built.error is None and warnings(built) == []
    assert not any("sitemap-pro: fetch_history" in m for m in built.messages(logging.DEBUG))
    assert lastmods(built) == lastmods(history_site.build())


# -- the manifest ------------------------------------------------------------------------


def test_the_manifest_records_each_dating_file_by_hashed_path(history_site):
    history_site.repo.write("snippets/shared.md", "Shared.\n")
    history_site.repo.write("snippets/skipped.md", "Excluded.\n")
    history_site.config["markdown_extensions"] = [
        {"pymdownx.snippets": {"base_path": [str(history_site.root / "snippets")]}}]
    history_site.set_options(dependencies_exclude=["snippets/skipped.md"])
    history_site.page("p1.md", '# P1\n\n--8<-- "shared.md"\n\n--8<-- "skipped.md"\n')
    history_site.page("p2.md", '# P2\n\n--8<-- "shared.md"\n')  # listed once
    history_site.commit("p1 and p2 include a snippet, p1 an excluded one", day(20))
    built = history_site.build(strict=True)
    assert built.error is None, built.messages()
    raw = (built.site_dir / "sitemap.manifest.json").read_bytes()
    data = json.loads(raw)
    head = git(history_site.root, "rev-parse", "HEAD").strip()
    assert data["commit"] == head and data["format"] == "mkdocs-sitemap-pro manifest"
    assert data["options"] == {"git_history": "first-parent", "git_date": "committer",
                               "ignore_commits": []}
    names = ["docs/index.md", *(f"docs/p{k}.md" for k in range(1, PAGES + 1)),
             "snippets/shared.md"]
    expected = {}
    for name in names:
        oid = git(history_site.root, "rev-parse", f"HEAD:{name}").strip()
        when = git(history_site.root, "log", "-1", "--first-parent", "--format=%ct", "--", name).strip()
        expected[hashlib.blake2b(name.encode(), digest_size=16).hexdigest()] = [oid, int(when)]
    # The pages' sources and what they include, less what dates no page (skipped.md).
    assert data["files"] == expected
    for clear in (b"docs/", b"index", b".md", b"snippets", b"shared", b"skipped"):
        assert clear not in raw
    # Not a page: never listed; a second build writes the same bytes.
    assert not any("manifest" in loc for loc in built.sitemap())
    assert (history_site.build().site_dir / "sitemap.manifest.json").read_bytes() == raw
    history_site.set_options(manifest=False)
    history_site.build()
    assert not (history_site.root / "site" / "sitemap.manifest.json").exists()


# -- previous: dates carried into a shallow clone ------------------------------------------


@pytest.fixture
def published(history_site: Site, tmp_path: Path) -> Path:
    """The folder of the last deploy: a full build three commits before HEAD."""
    old = clone(f"file://{history_site.root}", tmp_path / "old")
    git(old, "checkout", "-q", "--detach", "HEAD~3")
    built = in_clone(history_site, old).build(strict=True)
    assert built.error is None, built.messages()
    out = tmp_path / "published"
    shutil.copytree(built.site_dir, out)
    return out


def test_a_depth_1_clone_keeps_the_last_deploys_dates(history_site, published, tmp_path):
    truth = lastmods(history_site.build())
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "1")
    built = in_clone(history_site, folder, previous=str(published)).build(strict=True)
    got = lastmods(built)
    head = utc(day(1 + PAGES))
    changed_since = {f"{SITE_URL}p{k}/" for k in range(PAGES - 2, PAGES + 1)}  # c5..c7
    for loc, when in truth.items():
        if loc in changed_since:
            assert got[loc] == head and got[loc] >= when, loc  # never older than the truth
        else:
            assert got[loc] == when, loc
    assert warnings(built) == []  # the shallow warning is moot: every page is dated
    carried = [m for m in built.infos() if "dates carried from the last deploy" in m]
    assert len(carried) == 1, built.infos()
    assert "10 files unchanged since, 3 changed since" in carried[0]


def test_a_depth_10_clone_with_the_same_manifest_gets_every_date_exact(history_site, published, tmp_path):
    truth = lastmods(history_site.build())
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "10")
    assert git(folder, "rev-parse", "--is-shallow-repository").strip() == "true"
    shallow = in_clone(history_site, folder, previous=str(published / "sitemap.manifest.json"))
    built = shallow.build(strict=True)
    assert lastmods(built) == truth
    # index, p1..p3 lie beyond the boundary (c3), unchanged since the deploy at c9.
    assert any("4 files unchanged since, 0 changed since" in m for m in built.infos()), built.infos()


def test_a_manifest_made_with_other_rules_carries_nothing(history_site, tmp_path):
    old = clone(f"file://{history_site.root}", tmp_path / "old")
    built = in_clone(history_site, old, git_date="author").build()
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "1")
    shallow = in_clone(history_site, folder, previous=str(built.site_dir))
    result = shallow.build()
    said = warnings(result)
    assert any("was made with other date rules (git_history first-parent, git_date author"
               in m for m in said), said
    assert any("shallow clone" in m for m in said)
    assert set(lastmods(result).values()) == {None}  # depth 1: nothing git can date


@pytest.mark.parametrize("damage, says", [
    (lambda p: p.write_bytes(p.read_bytes()[:-40]), "cannot be used: it is not JSON"),
    (lambda p: p.write_text('{"format": "mkdocs-sitemap-pro manifest", "version": 9}'),
     "cannot be used: its format version is 9"),
    (lambda p: p.unlink(), "there is no manifest at"),
])
def test_a_corrupt_or_missing_manifest_is_a_warning_and_no_date(history_site, published, tmp_path, damage, says):
    damage(published / "sitemap.manifest.json")
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "1")
    built = in_clone(history_site, folder, previous=str(published)).build()
    said = warnings(built)
    assert any(m.startswith("sitemap-pro: previous: ") and says in m for m in said), said
    assert set(lastmods(built).values()) == {None}
    assert in_clone(history_site, folder, previous=str(published)).build(strict=True).error is not None


@pytest.fixture
def server(published: Path) -> Iterator[str]:
    """The last deploy, published over HTTP on this machine: its base URL."""
    with serve(published.parent) as base:
        yield base


def test_previous_auto_reads_the_manifest_published_at_site_url(history_site, server, tmp_path):
    truth = lastmods(history_site.build())
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "3")
    shallow = in_clone(history_site, folder, previous="auto")
    shallow.config["site_url"] = f"{server}published/"
    shallow.write_config()
    built = shallow.build(strict=True)
    got = lastmods(built)
    # The URLs are the local site's; their dates are the full clone's, every one.
    assert list(got.values()) == list(truth.values())
    assert any(f"({server}published/sitemap.manifest.json, commit" in m for m in built.infos())


def test_previous_url_that_is_not_there_is_a_warning(history_site, server, tmp_path):
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "1")
    built = in_clone(history_site, folder, previous=f"{server}nowhere/sitemap.manifest.json").build()
    said = warnings(built)
    assert any("previous: there is no manifest at" in m and "(HTTP 404)" in m for m in said), said


def test_previous_is_read_with_a_whole_history_too(history_site, tmp_path):
    # Its pages keep their dates while unchanged (issue 55): a manifest that cannot be
    # read is a warning whatever the clone's depth, and git's dates stand.
    folder = clone(f"file://{history_site.root}", tmp_path / "c")
    built = in_clone(history_site, folder, previous=str(tmp_path / "nowhere")).build()
    assert [m for m in warnings(built) if "previous: there is no manifest at" in m], warnings(built)
    assert lastmods(built) == lastmods(history_site.build())


@pytest.mark.skipif(sys.version_info < (3, 11), reason="Zensical requires Python 3.11 or newer")
def test_the_standalone_build_after_zensical_carries_dates_too(history_site, published, tmp_path,
                                                              monkeypatch, capsys):
    truth = lastmods(history_site.build())
    folder = clone(f"file://{history_site.root}", tmp_path / "c", "--depth", "4")
    in_clone(history_site, folder, previous=str(published))
    zensical = subprocess.run([str(Path(sys.executable).parent / "zensical"), "build", "--clean"],
                              cwd=folder, env=git_env(), capture_output=True, text=True, timeout=120)
    assert zensical.returncode == 0, zensical.stdout + zensical.stderr
    monkeypatch.chdir(folder)
    assert main(["build", "--strict"]) == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "dates carried from the last deploy" in err and "WARNING" not in err, err
    got = Built(folder / "site").sitemap()
    assert {loc: fields.get("lastmod") for loc, fields in got.items()} == truth
    assert (folder / "site" / "sitemap.manifest.json").is_file()


def test_check_reads_the_manifest_and_finds_a_broken_one(history_site, capsys):
    built = history_site.build(strict=True)
    assert built.error is None, built.messages()
    status, out = main(["check", "--strict", str(built.site_dir)]), capsys.readouterr().out
    assert status == 0 and out.endswith("no problem found\n"), out
    (built.site_dir / "sitemap.manifest.json").write_text('{"format": "mkdocs-sitemap-pro manifest"}')
    assert main(["check", "--json", str(built.site_dir)]) == 1
    report = json.loads(capsys.readouterr().out)
    findings = [f for f in report["findings"] if f["rule"] == "manifest-invalid"]
    assert len(findings) == 1 and findings[0]["file"] == "sitemap.manifest.json", report
    assert "format version is None" in findings[0]["message"]
