"""However ``-f`` names mkdocs.yml, a site gets the same dates.

MkDocs keeps the config file's name as the command line gave it (``-f mkdocs.yml`` is
relative), and paths made from its folder did not match the files the build read: a page
showing a pymdownx.snippets section or line range was dated by the whole file. The same
real repository, built by the real ``mkdocs`` command without ``-f``, with ``-f
mkdocs.yml``, ``-f ./mkdocs.yml``, an absolute ``-f``, and from the folder above it with
``-f project/mkdocs.yml`` (as CI scripts write it), then by ``mkdocs-sitemap-pro build``
the same ways: byte-identical sitemap.xml, each page dated by the lines it shows.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.support.dates import day, utc
from tests.support.git import GitRepo, git_env
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

# 30 lines; the section "sample" is lines 5-7 (its marker lines are not shown).
EXAMPLE = "".join(
    {5: "# --8<-- [start:sample]\n", 6: "sample = 6\n", 7: "# --8<-- [end:sample]\n"}
    .get(n, f"value_{n} = {n}\n") for n in range(1, 31))


def _edit(site: Site, old: str, new: str, date: str) -> None:
    path = site.root / "src/pkg/example.py"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    site.commit(f"edit: {new.strip()}", date)


def _run(folder: Path, *args: str) -> str:
    """One real build (cold: no cache, no site) run in ``folder``; the sitemap's bytes."""
    project = folder if (folder / "mkdocs.yml").is_file() else folder / "project"
    shutil.rmtree(project / ".cache", ignore_errors=True)
    result = subprocess.run([sys.executable, "-m", *args], cwd=folder, env=git_env(),
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return (project / "site/sitemap.xml").read_text(encoding="utf-8")


def _every_form(site: Site) -> dict[str, str]:
    """The sitemap each way of naming the config gives (``mkdocs build`` leaves the
    site; ``mkdocs-sitemap-pro build`` then writes the sitemap again)."""
    root, above = site.root, site.root.parent
    config = str(root / "mkdocs.yml")
    mkdocs = ("mkdocs", "build", "--strict")
    ours = ("mkdocs_sitemap_pro", "build", "--strict")
    return {
        "mkdocs build": _run(root, *mkdocs),
        "-f mkdocs.yml": _run(root, *mkdocs, "-f", "mkdocs.yml"),
        "-f ./mkdocs.yml": _run(root, *mkdocs, "-f", "./mkdocs.yml"),
        "-f absolute": _run(root, *mkdocs, "-f", config),
        "-f project/mkdocs.yml": _run(above, *mkdocs, "-f", "project/mkdocs.yml"),
        "build -f mkdocs.yml": _run(root, *ours, "-f", "mkdocs.yml"),
        "build -f project/mkdocs.yml": _run(above, *ours, "-f", "project/mkdocs.yml"),
    }


def _dates(site: Site) -> dict[str, str]:
    """The one sitemap every form wrote, as page -> lastmod."""
    sitemaps = _every_form(site)
    first = sitemaps["mkdocs build"]
    assert all(text == first for text in sitemaps.values()), sitemaps
    return {url.findtext("{*}loc", "").removeprefix(SITE_URL): url.findtext("{*}lastmod", "")
            for url in parse_sitemap(site.root / "site/sitemap.xml")}


def test_every_form_of_the_config_path_dates_the_lines_shown(site: Site) -> None:
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("src/pkg/example.py", EXAMPLE)
    site.page("index.md", "# Home\n")
    site.page("section.md", '# Section\n\n```python\n--8<-- "src/pkg/example.py:sample"\n```\n')
    site.page("range.md", '# Range\n\n```python\n--8<-- "src/pkg/example.py:12:14"\n```\n')
    # base_path is relative to the working folder (pymdownx's rule): the project's folder
    # when run in it, the folder above when run from there.
    site.config["markdown_extensions"] = [
        {"pymdownx.snippets": {"base_path": [".", "project"], "check_paths": True}},
        "pymdownx.superfences",
    ]
    site.write_config()
    site.commit("pages", day(1))
    _edit(site, "sample = 6\n", "sample = 'six'\n", day(3))  # in the section

    assert _dates(site) == {"": utc(day(1)), "section/": utc(day(3)), "range/": utc(day(1))}

    _edit(site, "value_13 = 13\n", "value_13 = 'thirteen'\n", day(5))  # in the range
    assert _dates(site) == {"": utc(day(1)), "section/": utc(day(3)), "range/": utc(day(5))}
    assert "thirteen" in (site.root / "site/range/index.html").read_text(encoding="utf-8")

    # A line inserted after both parts: no page shows it, none is re-dated.
    _edit(site, "value_20 = 20\n", "value_20 = 20\ninserted = True\n", day(7))
    assert _dates(site) == {"": utc(day(1)), "section/": utc(day(3)), "range/": utc(day(5))}


def test_snippets_of_the_working_folder_with_the_config_in_a_subfolder(tmp_path: Path) -> None:
    """mkdocs.yml in ``site/`` of the repository, built from its top with ``-f
    site/mkdocs.yml``: pymdownx.snippets' ``base_path: .`` is the top (the working
    folder, not the config's), and so it is for the lines each page shows."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitignore", "public/\n.cache/\n")
    repo.write("src/pkg/example.py", EXAMPLE)
    repo.write("site/docs/index.md", "# Home\n")
    repo.write("site/docs/range.md", '# Range\n\n```python\n--8<-- "src/pkg/example.py:12:14"\n```\n')
    repo.write("site/mkdocs.yml", yaml.safe_dump({
        "site_name": "Test", "site_url": SITE_URL, "site_dir": "../public",
        "markdown_extensions": [{"pymdownx.snippets": {"check_paths": True}}],
        "plugins": ["sitemap-pro"],
    }))
    repo.commit("pages", day(1))
    text = (repo.path / "src/pkg/example.py").read_text(encoding="utf-8")
    repo.write("src/pkg/example.py", text.replace("value_20 = 20\n", "value_20 = 'twenty'\n"))
    repo.commit("a line no page shows", day(3))

    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                             "site/mkdocs.yml"], cwd=repo.path, env=git_env(),
                            capture_output=True, text=True)

    assert result.returncode == 0, result.stderr
    assert "value_13" in (repo.path / "public/range/index.html").read_text(encoding="utf-8")
    dates = {url.findtext("{*}loc"): url.findtext("{*}lastmod")
             for url in parse_sitemap(repo.path / "public/sitemap.xml")}
    assert dates == {SITE_URL: utc(day(1)), SITE_URL + "range/": utc(day(1))}
