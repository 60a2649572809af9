"""Issue 54, experiment 7: ``build`` never opens a file outside the repository on a
page's say-so.

Pages name a file outside the repository through every include syntax ``build`` reads
(pymdownx.snippets, include-markdown and its ``include``, mdx_include, mkdocs-macros),
by an absolute path, by ``..`` climbing out, by a glob, and through symlinks inside the
repository (a file, a folder) pointing out. ``build`` runs in this process under an
audit hook that records every file opened and every folder listed below the outside
folder (symlinks resolved): none may be. A file included from inside the repository is
seen opened by the same hook (the hook works) and still dates its page.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.support.dates import D1, D2, D3, utc
from tests.support.schemas import parse_sitemap
from tests.support.sites import SITE_URL, Site

SECRET = "outside_secret_line\n" * 3
_WATCHED = ("open", "os.listdir", "os.scandir", "glob.glob", "glob.glob/2")


@pytest.fixture(autouse=True)
def root_handlers() -> Iterator[None]:
    """mdx_include calls ``logging.basicConfig()`` when imported: handlers put back."""
    handlers = logging.root.handlers[:]
    yield
    logging.root.handlers[:] = handlers


def _watch(folders: list[Path]) -> tuple[list[str], Callable[[], None]]:
    """Record each path opened or listed (symlinks resolved) below ``folders``, until the
    returned function is called (an audit hook cannot be removed: it is switched off)."""
    roots = [os.path.realpath(f) for f in folders]
    seen: list[str] = []
    on = [True]

    def hook(event: str, args: tuple[object, ...]) -> None:
        if not on[0] or event not in _WATCHED or not args:
            return
        path = args[0]
        if not isinstance(path, (str, bytes, os.PathLike)):
            return  # a file descriptor
        try:
            real = os.path.realpath(os.fsdecode(path))
        except (ValueError, OSError):
            return
        if any(real == root or real.startswith(root + os.sep) for root in roots):
            seen.append(f"{event} {real}")

    sys.addaudithook(hook)
    return seen, lambda: on.__setitem__(0, False)


def _hostile_pages(site: Site, outside: Path) -> None:
    """Pages naming ``outside/secret.md`` every way; one page including a file inside."""
    secret = outside / "secret.md"
    site.page("absolute.md", "\n".join([
        "# Absolute", "",
        f'--8<-- "{secret}"', f'--8<-- "{secret}:1:2"', "",
        f'{{% include-markdown "{secret}" %}}',
        f'{{% include-markdown "{secret}" start="outside" end="line" %}}',
        f'{{% include "{secret}" %}}', "",
        f"{{! {secret} !}}", f"{{! {secret} [ln:1-2] !}}", "",
        f'{{% include-markdown "{outside}/*.md" %}}',
        f'{{% include-markdown "{outside}/**" %}}', ""]))
    site.page("climb.md", "\n".join([
        "# Climb", "",
        '--8<-- "../../outside/secret.md"', '--8<-- "../../outside/secret.md:1:2"', "",
        '{% include-markdown "../../outside/secret.md" %}',
        '{% include-markdown "../../outside/secret.md" start="outside" %}',
        '{% include-markdown "../../outside/*.md" %}',
        '{% include-markdown "../../../../../../../../../../' + str(secret)[1:] + '" %}', "",
        "{! ../outside/secret.md !}", "{! ../outside/secret.md [ln:2] !}",
        "{! ../../../../../../../../../../" + str(secret)[1:] + " !}", "",
        "{% include '../../outside/secret.md' %}", ""]))
    site.page("linked.md", "\n".join([
        "# Linked", "",
        '--8<-- "link.md"', '--8<-- "link.md:1:2"', '--8<-- "out/secret.md"', "",
        '{% include-markdown "../snippets/link.md" %}',
        '{% include-markdown "../snippets/out/secret.md" end="line" %}',
        '{% include-markdown "../snippets/out/*.md" %}', "",
        "{! snippets/link.md !}", "{! snippets/out/secret.md [ln:1] !}", "",
        "{% include 'link.md' %}", "{% include 'out/secret.md' %}", ""]))


@needs_zensical
def test_build_opens_no_file_outside_the_repository(site, tmp_path, monkeypatch, capsys):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET, encoding="utf-8")
    (outside / "other.md").write_text(SECRET, encoding="utf-8")
    site.page("index.md", "# Home\n")
    for name in ("absolute", "climb", "linked", "inside"):
        site.page(f"{name}.md", f"# {name.title()}\n")
    site.repo.write("snippets/shared.md", "Shared text.\n")
    (site.root / "snippets" / "link.md").symlink_to(outside / "secret.md")
    (site.root / "snippets" / "out").symlink_to(outside)
    site.commit("first", D1)
    zensical_build(site)  # the HTML of every page; the includes are the sources' own

    _hostile_pages(site, outside)
    site.page("inside.md", '# Inside\n\n--8<-- "shared.md:1:1"\n\n'
                           '{% include-markdown "../snippets/shared.md" %}\n')
    site.commit("hostile includes", D2)
    site.repo.write("snippets/shared.md", "Shared text, changed.\n")
    site.commit("shared", D3)
    site.config.update(
        markdown_extensions=[{"pymdownx.snippets": {"base_path": ["snippets"]}}, "mdx_include"],
        plugins=["include-markdown", {"macros": {"include_dir": "snippets"}}, "sitemap-pro"],
    )
    site.write_config()

    seen, stop = _watch([outside, site.root / "snippets" / "shared.md"])
    try:
        status = run_build(site, monkeypatch)
    finally:
        stop()
    err = capsys.readouterr().err
    assert status == 0, err
    assert "Traceback" not in err and "outside_secret_line" not in err, err
    shared = os.path.realpath(site.root / "snippets" / "shared.md")
    assert [s for s in seen if shared not in s] == []  # nothing outside was opened
    assert f"open {shared}" in seen  # ... and the hook sees what is opened
    dates = {url.findtext("{*}loc"): url.findtext("{*}lastmod")
             for url in parse_sitemap(site.root / "site" / "sitemap.xml")}
    assert dates == {
        SITE_URL: utc(D1),
        SITE_URL + "absolute/": utc(D2),
        SITE_URL + "climb/": utc(D2),
        SITE_URL + "linked/": utc(D2),
        SITE_URL + "inside/": utc(D3),  # the file inside still dates its page
    }


def test_the_plugin_opens_again_only_what_the_rendering_read(site, tmp_path):
    """Under ``mkdocs build`` pymdownx.snippets refuses a file outside its base_path
    (``restrict_base_path``), but the plugin read the page's text for the lines each
    snippet shows and opened the file itself: now only files the rendering read are.
    (A symlink inside base_path the extension follows itself: the rendering reads it.)"""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET, encoding="utf-8")
    site.repo.write("snippets/shared.md", "one\ntwo\nthree\n")
    site.page("index.md", "# Home\n")
    site.page("page.md", "\n".join([
        "# Page", "", '--8<-- "shared.md:2:2"', "",
        f'--8<-- "{outside}/secret.md:1:2"', '--8<-- "../../outside/secret.md:1:1"', ""]))
    site.config["markdown_extensions"] = [{"pymdownx.snippets": {"base_path": ["snippets"]}}]
    site.write_config()
    site.commit("first", D1)

    seen, stop = _watch([outside])
    try:
        built = site.build()
    finally:
        stop()
    assert built.error is None, built.error
    html = (built.site_dir / "page" / "index.html").read_text(encoding="utf-8")
    assert "two" in html and "outside_secret_line" not in html  # the extension refused it
    assert seen == []
    assert built.sitemap()[SITE_URL + "page/"]["lastmod"] == utc(D1)
