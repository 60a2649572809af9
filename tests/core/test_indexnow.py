"""``core.deploy.indexnow``: keys and key files, coverage, batches, request bodies, one POST."""

from __future__ import annotations

import json

import pytest

from mkdocs_sitemap_pro.core.deploy.indexnow import (
    MAX_URLS_PER_REQUEST,
    IndexNowError,
    KeyFile,
    Request,
    SendError,
    batches,
    check_key,
    explain,
    find_key_file,
    plan,
    post,
    uncovered,
)
from tests.support.indexnow_endpoint import endpoint

SITE = "https://example.com/docs/"
KEY = "0123abcd-KEY"


def test_the_key_rule():
    for good in ("a" * 8, "Z" * 128, "ab-CD-09", KEY):
        assert check_key(good) == good
    for bad in ("a" * 7, "a" * 129, "abc_defgh", "abcdefgh ", "abcdéfgh", ""):
        with pytest.raises(IndexNowError, match="not an IndexNow key: .*(a key has 8 to 128|a key is made of)"):
            check_key(bad)
    assert MAX_URLS_PER_REQUEST == 10_000


def test_the_key_file_named_by_the_key(tmp_path):
    (tmp_path / f"{KEY}.txt").write_text(f"{KEY}\n")
    found = find_key_file(tmp_path, SITE, key=KEY)
    assert found == KeyFile(KEY, (tmp_path / f"{KEY}.txt").resolve(), f"{SITE}{KEY}.txt")
    with pytest.raises(IndexNowError, match="there is no key file at .*other-key-1.txt"):
        find_key_file(tmp_path, SITE, key="other-key-1")
    (tmp_path / "other-key-1.txt").write_text(KEY)
    with pytest.raises(IndexNowError, match="does not hold the key 'other-key-1'"):
        find_key_file(tmp_path, SITE, key="other-key-1")
    with pytest.raises(IndexNowError, match="not an IndexNow key"):
        find_key_file(tmp_path, SITE, key="short")


def test_a_key_file_given_anywhere_in_the_site(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mine.txt").write_text(f"  {KEY}\n")
    found = find_key_file(tmp_path, SITE, key_file=tmp_path / "sub" / "mine.txt")
    assert (found.key, found.url) == (KEY, f"{SITE}sub/mine.txt")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
    outside.write_text(KEY)
    with pytest.raises(IndexNowError, match="is not in the site folder"):
        find_key_file(tmp_path, SITE, key_file=outside)
    (tmp_path / "sub" / "bad.txt").write_text("not a key!")
    with pytest.raises(IndexNowError, match="not an IndexNow key"):
        find_key_file(tmp_path, SITE, key_file=tmp_path / "sub" / "bad.txt")
    with pytest.raises(IndexNowError, match="there is no key file"):
        find_key_file(tmp_path, SITE, key_file=tmp_path / "sub")  # a folder


def test_the_one_key_file_at_the_root_is_found(tmp_path):
    (tmp_path / "robots-notes.txt").write_text("User-agent: *\n")  # holds something else
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deeper-key-1.txt").write_text("deeper-key-1")  # not at the root
    with pytest.raises(IndexNowError, match="no key file in .*: pass --key KEY"):
        find_key_file(tmp_path, SITE)
    (tmp_path / f"{KEY}.txt").write_text(KEY)
    assert find_key_file(tmp_path, SITE).url == f"{SITE}{KEY}.txt"
    (tmp_path / "second-key.txt").write_text("second-key")
    with pytest.raises(IndexNowError, match=rf"more than one key file .*\({KEY}.txt, "
                                            r"second-key.txt\): pass --key"):
        find_key_file(tmp_path, SITE)


def test_a_key_file_covers_its_folder_of_its_host_only(tmp_path):
    root = KeyFile(KEY, tmp_path, "https://example.com/k.txt")
    sub = KeyFile(KEY, tmp_path, "https://example.com/docs/k.txt")
    urls = ["https://example.com/", "https://example.com/docs/", "https://example.com/docs/a/",
            "https://example.com/docs2/", "http://example.com/docs/b/",
            "https://www.example.com/docs/c/", "https://EXAMPLE.com/docs/d/"]
    assert uncovered(urls, root) == ["http://example.com/docs/b/", "https://www.example.com/docs/c/"]
    assert uncovered(urls, sub) == ["https://example.com/", "https://example.com/docs2/",
                                    "http://example.com/docs/b/", "https://www.example.com/docs/c/"]


def test_batches_are_one_host_each_and_at_most_the_limit():
    urls = [f"https://a.example/{n}" for n in range(5)] + ["https://b.example/x"] + \
        [f"https://a.example/{n}" for n in range(5, 7)] + ["https://a.example/0"]  # once only
    assert batches(urls, limit=3) == [
        ("a.example", ["https://a.example/0", "https://a.example/1", "https://a.example/2"]),
        ("a.example", ["https://a.example/3", "https://a.example/4", "https://a.example/5"]),
        ("a.example", ["https://a.example/6"]),
        ("b.example", ["https://b.example/x"]),
    ]
    many = [f"https://a.example/{n}" for n in range(MAX_URLS_PER_REQUEST + 1)]
    assert [len(listed) for _, listed in batches(many)] == [MAX_URLS_PER_REQUEST, 1]
    with pytest.raises(ValueError):
        batches(urls, limit=0)


def test_the_request_bodies(tmp_path):
    key = KeyFile(KEY, tmp_path, f"{SITE}{KEY}.txt")
    requests = plan([SITE, SITE + "a/", SITE + "b/"], key, "https://engine.example/indexnow",
                    limit=2)
    assert requests == [
        Request("https://engine.example/indexnow", "example.com",
                {"host": "example.com", "key": KEY, "keyLocation": f"{SITE}{KEY}.txt",
                 "urlList": [SITE, SITE + "a/"]}),
        Request("https://engine.example/indexnow", "example.com",
                {"host": "example.com", "key": KEY, "keyLocation": f"{SITE}{KEY}.txt",
                 "urlList": [SITE + "b/"]}),
    ]
    assert json.loads(requests[1].data()) == requests[1].body
    with pytest.raises(IndexNowError, match="not an http\\(s\\) URL"):
        plan([SITE], key, "ftp://engine.example/")


def test_post_returns_the_status_and_raises_on_no_answer(tmp_path):
    key = KeyFile(KEY, tmp_path, f"{SITE}{KEY}.txt")
    with endpoint(statuses=(200, 202, 403, 429)) as engine:
        request = plan([SITE], key, engine.url)[0]
        assert [post(request, 5) for _ in range(4)] == [200, 202, 403, 429]
    assert [r.body for r in engine.requests] == [request.body] * 4
    first = engine.requests[0]
    assert (first.method, first.path) == ("POST", "/indexnow")
    assert first.headers["Content-Type"] == "application/json; charset=utf-8"
    with endpoint(delay=2) as slow:
        with pytest.raises(SendError, match="no answer from .* within 0.2 seconds"):
            post(plan([SITE], key, slow.url)[0], 0.2)
    with pytest.raises(SendError, match="cannot reach"):
        post(plan([SITE], key, slow.url)[0], 2)  # its server is closed now


def test_each_status_says_what_to_do(tmp_path):
    request = plan([SITE], KeyFile(KEY, tmp_path, f"{SITE}{KEY}.txt"))[0]
    assert explain(200, request) == "200 OK: received"
    assert explain(202, request).startswith("202 Accepted: received")
    assert "--dry-run" in explain(400, request) and "bug" in explain(400, request)
    assert explain(403, request) == (
        f"403 Forbidden: the key is not valid for example.com: {SITE}{KEY}.txt must be "
        "deployed and serve exactly the key (deploy first, then submit)")
    assert f"not under {SITE}" in explain(422, request)
    assert "retry later" in explain(429, request)
    assert explain(500, request).startswith("HTTP 500: not an answer of the IndexNow protocol")
