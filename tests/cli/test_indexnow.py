"""``mkdocs-sitemap-pro indexnow SITE_DIR --since OLD``, against a local endpoint."""

from __future__ import annotations

import json
import shutil

import pytest

from mkdocs_sitemap_pro.cli.main import main
from mkdocs_sitemap_pro.core.deploy.indexnow import MAX_URLS_PER_REQUEST
from tests.core.check.tree_files import SITE, url, urlset, write_tree
from tests.support.dates import day
from tests.support.deploys import rendered_deploys
from tests.support.indexnow_endpoint import endpoint
from tests.support.sites import SITE_URL, Site

KEY = "f0e1d2c3-b4a5"
ROBOTS = f"Sitemap: {SITE}sitemap.xml\n"


def deploys(tmp_path, old_urls, new_urls, key=True):
    """old/ and site/ holding these urlsets ((path, lastmod) pairs); site/ the key file."""
    old = write_tree(tmp_path / "old", {"robots.txt": ROBOTS, "sitemap.xml": urlset(
        *(url(SITE + path, mod) for path, mod in old_urls))})
    new = write_tree(tmp_path / "site", {"robots.txt": ROBOTS, "sitemap.xml": urlset(
        *(url(SITE + path, mod) for path, mod in new_urls))})
    if key:
        (new / f"{KEY}.txt").write_text(KEY + "\n")
    return str(old), str(new)


OLD = [("", "2024-01-01"), ("a/", "2024-01-01"), ("b/", "2024-01-01"), ("c/", "2024-01-01")]
NEW = [("", "2024-01-01"), ("a/", "2024-02-01"), ("c/", "2023-12-01"), ("d/", "2024-02-01")]
SENT = [SITE + "d/", SITE + "b/", SITE + "a/"]  # added, removed, updated: not backwards


def body(urls):
    return {"host": "example.com", "key": KEY, "keyLocation": f"{SITE}{KEY}.txt", "urlList": urls}


def test_added_updated_and_removed_are_sent(tmp_path, capsys):
    old, new = deploys(tmp_path, OLD, NEW)
    with endpoint(statuses=(202,)) as engine:
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url]) == 0
    assert [r.body for r in engine.requests] == [body(SENT)]
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("mkdocs-sitemap-pro indexnow: warning: 1 URL's lastmod went backwards")
    assert err[1:] == [
        f"mkdocs-sitemap-pro indexnow: since {old}: 1 added, 1 updated, 1 removed",
        "mkdocs-sitemap-pro indexnow: request 1 of 1 (3 URLs of example.com): "
        "202 Accepted: received; the endpoint will check the key",
        f"mkdocs-sitemap-pro indexnow: 3 URLs submitted to {engine.url}",
    ]


def test_dry_run_prints_the_requests_and_sends_nothing(tmp_path, capsys):
    old, new = deploys(tmp_path, OLD, NEW)
    with endpoint() as engine:
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url, "--dry-run"]) == 0
    assert engine.requests == []
    captured = capsys.readouterr()
    head, _, rest = captured.out.partition("\n")
    assert head == f"POST {engine.url}"
    assert json.loads(rest) == body(SENT)
    assert captured.err.splitlines()[-1] == (
        "mkdocs-sitemap-pro indexnow: dry run: 3 URLs in 1 request, nothing sent")


def test_a_first_deploy_sends_nothing_unless_all(tmp_path, capsys):
    _, new = deploys(tmp_path, OLD, NEW)
    empty = tmp_path / "previous"  # what a fetch of a site never deployed leaves
    empty.mkdir()
    with endpoint() as engine:
        assert main(["indexnow", new, "--endpoint", engine.url]) == 0
        assert "a first deploy (no --since OLD): nothing submitted; pass --all" \
            in capsys.readouterr().err
        assert main(["indexnow", new, "--since", str(empty), "--endpoint", engine.url]) == 0
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and "a first deploy (there is no sitemap at" in err[0]
        assert engine.requests == []
        assert main(["indexnow", new, "--since", str(empty), "--all", "--endpoint", engine.url]) == 0
    assert [r.body for r in engine.requests] == [body([SITE + p for p, _ in NEW])]
    assert "every URL submitted (--all)" in capsys.readouterr().err


def test_nothing_changed_sends_nothing(tmp_path, capsys):
    old, new = deploys(tmp_path, OLD, OLD)
    with endpoint() as engine:
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url]) == 0
    assert engine.requests == []
    assert capsys.readouterr().err.splitlines()[-1] == \
        "mkdocs-sitemap-pro indexnow: nothing changed: nothing submitted"


def test_unreadable_trees_exit_2_and_send_nothing(tmp_path, capsys):
    old, new = deploys(tmp_path, OLD, NEW)
    with endpoint() as engine:
        assert main(["indexnow", str(tmp_path / "nope"), "--since", old,
                     "--endpoint", engine.url]) == 2
        assert "is not a folder" in capsys.readouterr().err
        assert main(["indexnow", new, "--since", str(tmp_path / "nope"),
                     "--endpoint", engine.url]) == 2
        assert "cannot read OLD: " in capsys.readouterr().err
        (tmp_path / "old" / "sitemap.xml").write_text("<urlset>")
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url]) == 2
        assert "not well-formed XML" in capsys.readouterr().err
    assert engine.requests == []


def test_key_file_checks_come_before_anything_is_sent(tmp_path, capsys):
    old, new = deploys(tmp_path, OLD, NEW, key=False)
    site = tmp_path / "site"
    with endpoint() as engine:
        run = ["indexnow", new, "--since", old, "--endpoint", engine.url]
        assert main(run) == 2
        assert "cannot submit: no key file in" in capsys.readouterr().err
        assert main([*run, "--key", KEY]) == 2
        assert f"there is no key file at {site / KEY}.txt" in capsys.readouterr().err
        (site / "sub").mkdir()
        (site / "sub" / "key.txt").write_text(KEY)
        assert main([*run, "--key-file", str(site / "sub" / "key.txt")]) == 2
        assert capsys.readouterr().err.splitlines()[-1] == (
            f"mkdocs-sitemap-pro indexnow: cannot submit: the key file {SITE}sub/key.txt "
            f"covers only the URLs under {SITE}sub/, not {SITE}d/, {SITE}b/, {SITE}a/: "
            "put it at the root of SITE_DIR")
        with pytest.raises(SystemExit) as stopped:  # argparse: one or the other
            main([*run, "--key", KEY, "--key-file", str(site / "sub" / "key.txt")])
        assert stopped.value.code == 2
        assert "not allowed with argument" in capsys.readouterr().err
        assert engine.requests == []
        (site / "other.txt").write_text(KEY)  # any name, given: it covers the root
        assert main([*run, "--key-file", str(site / "other.txt")]) == 0
    assert [r.body["keyLocation"] for r in engine.requests] == [f"{SITE}other.txt"]


@pytest.mark.parametrize(("status", "says"), [
    (400, "400 Bad Request: the endpoint found the request malformed; see it with --dry-run"),
    (403, f"403 Forbidden: the key is not valid for example.com: {SITE}{KEY}.txt must be deployed"),
    (422, f"422 Unprocessable Entity: URLs that are not of example.com or not under {SITE}"),
    (500, "HTTP 500: not an answer of the IndexNow protocol; retry later"),
])
def test_a_refusal_says_what_to_do_and_exits_1(tmp_path, capsys, status, says):
    old, new = deploys(tmp_path, OLD, NEW)
    with endpoint(statuses=(status,)) as engine:
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url]) == 1
    assert len(engine.requests) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-2].startswith(f"mkdocs-sitemap-pro indexnow: request 1 of 1 (3 URLs of "
                              f"example.com): {says}")
    assert err[-1] == ("mkdocs-sitemap-pro indexnow: 0 URLs were received and are not sent "
                       "again; this request's 3 and 0 more were not received: nothing further sent")


def test_batches_at_the_real_limit_and_a_429_stops_the_rest(tmp_path, capsys):
    many = [(f"p{n}/", "2024-02-01") for n in range(2 * MAX_URLS_PER_REQUEST + 1)]
    old, new = deploys(tmp_path, [], many)  # the old sitemap lists no URL: all are added
    with endpoint() as engine:
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url]) == 0
    lists = [r.body["urlList"] for r in engine.requests]
    assert [len(listed) for listed in lists] == [10_000, 10_000, 1]
    assert sum(lists, []) == [SITE + path for path, _ in many]
    assert {r.body["host"] for r in engine.requests} == {"example.com"}
    capsys.readouterr()
    # The endpoint answers the second with 429: the third is not sent, the first not again.
    with endpoint(statuses=(200, 429, 200)) as engine:
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url]) == 1
    assert [r.body["urlList"] for r in engine.requests] == lists[:2]
    err = capsys.readouterr().err.splitlines()
    assert err[-3].endswith("request 1 of 3 (10,000 URLs of example.com): 200 OK: received")
    assert err[-2].endswith("request 2 of 3 (10,000 URLs of example.com): 429 Too Many "
                            "Requests: the endpoint takes this for spam; retry later, and "
                            "submit only URLs that changed")
    assert err[-1].endswith("10,000 URLs were received and are not sent again; this "
                            "request's 10,000 and 1 more were not received: nothing further sent")


def test_a_timeout_stops_and_exits_1(tmp_path, capsys):
    old, new = deploys(tmp_path, OLD, NEW)
    with endpoint(delay=3) as engine:
        assert main(["indexnow", new, "--since", old, "--endpoint", engine.url,
                     "--timeout", "0.3"]) == 1
    assert len(engine.requests) == 1
    assert f"no answer from {engine.url} within 0.3 seconds; retry later" \
        in capsys.readouterr().err


def test_two_real_builds(tmp_path, capsys):
    site = Site(tmp_path / "p")
    site.repo.write(".gitignore", "site/\n")
    for n, name in enumerate(("index.md", "a.md", "b.md"), start=1):
        site.page(name, f"# {name}\n")
        site.commit(f"add {name}", day(n))
    built = site.build()
    assert built.error is None, built.messages()
    shutil.copytree(built.site_dir, tmp_path / "old")
    site.page("b.md", "# b, changed\n")
    site.commit("change b", day(9))
    built = site.build()
    assert built.error is None, built.messages()
    (built.site_dir / f"{KEY}.txt").write_text(KEY)  # as the plugin's indexnow_key writes it
    with endpoint() as engine:
        assert main(["indexnow", str(built.site_dir), "--since", str(tmp_path / "old"),
                     "--endpoint", engine.url]) == 0
    assert [r.body for r in engine.requests] == [
        {"host": "example.com", "key": KEY, "keyLocation": f"{SITE_URL}{KEY}.txt",
         "urlList": [f"{SITE_URL}b/"]}]


PAST = "2023-12-25T12:00:00+00:00"  # before every commit of deploy 1: a clock set wrong


@pytest.mark.parametrize(("previous", "when", "back"), [
    (False, day(10), 0),  # git re-dates same/: it renders the same, so it is not sent
    (True, PAST, 1),  # same/ keeps its date; word/ went back in date, but it changed
    (False, PAST, 2),  # same/ went back in date and renders the same: warned, not sent
], ids=["plain", "previous-past", "plain-past"])
def test_exactly_the_pages_whose_rendering_changed_are_sent(tmp_path, capsys, previous, when,
                                                             back):
    # Deploy 2 re-wrapped a paragraph of same/, changed a word of word/, added new/ and
    # removed gone/.
    new, before, after = rendered_deploys(tmp_path, previous, when)
    assert (after[f"{SITE_URL}same/"] == before[f"{SITE_URL}same/"]) is previous
    (new / f"{KEY}.txt").write_text(KEY)
    with endpoint() as engine:
        assert main(["indexnow", str(new), "--since", str(tmp_path / "old"),
                     "--endpoint", engine.url, "--dry-run"]) == 0
    assert engine.requests == []
    captured = capsys.readouterr()
    head, _, rest = captured.out.partition("\n")
    assert head == f"POST {engine.url}"
    assert json.loads(rest)["urlList"] == [f"{SITE_URL}new/", f"{SITE_URL}gone/",
                                           f"{SITE_URL}word/"]
    err = captured.err.splitlines()
    assert len(err) == 2 + bool(back)
    if back:
        assert err[0].startswith(f"mkdocs-sitemap-pro indexnow: warning: {back} URL")
    assert err[-2:] == [
        f"mkdocs-sitemap-pro indexnow: since {tmp_path / 'old'}: 1 added, 1 updated, 1 removed",
        "mkdocs-sitemap-pro indexnow: dry run: 3 URLs in 1 request, nothing sent"]
