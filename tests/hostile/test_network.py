"""Issue 54, experiments 4, 5, 8 and 9 over HTTP: everything that reads from a server
(``check URL``, ``changes``, ``indexnow --since``, the plugin's ``previous``).

Each server here is real, on 127.0.0.1, started by the test (``tests.support.web_server``):

- one that sends its answer a byte a second kept every command running for as long as it
  sent (the timeout bounded each read): the whole fetch is bounded now, and says so;
- a ``<loc>`` or ``Sitemap:`` URL holding a space or a control character, and
  ``--timeout inf``/``1e308``, raised a traceback: a finding naming the URL, or an error
  naming the option (exit 2), now;
- a redirect to another host was followed without a word: refused now, as ``indexnow``
  refuses it; credentials in a ``previous`` URL never reached the server (the name did
  not resolve): they are sent as Basic authentication now, and never printed;
- ``changes`` named an unreachable URL three times in one message, and printed URLs read
  from a tree raw.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.plugin import deploys
from tests.core.check.tree_files import SITE, index, url, urlset, write_tree
from tests.plugin.test_ci_clones import clone, in_clone, make_history
from tests.support.sites import Site
from tests.support.web_server import Reply, redirect, web

KEY = "f0e1d2c3-b4a5"
TIMEOUT = 2.0
MARGIN = 6.0  # starting Python, reading the local tree, a loaded machine


def _local_site(folder: Path, *locs: str) -> Path:
    site = write_tree(folder, {"robots.txt": f"Sitemap: {SITE}sitemap.xml\n",
                               "sitemap.xml": urlset(*(url(loc, "2024-01-01") for loc in locs))})
    (site / f"{KEY}.txt").write_text(KEY + "\n")
    return site


def _run(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """The real command line in its own process (a stalled one is killed: the test fails)."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "mkdocs_sitemap_pro", *args],
                          capture_output=True, text=True, timeout=TIMEOUT + 25)
    return done, time.monotonic() - started


# -- 4: one deadline for the whole fetch ------------------------------------------------


@pytest.mark.parametrize("command", ["check", "check-site", "changes", "indexnow"])
def test_a_server_sending_a_byte_a_second_is_given_up_at_the_timeout(tmp_path, command):
    new = _local_site(tmp_path / "new", SITE)
    with web(trickle=True) as slow:
        args = {
            "check": ["check", slow.url + "sitemap.xml"],
            "check-site": ["check", slow.url],  # robots.txt, then sitemap.xml: not asked again
            "changes": ["changes", slow.url + "sitemap.xml", str(new)],
            "indexnow": ["indexnow", str(new), "--since", slow.url + "sitemap.xml",
                         "--key", KEY, "--dry-run"],
        }[command]
        done, took = _run(*args, "--timeout", f"{TIMEOUT:g}")
        asked = len(slow.requests)
    assert done.returncode == 2, done.stderr
    assert took < TIMEOUT + MARGIN, (took, done.stderr)
    assert f"no complete answer within {TIMEOUT:g} s" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert asked == 1  # the host that stalled is not asked again


def test_previous_from_a_server_sending_a_byte_a_second_does_not_stall_the_build(
        site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploys, "FETCH_TIMEOUT", TIMEOUT)  # 20 s in use: the same rule
    make_history(site)
    folder = clone(f"file://{site.root}", tmp_path / "c", "--depth", "2")
    with web(trickle=True) as slow:
        shallow = in_clone(site, folder, previous=slow.url + "sitemap.manifest.json")
        started = time.monotonic()
        built = shallow.build()
        took = time.monotonic() - started
    assert built.error is None, built.error
    said = [m for m in built.messages() if "previous:" in m]
    assert len(said) == 1 and f"no complete answer within {TIMEOUT:g} s" in said[0], said
    assert took < TIMEOUT + 15, took  # the build itself takes a few seconds


# -- 5: no traceback from a URL or an option value --------------------------------------


def _hostile_tree(base: str) -> dict[str, Reply]:
    """robots.txt naming a Sitemap: URL with ESC, an index listing a URL with a space and
    one with DEL (both allowed in XML), and one good urlset."""
    return {
        "/robots.txt": Reply(f"Sitemap: {base}sitemap.xml\nSitemap: {base}a\x1bb.xml\n".encode()),
        "/sitemap.xml": Reply(index((f"{base}good.xml", None), (f"{base}c d.xml", None),
                                    (f"{base}e\x7ff.xml", None)).encode()),
        "/good.xml": Reply(urlset(url(base, "2024-01-01")).encode()),
    }


def test_check_reports_unfetchable_urls_as_findings(capsys):
    routes: dict[str, Reply] = {}
    with web(routes) as server:
        routes.update(_hostile_tree(server.url))
        status = main(["check", server.url, "--timeout", "5"])
    out = capsys.readouterr().out
    assert status == 1, out
    unreadable = [line for line in out.splitlines() if line.startswith("error   unreadable")]
    assert len(unreadable) == 3, out
    assert f"{server.url}c d.xml: cannot fetch: it holds a space" in out, out
    assert f"{server.url}a\\x1bb.xml: cannot fetch: it holds the control character \\x1b" in out
    assert f"{server.url}e\\x7ff.xml: cannot fetch: it holds the control character \\x7f" in out
    assert "\x1b" not in out and "\x7f" not in out
    assert "/good.xml" in [r.path for r in server.requests]


@pytest.mark.parametrize("command", ["changes", "indexnow"])
def test_changes_and_indexnow_say_which_url_cannot_be_fetched(tmp_path, capsys, command):
    new = _local_site(tmp_path / "new", SITE)
    routes: dict[str, Reply] = {}
    with web(routes) as server:
        routes.update(_hostile_tree(server.url))
        args = (["changes", server.url, str(new)] if command == "changes" else
                ["indexnow", str(new), "--since", server.url, "--key", KEY, "--dry-run"])
        status = main([*args, "--timeout", "5"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert f"{server.url}c d.xml: cannot fetch: it holds a space" in err, err
    assert "\\x1b" in err and "\x1b" not in err and "\x7f" not in err, err


@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "0", "-1"])
@pytest.mark.parametrize("command", ["check", "changes", "indexnow"])
def test_a_timeout_that_bounds_nothing_is_an_error_naming_the_option(tmp_path, capsys, value,
                                                                      command):
    new = _local_site(tmp_path / "new", SITE)
    with web({"/sitemap.xml": Reply(urlset(url(SITE)).encode())}) as server:
        args = {"check": ["check", server.url + "sitemap.xml"],
                "changes": ["changes", server.url + "sitemap.xml", str(new)],
                "indexnow": ["indexnow", str(new), "--since", server.url + "sitemap.xml",
                             "--key", KEY, "--dry-run"]}[command]
        with pytest.raises(SystemExit) as exited:
            main([*args, f"--timeout={value}"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --timeout: '{value}' is not a number of seconds above 0" in err, err


def test_an_endpoint_that_cannot_be_requested_is_an_error_naming_it(tmp_path, capsys):
    new = _local_site(tmp_path / "new", SITE)
    status = main(["indexnow", str(new), "--all", "--key", KEY,
                   "--endpoint", "http://127.0.0.1:9/index now"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "the endpoint 'http://127.0.0.1:9/index now' cannot be used: it holds a space" in err


# -- 9: redirects stay on the host asked; credentials are sent, never printed ----------


def _redirecting(base: str, elsewhere: str) -> dict[str, Reply]:
    return {"/sitemap.xml": redirect(f"{elsewhere}sitemap.xml"),
            "/moved.xml": redirect("/sitemap.xml", 301),
            "/robots.txt": Reply(b"User-agent: *\n")}


def test_check_and_changes_refuse_a_redirect_to_another_host(tmp_path, capsys):
    new = _local_site(tmp_path / "new", SITE)
    routes: dict[str, Reply] = {}
    with web({"/sitemap.xml": Reply(urlset(url(SITE)).encode())}) as other, web(routes) as server:
        elsewhere = f"http://localhost:{other.port}/"  # another host name, a real server
        routes.update(_redirecting(server.url, elsewhere))
        checked = main(["check", server.url + "sitemap.xml", "--timeout", "5"])
        compared = main(["changes", server.url + "sitemap.xml", str(new), "--timeout", "5"])
        asked_elsewhere = list(other.requests)
    err = capsys.readouterr().err
    assert (checked, compared) == (2, 2), err
    refused = f"redirected to {elsewhere}sitemap.xml, on another host: not followed"
    assert err.count(refused) == 2, err
    assert asked_elsewhere == []


def test_a_redirect_on_the_same_host_is_followed(capsys):
    routes: dict[str, Reply] = {}
    with web(routes) as server:
        routes.update({"/moved.xml": redirect("/sitemap.xml", 301),
                       "/sitemap.xml": Reply(urlset(url(server.url, "2024-01-01")).encode())})
        status = main(["check", server.url + "moved.xml", "--timeout", "5"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert [r.path for r in server.requests[:2]] == ["/moved.xml", "/sitemap.xml"]


def test_previous_refuses_a_redirect_to_another_host(site: Site, tmp_path: Path) -> None:
    make_history(site)
    site.build()
    folder = clone(f"file://{site.root}", tmp_path / "c", "--depth", "2")
    manifest = (site.root / "site" / "sitemap.manifest.json").read_bytes()
    routes: dict[str, Reply] = {}
    with web({"/sitemap.manifest.json": Reply(manifest)}) as other, web(routes) as server:
        elsewhere = f"http://localhost:{other.port}/sitemap.manifest.json"
        routes["/sitemap.manifest.json"] = redirect(elsewhere)
        built = in_clone(site, folder, previous=server.url + "sitemap.manifest.json").build()
        asked_elsewhere = list(other.requests)
    said = [m for m in built.messages() if "previous:" in m]
    assert any(f"redirected to {elsewhere}, on another host" in m for m in said), said
    assert asked_elsewhere == []


SECRET = "s3cret-pass"


def test_previous_with_credentials_sends_them_as_basic_authentication(
        site: Site, tmp_path: Path) -> None:
    make_history(site)
    site.build()
    folder = clone(f"file://{site.root}", tmp_path / "c", "--depth", "2")
    manifest = (site.root / "site" / "sitemap.manifest.json").read_bytes()
    with web({"/sitemap.manifest.json": Reply(manifest)}, user=("deploy", SECRET)) as server:
        hidden = server.url.replace("http://", f"http://deploy:{SECRET}@")
        built = in_clone(site, folder, previous=hidden + "sitemap.manifest.json").build()
    assert built.error is None, built.error
    said = built.messages(0)
    carried = [m for m in said if "previous: dates carried from the last deploy" in m]
    assert len(carried) == 1, said
    assert "deploy:***@127.0.0.1" in carried[0]
    assert not [m for m in built.messages() if "previous:" in m]
    assert all(SECRET not in m for m in said)
    assert [r.headers.get("Authorization", "")[:6] for r in server.requests] == ["Basic "]
    for path in (folder / "site").rglob("*"):
        if path.is_file() and path.suffix != ".gz":
            assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path


# -- 8 and 9: each URL said once, and printable -----------------------------------------


def test_changes_names_an_unreachable_url_once(tmp_path, capsys):
    new = _local_site(tmp_path / "new", SITE)
    gone = "http://127.0.0.1:9/sitemap.xml"  # nothing listens on port 9
    assert main(["changes", gone, str(new), "--timeout", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("127.0.0.1:9") == 1, err
    assert "cannot fetch" in err


def test_changes_and_indexnow_print_urls_read_from_a_tree_as_codes(tmp_path, capsys):
    old = _local_site(tmp_path / "old", SITE)
    new = _local_site(tmp_path / "new", SITE, f"{SITE}a\x9b2J\x85b")  # C1 controls: valid XML
    assert main(["changes", str(old), str(new)]) == 0
    assert main(["indexnow", str(new), "--since", str(old), "--key", KEY, "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert f"added     {SITE}a\\x9b2J\\x85b" in out, out
    assert out.count("\\x9b2J\\x85") == 2, out
    assert main(["changes", str(old), str(new), "--json"]) == 0
    lines = capsys.readouterr().out
    assert json.loads(lines)["url"] == f"{SITE}a\x9b2J\x85b"  # the same text to a reader
    for char in ("\x9b", "\x85"):
        assert char not in out + err + lines
