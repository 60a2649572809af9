"""What a new user reads first is true (issue 56): every line that installs the plugin
works before the first release on PyPI (one form, from the repository), and the Python
versions named in the README and the docs are the package's classifiers."""

from __future__ import annotations

import re
import sys

from tests.support import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
_PAGES = sorted((REPO / "docs" / "pages").glob("*.md"))
_READ = [REPO / "README.md", *(p for p in _PAGES if p.name != "changelog.md")]


def test_every_install_of_the_plugin_uses_the_one_form_that_works_before_a_release() -> None:
    source = _PYPROJECT["project"]["urls"]["Source"]
    form = f'"mkdocs-sitemap-pro @ git+{source}"'
    # Named otherwise only as a folder of a clone, a wheel, and the release to come.
    allowed = ("./mkdocs-sitemap-pro", "pip install mkdocs-sitemap-pro` installs the released")
    installs = 0
    for path in _READ:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"\bpipx? install\b", line) or line.startswith("mkdocs-sitemap-pro @"):
                installs += line.count(form) + line.count(form.strip('"'))
                rest = line.replace(form, "").replace(form.strip('"'), "")
                for allow in allowed:
                    rest = rest.replace(allow, "")
                # (not the documentation's host, mkdocs-sitemap-pro.readthedocs.io)
                assert not re.search(r"mkdocs-sitemap-pro(?![\w.])", rest), (path.name, line)
    assert installs >= 8, installs


def test_the_python_versions_named_are_the_classifiers() -> None:
    prefix = "Programming Language :: Python :: 3."
    minors = sorted(int(c[len(prefix):]) for c in _PYPROJECT["project"]["classifiers"]
                    if c.startswith(prefix))
    assert _PYPROJECT["project"]["requires-python"] == f">=3.{minors[0]}"
    assert minors == list(range(minors[0], minors[-1] + 1)), minors  # none left out
    named = ", ".join(f"3.{m}" for m in minors[:-1]) + f" or 3.{minors[-1]}"
    for path in (REPO / "README.md", REPO / "docs/pages/getting-started.md"):
        assert f"Python {named}" in " ".join(path.read_text(encoding="utf-8").split()), path
    # Every version a page's workflow or Read the Docs config uses is one of them.
    for path in _READ:
        text = path.read_text(encoding="utf-8")
        for used in re.findall(r'python(?:-version)?: "3\.(\d+)"', text):
            assert int(used) in minors, (path.name, used)
        assert "tested on" not in text, path.name


def test_the_migration_table_names_only_options_we_have() -> None:
    """comparison.md's table of git-revision-date-localized's options: each row's last
    cell starts with one of our options, or says there is none."""
    from mkdocs_sitemap_pro.plugin.config import SitemapProConfig

    ours = {name.rstrip("_") for name, _ in SitemapProConfig._schema}
    page = (REPO / "docs/pages/comparison.md").read_text(encoding="utf-8")
    section = page.split("### Its options, and ours\n", 1)[1]
    [table] = [block for block in section.split("\n\n") if block.startswith("| ")][:1]
    rows = [[cell.strip() for cell in row.strip("|").split("|")] for row in table.splitlines()[2:]]
    assert all(len(row) == 3 for row in rows), rows
    theirs = [re.match(r"`(\w+)`", row[0]) for row in rows]
    assert [m.group(1) for m in theirs if m] == [
        "enabled", "type", "custom_format", "locale", "timezone", "fallback_to_build_date",
        "exclude", "enable_creation_date", "enable_git_follow", "ignored_commits_file",
        "strict", "enable_parallel_processing"]
    for row in rows:
        cell = row[-1]
        named = re.match(r"`(\w+)[`:]", cell)
        assert (named is not None and named.group(1) in ours) or cell.startswith(
            ("none", "no equivalent")), row
