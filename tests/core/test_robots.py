"""robots.txt: one Sitemap line, the file's own style kept, trouble reported."""

from __future__ import annotations

import pytest

from mkdocs_sitemap_pro.core.robots import RobotsError, RobotsOutcome, add_sitemap_line

URL = "https://example.com/sitemap.xml"
LINE = f"Sitemap: {URL}"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"User-agent: *\nDisallow:\n", f"User-agent: *\nDisallow:\n{LINE}\n".encode()),
        (b"User-agent: *\r\nDisallow:\r\n", f"User-agent: *\r\nDisallow:\r\n{LINE}\r\n".encode()),
        (b"User-agent: *\nDisallow:", f"User-agent: *\nDisallow:\n{LINE}\n".encode()),
        (b"User-agent: *\r\nDisallow:", f"User-agent: *\r\nDisallow:\r\n{LINE}\r\n".encode()),
        (b"\xef\xbb\xbfUser-agent: *\n", b"\xef\xbb\xbf" + f"User-agent: *\n{LINE}\n".encode()),
        (b"\xef\xbb\xbf", b"\xef\xbb\xbf" + f"{LINE}\n".encode()),
        (b"", f"{LINE}\n".encode()),
        (
            b"Sitemap: https://other.example.com/sitemap.xml\n",
            f"Sitemap: https://other.example.com/sitemap.xml\n{LINE}\n".encode(),
        ),
    ],
)
def test_appends_in_the_files_own_style(tmp_path, before, after):
    robots = tmp_path / "robots.txt"
    robots.write_bytes(before)
    assert add_sitemap_line(robots, URL) is RobotsOutcome.APPENDED
    assert robots.read_bytes() == after
    # Idempotent: a second call leaves the bytes alone.
    assert add_sitemap_line(robots, URL) is RobotsOutcome.ALREADY_PRESENT
    assert robots.read_bytes() == after


@pytest.mark.parametrize("existing", [f"sitemap: {URL}", f"SITEMAP:{URL}", f"Sitemap:   {URL}  "])
def test_same_line_in_another_case_is_not_duplicated(tmp_path, existing):
    robots = tmp_path / "robots.txt"
    robots.write_text(f"User-agent: *\n{existing}\n")
    assert add_sitemap_line(robots, URL) is RobotsOutcome.ALREADY_PRESENT
    assert robots.read_text() == f"User-agent: *\n{existing}\n"


def test_a_different_url_is_not_the_same_line(tmp_path):
    robots = tmp_path / "robots.txt"
    robots.write_text(f"Sitemap: {URL}.gz\n")
    assert add_sitemap_line(robots, URL) is RobotsOutcome.APPENDED
    assert robots.read_text().splitlines() == [f"Sitemap: {URL}.gz", LINE]


def test_created_when_absent(tmp_path):
    robots = tmp_path / "robots.txt"
    assert add_sitemap_line(robots, URL) is RobotsOutcome.CREATED
    assert robots.read_text() == f"{LINE}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["robots.txt"]


def test_a_directory_is_an_error_naming_it(tmp_path):
    robots = tmp_path / "robots.txt"
    robots.mkdir()
    with pytest.raises(RobotsError, match="robots.txt"):
        add_sitemap_line(robots, URL)
    assert robots.is_dir()
    assert [p.name for p in tmp_path.iterdir()] == ["robots.txt"]  # no temporary file left


def test_a_symlinked_robots_txt_does_not_write_through(tmp_path):
    source = tmp_path / "docs-robots.txt"
    source.write_text("User-agent: *\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "robots.txt").symlink_to(source)
    add_sitemap_line(site / "robots.txt", URL)
    assert source.read_text() == "User-agent: *\n"
    assert (site / "robots.txt").read_text() == f"User-agent: *\n{LINE}\n"


def test_temporary_files_of_a_killed_run_are_removed(tmp_path):
    robots = tmp_path / "robots.txt"
    (tmp_path / ".robots.txt.tmp-0123456789ab").write_text("half")
    (tmp_path / ".robots.txt.bak.tmp-0123456789ab").write_text("backup")
    (tmp_path / ".other.tmp").write_text("not ours")
    add_sitemap_line(robots, URL)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.tmp", "robots.txt"]
