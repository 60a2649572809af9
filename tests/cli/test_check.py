"""``mkdocs-sitemap-pro check``: exit status 0, 1 or 2, plain text and --json."""

from __future__ import annotations

import json
import subprocess
import sys

from mkdocs_sitemap_pro.cli.main import main
from tests.core.check.tree_files import SITE, url, urlset, valid_files, write_tree


def test_a_correct_tree_exits_0(tmp_path, capsys):
    write_tree(tmp_path, valid_files())
    assert main(["check", str(tmp_path), "--site-url", SITE]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{tmp_path}: 3 sitemap files, 4 URLs"
    assert out.splitlines()[-1] == "no problem found"


def test_problems_exit_1_with_one_line_each(tmp_path, capsys):
    files = valid_files()
    files["sitemap-2.xml"] = files["sitemap-2.xml.gz"] = urlset(url(SITE + "b b/"), url(SITE + "c/"))
    write_tree(tmp_path, files)
    assert main(["check", str(tmp_path), "--site-url", SITE]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("error   loc-escaping        sitemap-2.xml: 'https://example.com/b b/'")
    # the URL is wrong, no page "b b/" exists, and the built page b/ is not listed
    assert lines[-1] == "2 errors, 1 warning"


def test_warnings_exit_0_unless_strict(tmp_path, capsys):
    files = valid_files()
    files["robots.txt"] = f"Sitemap: {SITE}sitemap.xml\nSitemap: {SITE}sitemap.xml\n"
    write_tree(tmp_path, files)
    assert main(["check", str(tmp_path), "--site-url", SITE]) == 0
    assert main(["check", str(tmp_path), "--site-url", SITE, "--strict"]) == 1


def test_json(tmp_path, capsys):
    files = valid_files()
    files["sitemap-1.xml.gz"] = urlset(url(SITE))
    write_tree(tmp_path, files)
    assert main(["check", str(tmp_path), "--site-url", SITE, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == 1 and report["errors"] == 1 and report["warnings"] == 0
    assert report["files"] == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"]
    assert report["urls"] == 4
    assert [(f["severity"], f["rule"], f["file"]) for f in report["findings"]] == [
        ("error", "gz-twin", "sitemap-1.xml.gz")]


def test_could_not_check_exits_2(tmp_path, capsys):
    assert main(["check", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    write_tree(tmp_path, {"sitemap.xml": urlset(url(SITE))})
    assert main(["check", str(tmp_path), "--json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["status"] == 2
    assert "pass --site-url" in captured.err


def test_the_console_script_runs_it(tmp_path):
    write_tree(tmp_path, valid_files())
    done = subprocess.run([sys.executable, "-m", "mkdocs_sitemap_pro", "check", str(tmp_path),
                           "--site-url", SITE, "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["findings"] == []


def test_a_gz_file_a_sitemaps_page_or_any_page_given_directly(tmp_path, capsys):
    files = valid_files()
    files["sitemap.html"] = "<!DOCTYPE html><title>the page for people</title>"
    write_tree(tmp_path, files)
    # The site URL comes from robots.txt's Sitemap line, whichever file is named.
    assert main(["check", str(tmp_path / "sitemap-1.xml.gz")]) == 0
    assert "sitemap-1.xml.gz: 1 sitemap file, 2 URLs" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "sitemap.html")]) == 0  # its sitemap.xml
    assert "sitemap.html: 3 sitemap files, 4 URLs" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "a" / "index.html")]) == 0  # the site it is in
    assert "index.html: 3 sitemap files, 4 URLs" in capsys.readouterr().out


def test_a_missing_file_says_which_local_file_was_looked_for(tmp_path, capsys):
    files = valid_files()
    del files["sitemap-2.xml"], files["sitemap-2.xml.gz"]
    write_tree(tmp_path, files)
    assert main(["check", str(tmp_path), "--site-url", SITE]) == 1
    out = capsys.readouterr().out
    assert f"sitemap-2.xml does not exist, listed by sitemap.xml (looked for {tmp_path / 'sitemap-2.xml'})" in out, out


def test_counts_add_up_and_json_has_one_record_per_finding(tmp_path, capsys):
    bad = urlset(*(url(f"{SITE}é{n}/") for n in range(12)))
    write_tree(tmp_path, {"sitemap.xml": bad})
    assert main(["check", str(tmp_path / "sitemap.xml"), "--site-url", SITE]) == 1
    out = capsys.readouterr().out
    # 12 escapes and 12 pages missing: every one counted, five of each shown.
    assert out.rstrip().endswith("24 errors, 0 warnings"), out
    assert out.count("7 more like the above") == 2
    assert main(["check", str(tmp_path / "sitemap.xml"), "--site-url", SITE, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 24 and len(report["findings"]) == 24
    escapes = [f for f in report["findings"] if f["rule"] == "loc-escaping"]
    assert [f["url"] for f in escapes] == [f"{SITE}é{n}/" for n in range(12)]
    assert set(escapes[0]) == {"severity", "rule", "file", "url", "message"}


def test_json_into_a_closed_pipe_exits_quietly(tmp_path):
    write_tree(tmp_path, {"sitemap.xml": urlset(*(url(f"{SITE}é{n}/") for n in range(3000)))})
    result = subprocess.run(
        f"{sys.executable} -m mkdocs_sitemap_pro check --json --site-url {SITE} "
        f"{tmp_path / 'sitemap.xml'} | head -c 10; exit ${{PIPESTATUS[0]}}",
        shell=True, executable="/bin/bash", capture_output=True, text=True,
    )
    assert result.returncode == 1, result.stderr  # the findings' status, not a crash
    assert result.stdout == '{"target":' and result.stderr == ""


def test_bad_xml_names_the_file_line_and_column_and_nothing_knocks_on(tmp_path, capsys):
    files = valid_files()
    files["sitemap-2.xml"] = files["sitemap-2.xml.gz"] = (
        '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>https://example.com/b/</loc>\n</urlset>\n")
    write_tree(tmp_path, files)
    assert main(["check", str(tmp_path), "--site-url", SITE]) == 1
    out = capsys.readouterr().out
    assert "sitemap-2.xml: not a sitemap: not well-formed XML at line 4, column 10:" in out, out
    assert "<string>" not in out
    assert "page-unlisted" not in out  # b/ and c/ are not "unlisted": their file is broken
