"""Words a user reads (issue 41): one of a thing is never "1 URLs" or "1 requests"; a
dry run never says it submitted; `changes --help` and `indexnow --help` end with an
example; `check --json` and `changes --json` are both JSON Lines."""

from __future__ import annotations

import json
import subprocess
import sys

from mkdocs_sitemap_pro.cli.main import main
from tests.cli.test_indexnow import KEY, ROBOTS
from tests.core.check.tree_files import SITE, url, urlset, write_tree
from tests.support.indexnow_endpoint import endpoint


def _one_url_site(tmp_path):  # type: ignore[no-untyped-def]
    site = write_tree(tmp_path / "site", {"robots.txt": ROBOTS,
                                          "sitemap.xml": urlset(url(SITE, "2024-01-01"))})
    (site / f"{KEY}.txt").write_text(KEY + "\n")
    return site


def test_a_dry_run_with_all_says_what_would_be_sent_of_one_url(tmp_path, capsys):  # type: ignore[no-untyped-def]
    site = _one_url_site(tmp_path)
    with endpoint() as engine:
        assert main(["indexnow", str(site), "--all", "--dry-run", "--endpoint", engine.url]) == 0
    assert engine.requests == []
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "mkdocs-sitemap-pro indexnow: a first deploy (no --since OLD): every URL would be "
        "submitted (--all, --dry-run)",
        "mkdocs-sitemap-pro indexnow: dry run: 1 URL in 1 request, nothing sent",
    ]


def test_one_url_sent_is_one_url(tmp_path, capsys):  # type: ignore[no-untyped-def]
    site = _one_url_site(tmp_path)
    with endpoint(statuses=(200,)) as engine:
        assert main(["indexnow", str(site), "--all", "--endpoint", engine.url]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[1].startswith("mkdocs-sitemap-pro indexnow: request 1 of 1 (1 URL of example.com)")
    assert err[2] == f"mkdocs-sitemap-pro indexnow: 1 URL submitted to {engine.url}"
    assert not [line for line in err if " 1 URLs" in line or " 1 requests" in line]


def test_changes_and_indexnow_help_end_with_an_example_that_runs() -> None:
    for command in ("changes", "indexnow"):
        shown = subprocess.run([sys.executable, "-m", "mkdocs_sitemap_pro", command, "--help"],
                               capture_output=True, text=True, check=True).stdout
        example = shown.rsplit("example:", 1)[1].splitlines()
        # The command line is printed whole on its own line, as it is typed.
        assert example[1].startswith(f"  mkdocs-sitemap-pro {command} "), shown


def test_check_json_and_changes_json_are_both_json_lines(tmp_path, capsys):  # type: ignore[no-untyped-def]
    site = _one_url_site(tmp_path)
    old = write_tree(tmp_path / "old", {"robots.txt": ROBOTS, "sitemap.xml": urlset(
        url(SITE, "2023-01-01"), url(SITE + "gone/", "2023-01-01"))})
    assert main(["check", str(site), "--json"]) in (0, 1)  # findings or none: a report
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["urls"] == 1
    assert main(["changes", str(old), str(site), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(r["kind"] for r in records) == ["removed", "updated"]
    # Could not run: one line each, with the status and the error.
    for args in (["check", str(tmp_path / "none"), "--json"],
                 ["changes", str(tmp_path / "none"), str(site), "--json"]):
        assert main(args) == 2
        (line,) = capsys.readouterr().out.splitlines()
        assert json.loads(line)["status"] == 2 and json.loads(line)["error"]


def test_a_one_page_site_under_an_index_says_1_url_in_1_file(site):  # type: ignore[no-untyped-def]
    """A real build: the INFO line and the HTML view of the index."""
    from tests.support.dates import D1

    site.page("index.md")
    site.commit("first", D1)
    site.set_options(index="always")
    built = site.build()
    assert built.error is None, built.messages()
    summary = [m for m in built.infos() if m.startswith("sitemap-pro: 1 URL")]
    assert summary and summary[0].startswith("sitemap-pro: 1 URL in 1 file ("), built.infos()
    view = (built.site_dir / "sitemap.html").read_text(encoding="utf-8")
    assert '<strong class="count">1</strong> URL in 1 file, ' in view, view[:2000]


def test_an_import_hook_path_is_no_file_a_page_read(tmp_path):  # type: ignore[no-untyped-def]
    """setuptools' editable finder entry on sys.path, tried as a path: not recorded."""
    from mkdocs_sitemap_pro.core.page.reads import Observer

    real = tmp_path / "part.md"
    real.write_text("x")
    observer = Observer()
    observer.open()
    try:
        open(tmp_path / "__editable__.pkg-1.0.finder.__path_hook__")
    except OSError:
        pass
    real.read_text()
    assert observer.close() == {str(real)}
