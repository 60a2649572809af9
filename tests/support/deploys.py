"""Two real deploys of one repository, a commit apart, for ``changes`` and IndexNow."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.dates import day
from tests.support.sites import Site

PARAGRAPH = ("Search engines use the lastmod only while it is consistently and verifiably "
             "accurate, and mean the last significant change of what the page shows.")


def wrapped(width: int) -> str:
    """PARAGRAPH re-wrapped at ``width`` columns: the same words, other line breaks."""
    lines, line = [], ""
    for word in PARAGRAPH.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line]) + "\n"


def rendered_deploys(tmp_path: Path, previous: bool, when: str = day(10),
                     ) -> tuple[Path, dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """In ``tmp_path``: deploy 1, kept as old/; then a paragraph of same.md re-wrapped
    (whitespace only: other line breaks, a blank line more), a word of word.md changed,
    new.md added, gone.md deleted (committed ``when``); deploy 2, with ``previous`` naming deploy 1
    or not. Deploy 2's folder and both sitemaps, parsed back and validated."""
    site = Site(tmp_path / "p", options={})
    site.repo.write(".gitignore", "site/\n")
    for n, (name, text) in enumerate({
            "index.md": "# Home\n", "same.md": "# Same\n\n" + wrapped(60),
            "word.md": "# Word\n\nThe quick brown fox.\n", "gone.md": "# Gone\n"}.items(), 1):
        site.page(name, text)
        site.commit(f"add {name}", day(n))
    first = site.build()
    assert first.error is None, first.messages()
    before = first.sitemap()
    shutil.copytree(first.site_dir, tmp_path / "old")
    site.page("same.md", "# Same\n\n\n" + wrapped(30))
    site.page("word.md", "# Word\n\nThe quick red fox.\n")
    site.page("new.md", "# New\n")
    (site.root / "docs" / "gone.md").unlink()
    site.commit("re-wrap same, a word of word, add new, drop gone", when)
    if previous:
        site.set_options(previous=str(tmp_path / "old"))
    second = site.build()
    assert second.error is None, second.messages()
    return second.site_dir, before, second.sitemap()
