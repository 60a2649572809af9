"""The plugin's options and the core agree: each rule is stated once, in the core."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git import is_commit_id
from mkdocs_sitemap_pro.core.writer import WriteOptions
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig
from tests.support.dates import D1
from tests.support.sites import Site


def config_errors(**options: object) -> list[str]:
    """The validation errors MkDocs reports for the plugin given ``options``."""
    config = SitemapProConfig()
    config.load_dict(options)
    failed, _warnings = config.validate()
    return [f"{key}: {error}" for key, error in failed]


def core_accepts(**options: object) -> bool:
    try:
        WriteOptions(**options)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(
    "filename",
    ["sitemap.xml", "pages.xml", "s.xml", ".xml", ".s.xml", "a/b.xml", "a\\b.xml", "a\0.xml",
     "sitemap.txt", "sitemap.XML", "", "x.xml.xml"],
)
def test_filename_rule_is_the_core_rule(filename: str) -> None:
    assert (config_errors(filename=filename) == []) == core_accepts(filename=filename)


@pytest.mark.parametrize(
    ("option", "value"),
    [("max_urls", 0), ("max_urls", 1), ("max_urls", 50_000), ("max_urls", 50_001), ("max_urls", True),
     ("max_bytes", 1_023), ("max_bytes", 1_024), ("max_bytes", 52_428_800), ("max_bytes", 52_428_801)],
)
def test_limits_are_the_core_limits(option: str, value: object) -> None:
    errors = config_errors(**{option: value})
    assert (errors == []) == core_accepts(**{option: value}), errors
    assert all(e.startswith(option) for e in errors)


SHA1 = "1a2b3c4d" * 5
SHA256 = "1a2b3c4d" * 8


@pytest.mark.parametrize(
    ("sha", "ok"),
    [(SHA1[:7], True), (SHA1, True), (SHA256, True), (SHA1[:6], False), (SHA256 + "a", False),
     ("g" * 7, False)],
)
def test_commit_id_rule_is_one_rule(sha: str, ok: bool) -> None:
    assert is_commit_id(sha) is ok
    assert (config_errors(ignore_commits=[sha]) == []) is ok


def test_sha256_ids_are_accepted_in_the_list_and_in_the_file(site: Site, tmp_path: Path) -> None:
    site.page("index.md")
    site.repo.write(".git-blame-ignore-revs", f"{SHA256}  # a SHA-256 id\n")
    site.commit("first", D1)
    for option in ([SHA256], ".git-blame-ignore-revs"):
        site.set_options(ignore_commits=option)
        built = site.build()
        assert built.error is None, built.messages()
        # Well formed, so not "not a commit SHA"; this repository has no such commit.
        warnings = [m for m in built.messages() if SHA256 in m]
        assert len(warnings) == 1 and "is not a commit in the repository" in warnings[0], warnings


@pytest.mark.parametrize("value, error", [
    (3, "expected 'auto', an http(s) URL or the path"),
    ("  ", "expected 'auto', an http(s) URL or the path"),
    ("ftp://example.com/sitemap.manifest.json", "only http and https URLs can be read"),
])
def test_previous_refuses_what_cannot_be_read(value: object, error: str) -> None:
    assert any(error in e and e.startswith("previous:") for e in config_errors(previous=value))


def test_previous_and_fetch_history_values() -> None:
    assert config_errors(previous="auto", fetch_history="auto", manifest=False) == []
    assert config_errors(previous="https://example.com/docs/sitemap.manifest.json") == []
    assert any(e.startswith("fetch_history:") for e in config_errors(fetch_history="always"))


@pytest.mark.parametrize(("value", "loaded"), [
    (True, "lines"), ("lines", "lines"), ("files", "files"), (False, False)])
def test_dependencies_values(value: object, loaded: object) -> None:
    config = SitemapProConfig()
    config.load_dict({"dependencies": value})
    assert config.validate() == ([], [])
    assert config["dependencies"] == loaded


@pytest.mark.parametrize("value", ["line", "true", 1, 0, None, ["lines"]])
def test_dependencies_refuses_other_values(value: object) -> None:
    errors = config_errors(dependencies=value)
    assert errors and errors[0].startswith("dependencies: expected 'lines', 'files' or false")


def test_dependencies_defaults_to_lines() -> None:
    config = SitemapProConfig()
    config.load_dict({})
    config.validate()
    assert config["dependencies"] == "lines"


def test_a_previous_path_is_relative_to_mkdocs_yml(site: Site) -> None:
    from mkdocs.config import load_config

    site.page("index.md")
    site.set_options(previous="../published")
    config = load_config(str(site.root / "mkdocs.yml"))
    assert config.plugins["sitemap-pro"].config.previous == str(site.root.parent / "published")


def test_a_typo_in_an_option_name_says_which_was_meant() -> None:
    config = SitemapProConfig()
    config.load_dict({"lastmd": "git", "gzp": False, "colour": "blue"})
    failed, warnings = config.validate()
    said = dict(warnings)
    assert failed == []
    assert said["lastmd"] == "Unrecognised configuration name: lastmd; did you mean 'lastmod'?"
    assert said["gzp"].endswith("did you mean 'gzip'?")
    assert said["colour"] == "Unrecognised configuration name: colour"  # nothing close
