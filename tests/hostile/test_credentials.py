"""Issue 42, experiments 6 and 7: credentials in a URL are never published or printed.

``site_url`` with user information is a configuration error naming ``site_url`` (the
plugin, and the ``build`` command after a plain build); the IndexNow endpoint and the
``previous`` manifest URL may carry credentials, which no message repeats.
"""

from __future__ import annotations

import logging
import subprocess

import pytest

from mkdocs_sitemap_pro.cli.main import main
from tests.core.check.tree_files import SITE, url, urlset, write_tree
from tests.support.dates import D1, D2
from tests.support.git import git_env
from tests.support.indexnow_endpoint import endpoint
from tests.support.sites import Site

SECRET = "s3cret-pass"
WITH_USER = f"https://user:{SECRET}@example.com/docs/"


def _pages(site: Site) -> None:
    site.page("index.md", "# Home\n")
    site.page("a.md", "# A\n")
    site.commit("first", D1)


def _nowhere_has_the_secret(site: Site, *texts: str) -> None:
    for text in texts:
        assert SECRET not in text
    for path in (site.root / "site").rglob("*"):
        if path.is_file() and path.suffix != ".gz":
            assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path


def test_site_url_with_user_information_fails_the_build_naming_site_url(site):
    site.config["site_url"] = WITH_USER
    site.write_config()
    _pages(site)
    result = site.cli("build")
    assert result.returncode != 0
    assert "site_url" in result.stderr and "user information" in result.stderr, result.stderr
    _nowhere_has_the_secret(site, result.stdout, result.stderr)
    assert not (site.root / "site" / "sitemap.xml").exists()


def test_site_url_with_user_information_fails_the_build_command(site, monkeypatch, capsys):
    site.config["site_url"] = WITH_USER
    site.config["plugins"] = []  # a plain MkDocs build first, as under another builder
    site.write_config()
    _pages(site)
    plain = site.cli("build")
    assert plain.returncode == 0, plain.stderr
    site.set_options()
    monkeypatch.chdir(site.root)
    assert main(["build"]) == 2
    err = capsys.readouterr().err
    assert "site_url" in err and "user information" in err, err
    assert SECRET not in err  # (MkDocs' own pages and sitemap hold it: not ours)
    for ours in ("robots.txt", "sitemap.html", "sitemap.manifest.json"):
        assert not (site.root / "site" / ours).exists(), ours


KEY = "f0e1d2c3-b4a5"


def test_an_indexnow_endpoint_with_credentials_is_never_printed(tmp_path, capsys):
    new = write_tree(tmp_path / "site", {
        "robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": urlset(url(SITE, "2024-01-01"), url(SITE + "a/", "2024-02-01"))})
    (new / f"{KEY}.txt").write_text(KEY + "\n")
    with endpoint(statuses=(202,)) as engine:
        hidden = engine.url.replace("http://", f"http://user:{SECRET}@")
        status = main(["indexnow", str(new), "--all", "--endpoint", hidden])
        dry = main(["indexnow", str(new), "--all", "--endpoint", hidden, "--dry-run"])
    out = capsys.readouterr()
    assert SECRET not in out.out + out.err, out.out + out.err
    assert "user:***@127.0.0.1" in out.err
    assert (status, dry) == (0, 0), out.err
    assert [r.body["urlList"] for r in engine.requests] == [[SITE, SITE + "a/"]]
    # The credentials go where HTTP puts them, as Basic authentication.
    assert engine.requests[0].headers["Authorization"].startswith("Basic ")


def test_an_unreachable_indexnow_endpoint_with_credentials_is_not_printed(tmp_path, capsys):
    new = write_tree(tmp_path / "site", {
        "robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": urlset(url(SITE, "2024-01-01"))})
    (new / f"{KEY}.txt").write_text(KEY + "\n")
    status = main(["indexnow", str(new), "--all", "--timeout", "2",
                   "--endpoint", f"http://user:{SECRET}@127.0.0.1:1/x"])
    err = capsys.readouterr().err
    assert status == 1, err
    assert SECRET not in err and "127.0.0.1:1" in err, err


def test_a_previous_url_with_credentials_is_never_printed(site, tmp_path):
    _pages(site)
    site.page("a.md", "# A\n\nMore.\n")
    site.commit("second", D2)
    folder = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{site.root}", str(folder)],
                   env=git_env(), check=True, capture_output=True)
    shallow = Site.checkout(folder, site)
    shallow.set_options(previous=f"http://user:{SECRET}@127.0.0.1:1/sitemap.manifest.json")
    built = shallow.build()
    assert built.error is None, built.error
    said = built.messages(logging.DEBUG)
    assert any("previous:" in m and "user:***@127.0.0.1:1" in m for m in said), said
    _nowhere_has_the_secret(shallow, *said)


@pytest.mark.parametrize("text, shown", [
    ("https://user:pw@example.com/a", "https://user:***@example.com/a"),
    ("https://token@example.com/", "https://***@example.com/"),
    ("at 'http://u:p@ss@h:8080/x?y' and ftp://a:b@c/", "at 'http://u:***@h:8080/x?y' and ftp://a:***@c/"),
    ("https://example.com/a@b", "https://example.com/a@b"),  # an @ in the path is no user
])
def test_the_one_redaction_rule(text, shown):
    from mkdocs_sitemap_pro.core.urls import redact_credentials

    assert redact_credentials(text) == shown


def test_changes_reading_a_url_with_credentials_does_not_print_them(tmp_path, capsys):
    new = write_tree(tmp_path / "site", {
        "robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
        "sitemap.xml": urlset(url(SITE, "2024-01-01"))})
    old = f"http://user:{SECRET}@127.0.0.1:1/sitemap.xml"
    assert main(["changes", old, str(new)]) == 2
    err = capsys.readouterr().err
    assert SECRET not in err and "user:***@127.0.0.1:1" in err, err


@pytest.mark.parametrize("as_json", [False, True])
def test_check_never_prints_the_credentials_of_the_url_it_could_not_read(capsys, as_json):
    # Nothing listens on port 9 of this machine: check cannot run, and says so.
    target = f"http://user:{SECRET}@127.0.0.1:9/sitemap.xml"
    status = main(["check", target, "--timeout", "2"] + (["--json"] if as_json else []))
    out, err = capsys.readouterr()
    assert status == 2
    assert "could not check" in err, err
    assert SECRET not in out + err
    assert "user:***@127.0.0.1:9" in out + err
