"""What a source says it includes: snippets lines and blocks, include-markdown directives."""

from __future__ import annotations

from pathlib import Path

from mkdocs_sitemap_pro.core.includes import (
    WrittenRules,
    rules_for,
    written_dependencies,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_snippets_lines_blocks_suffixes_and_nesting(tmp_path: Path) -> None:
    base = tmp_path / "snippets"
    a = write(base / "a.md", '--8<-- "nested.md"\n')
    nested = write(base / "nested.md", "deep\n")
    b = write(base / "b.md", "b\n")
    c = write(base / "c.py", "print()\n")
    write(base / "skipped.md", "never\n")
    page = write(
        tmp_path / "docs" / "page.md",
        '--8<-- "a.md"\n;--8<-- "skipped.md"\n--8<--\nb.md\n; skipped.md\n--8<--\n'
        "--8<-- 'c.py:2:3'\n--8<-- \"https://example.com/x.md\"\n--8<-- \"missing.md\"\n",
    )
    rules = rules_for({"pymdownx.snippets": {"base_path": "snippets"}}, ["pymdownx.snippets"], frozenset(), tmp_path)
    assert rules.snippet_bases == (base,)
    assert sorted(written_dependencies(page, rules)) == sorted([a, nested, b, c])
    # Without the extension the lines mean nothing.
    assert written_dependencies(page, rules_for({}, [], frozenset(), tmp_path)) == []


def test_include_markdown_relative_to_the_file_with_globs(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    one = write(docs / "parts" / "one.md", "{% include-markdown \"two.md\" %}\n")
    two = write(docs / "parts" / "two.md", "two\n")
    three = write(docs / "other" / "x3.md", "three\n")
    page = write(
        docs / "page.md",
        '{% include-markdown "parts/one.md" start="<!--s-->" %}\n{% include "other/x*.md" %}\n',
    )
    rules = WrittenRules(include_markdown=True)
    assert sorted(written_dependencies(page, rules)) == sorted([one, two, three])
    assert rules_for({}, [], frozenset({"include-markdown"}), tmp_path).include_markdown
