"""What a source says it includes: snippets lines and blocks, include-markdown directives."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mkdocs_sitemap_pro.core.page.includes import Reach
from mkdocs_sitemap_pro.core.page.includes import (
    WrittenRules,
    _argument_names,
    rules_for,
    shown_lines,
    written_dependencies,
)
from mkdocs_sitemap_pro.core.page.included_lines import _kept


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
    rules = rules_for({"pymdownx.snippets": {"base_path": "snippets"}}, ["pymdownx.snippets"], frozenset(), tmp_path, reach=Reach([tmp_path]))
    assert rules.snippet_bases == (base,)
    assert sorted(written_dependencies(page, rules)) == sorted([a, nested, b, c])
    # Without the extension the lines mean nothing.
    assert written_dependencies(page, rules_for({}, [], frozenset(), tmp_path, reach=Reach([tmp_path]))) == []


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
    assert rules_for({}, [], frozenset({"include-markdown"}), tmp_path, reach=Reach([tmp_path])).include_markdown


# shown_lines: the lines of each file a page's text includes directly (issue 28).

TEN = "".join(f"line{n}\n" for n in range(1, 11))  # ten lines, and a final line ending


def snippets_at(tmp_path: Path) -> WrittenRules:
    return WrittenRules(snippet_bases=(tmp_path / "snippets",))


def shown_by(tmp_path: Path, page: str, rules: WrittenRules) -> dict[str, object]:
    return shown_lines(page, str(tmp_path / "docs" / "page.md"), rules)


@pytest.mark.parametrize(("spec", "lines"), [
    (":2:3", ((2, 3),)),
    (":4", ((4, 10),)),  # from line 4 to the end (start given, end None: lines[3:])
    ("::3", ((1, 3),)),
    (":1:3,5:6", ((1, 3), (5, 6))),
    (":2:3,3:5,9", ((2, 5), (9, 10))),
    (":0:2", ((1, 2),)),  # 0 is taken as 1
    (":8:99", ((8, 10),)),  # clamped to the file
    (":3:-2", ((3, 10),)),  # end -2: len(lines) + 1 - 2, the final empty "line" counted
    (":-3", ((9, 10),)),  # the last three of 11 split lines: 9, 10 and the empty one
    (":-2", ((10, 10),)),
    (":5:4", None),  # shows nothing: dated whole, never by fewer lines
    (":20", None),  # nothing either
    (":1:10", None),  # every line: whole
    ("::", None),
    ("", None),
])
def test_snippet_line_ranges(tmp_path: Path, spec: str, lines: object) -> None:
    part = write(tmp_path / "snippets" / "part.txt", TEN)
    assert shown_by(tmp_path, f'--8<-- "part.txt{spec}"\n', snippets_at(tmp_path)) == {str(part): lines}


SECTIONS = (
    "before\n"                       # 1
    "# --8<-- [start:intro]\n"       # 2
    "intro one\n"                    # 3
    "# --8<-- [start:other]\n"       # 4: another section's marker, not shown
    "intro two\n"                    # 5
    "; --8<-- [end:other]\n"         # 6: a marker too (the ';' is not next to it)
    "#;--8<-- [end:intro]\n"         # 7: escaped, shown (without its ';')
    "intro three\n"                  # 8
    "# --8<-- [end:intro]\n"         # 9
    "after\n"                        # 10
    "# --8<-- [start:intro]\n"       # 11: a second start: only the first section counts
    "again\n"                        # 12
    "# --8<-- [end:intro]\n"         # 13
    "# --8<-- [start:open]\n"        # 14: no end: to the end of the file
    "tail\n"                         # 15
)


@pytest.mark.parametrize(("name", "lines"), [
    ("intro", ((3, 3), (5, 5), (7, 8))),
    ("open", ((15, 15),)),
    ("missing", None),  # not found: the extension shows nothing (or fails): whole
])
def test_snippet_sections(tmp_path: Path, name: str, lines: object) -> None:
    part = write(tmp_path / "snippets" / "sections.py", SECTIONS)
    assert shown_by(tmp_path, f"--8<-- 'sections.py:{name}'\n", snippets_at(tmp_path)) == {str(part): lines}


def test_snippet_end_before_start_or_other_case_shows_nothing(tmp_path: Path) -> None:
    part = write(tmp_path / "snippets" / "s.md", "a\n--8<-- [end:x]\nb\n--8<-- [start:x]\nc\n--8<-- [end:x]\n")
    upper = write(tmp_path / "snippets" / "u.md", "a\n--8<-- [START:x]\nb\n--8<-- [end:x]\nc\n")
    rules = snippets_at(tmp_path)
    assert shown_by(tmp_path, '--8<-- "s.md:x"\n--8<-- "u.md:x"\n', rules) == {str(part): None, str(upper): None}


def test_snippet_parts_merge_and_whole_wins(tmp_path: Path) -> None:
    part = write(tmp_path / "snippets" / "part.txt", TEN)
    other = write(tmp_path / "snippets" / "other.txt", TEN)
    rules = snippets_at(tmp_path)
    page = '--8<-- "part.txt:2:3"\n--8<-- "part.txt:4:5"\n--8<-- "part.txt:8:8"\n--8<-- "other.txt:1:2"\n'
    assert shown_by(tmp_path, page, rules) == {str(part): ((2, 5), (8, 8)), str(other): ((1, 2),)}
    page += '--8<-- "other.txt"\n'  # other.txt whole too: whole wins, either order
    assert shown_by(tmp_path, page, rules)[str(other)] is None
    assert shown_by(tmp_path, '--8<-- "other.txt"\n--8<-- "other.txt:1:2"\n', rules) == {str(other): None}


def test_snippet_blocks_escapes_and_what_is_not_a_snippet(tmp_path: Path) -> None:
    part = write(tmp_path / "snippets" / "part.txt", TEN)
    skipped = write(tmp_path / "snippets" / "skipped.txt", TEN)
    rules = snippets_at(tmp_path)
    page = (
        "--8<--\n"
        "part.txt:2:3\n"
        "; skipped.txt\n"                 # commented out in a block
        '--8<-- "skipped.txt"\n'          # inline inside a block: ignored
        "--8<--\n"
        ';--8<-- "skipped.txt"\n'         # escaped
        '--8<-- "skipped.txt"  \n'        # a space after the quote: no snippet
        '-8<- "part.txt:5"\n'             # any run of dashes is a marker
    )
    assert shown_by(tmp_path, page, rules) == {str(part): ((2, 3), (5, 10))}
    assert str(skipped) not in shown_by(tmp_path, page, rules)
    # Without the extension the lines mean nothing; nested files are not followed.
    assert shown_by(tmp_path, page, WrittenRules()) == {}


def test_snippet_nested_files_and_the_page_itself_are_not_listed(tmp_path: Path) -> None:
    a = write(tmp_path / "snippets" / "a.md", '--8<-- "b.md"\n')
    write(tmp_path / "snippets" / "b.md", "b\n")
    rules = WrittenRules(snippet_bases=(tmp_path / "snippets", tmp_path / "docs"))
    page = write(tmp_path / "docs" / "page.md", '--8<-- "a.md"\n--8<-- "page.md:1:1"\n')
    assert shown_lines(page.read_text(), str(page), rules) == {str(a): None}


def test_multiple_ranges_are_split_as_the_extension_splits_them(tmp_path: Path) -> None:
    """``name:1:3,5:6``: the path is before the first ':' that starts a valid suffix."""
    part = write(tmp_path / "snippets" / "part.txt", TEN)
    rules = snippets_at(tmp_path)
    page = write(tmp_path / "docs" / "page.md", '--8<-- "part.txt:1:3,5:6"\n')
    assert written_dependencies(page, rules) == [part]
    assert shown_by(tmp_path, page.read_text(), rules) == {str(part): ((1, 3), (5, 6))}


MARKED = (
    "intro\n"                # 1
    "<!--s-->\n"             # 2: the marker ends its line: only its line ending is kept
    "first\n"                # 3
    "\n"                     # 4: an empty line, kept whole
    "<!--e-->\n"             # 5
    "between\n"              # 6
    "<!--s--> same line\n"   # 7: text after the marker is shown
    "second\n"               # 8
    "<!--e--> after\n"       # 9
    "outro\n"                # 10
)


@pytest.mark.parametrize(("options", "lines"), [
    ('start="<!--s-->" end="<!--e-->"', ((3, 4), (7, 8))),  # every start..end, markers out
    ("start='<!--s-->'", ((3, 10),)),  # after the first start, to the end
    ('end="<!--e-->"', ((1, 4),)),  # before the first end
    ('start="<!--nowhere-->"', None),  # shows nothing: whole
    ('end="<!--nowhere-->"', None),  # shows everything
    ('start="<!--s-->\\nfirst"', ((4, 10),)),  # Python escapes in delimiters
    ('start="<!--e--> " end="\\n"', ((9, 9),)),
    ('xstart="<!--s-->"', None),  # not the start option
    ('start=<!--s-->', None),  # unquoted: the plugin stops the build
    ("", None),
])
def test_include_markdown_start_and_end(tmp_path: Path, options: str, lines: object) -> None:
    part = write(tmp_path / "docs" / "part.md", MARKED)
    rules = WrittenRules(include_markdown=True)
    for tag in ("include-markdown", "include"):
        page = f'{{% {tag} "part.md" {options} %}}\n'
        assert shown_by(tmp_path, page, rules) == {str(part): lines}, tag


def test_include_markdown_globs_each_file_its_part(tmp_path: Path) -> None:
    one = write(tmp_path / "docs" / "parts" / "one.md", MARKED)
    two = write(tmp_path / "docs" / "parts" / "two.md", "a\n<!--s-->\nb\n<!--e-->\n")
    none = write(tmp_path / "docs" / "parts" / "none.md", "no markers\nat all\n")
    write(tmp_path / "docs" / "parts" / "skipped.txt", MARKED)
    rules = WrittenRules(include_markdown=True)
    page = '{% include-markdown "parts/*.md" start="<!--s-->" end="<!--e-->" %}\n'
    assert shown_by(tmp_path, page, rules) == {
        str(one): ((3, 4), (7, 8)), str(two): ((3, 3),), str(none): None,
    }
    # Whole and part of one file on the page: whole; ./ is the page's folder.
    page += '{% include "./parts/two.md" %}\n{% include-markdown "https://example.com/x.md" %}\n'
    assert shown_by(tmp_path, page, rules)[str(two)] is None


def test_include_markdown_path_from_a_page_in_a_subfolder(tmp_path: Path) -> None:
    """A path neither ./ nor ../ is docs_dir's: tried from the page's folder upwards."""
    part = write(tmp_path / "docs" / "includes" / "part.md", MARKED)
    page = '{% include-markdown "includes/part.md" end="<!--e-->" %}\n'
    found = shown_lines(page, str(tmp_path / "docs" / "guide" / "deep" / "page.md"),
                        WrittenRules(include_markdown=True))
    assert found == {str(part): ((1, 4),)}


def test_snippets_and_include_markdown_together(tmp_path: Path) -> None:
    part = write(tmp_path / "docs" / "part.md", MARKED)
    rules = WrittenRules(snippet_bases=(tmp_path / "docs",), include_markdown=True)
    page = '--8<-- "part.md:10:10"\n{% include "part.md" end="<!--e-->" %}\n'
    assert shown_by(tmp_path, page, rules) == {str(part): ((1, 4), (10, 10))}


def test_a_file_with_lone_carriage_returns_is_whole(tmp_path: Path) -> None:
    """Both tools read in text mode, where a lone CR ends a line and git's lines differ."""
    part = tmp_path / "snippets" / "cr.txt"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"a\rb\nc\nd\n")
    crlf = tmp_path / "snippets" / "crlf.txt"
    crlf.write_bytes(b"a\r\nb\r\nc\r\nd\r\n")
    page = '--8<-- "cr.txt:2:2"\n--8<-- "crlf.txt:2:3"\n'
    assert shown_by(tmp_path, page, snippets_at(tmp_path)) == {str(part): None, str(crlf): ((2, 3),)}


@given(st.text(alphabet=" =\"'\\ab\n\t-", max_size=16))
def test_argument_names_are_the_plugins(arguments: str) -> None:
    from mkdocs_include_markdown_plugin.directive import _maybe_arguments_iter

    assert _argument_names(arguments) == set(_maybe_arguments_iter(arguments))


@given(st.text(alphabet="SEx\n", max_size=14), st.sampled_from([None, "S", "SE", "S\n"]),
       st.sampled_from([None, "E", "EE", "\nE"]))
def test_kept_spans_are_what_the_plugin_keeps(text: str, start: str | None, end: str | None) -> None:
    from mkdocs_include_markdown_plugin.process import filter_inclusions

    spans = _kept(text, start, end)
    if start or end:
        assert spans is not None
        assert "".join(text[a:b] for a, b in spans) == filter_inclusions(start, end, text)[0]


def test_a_real_mkdocs_build_shows_exactly_those_lines(tmp_path: Path) -> None:
    """pymdownx.snippets and mkdocs-include-markdown-plugin render the page; each line of
    the included files has its own word, in the HTML exactly when shown_lines says."""
    project = tmp_path / "project"
    files = {
        "snippets/part.md": "".join(f"partword{n}\n" for n in range(1, 6)),
        "snippets/sec.md": "secword1\n<!-- --8<-- [start:body] -->\nsecword3\nsecword4\n"
                           "<!-- --8<-- [end:body] -->\nsecword6\n",
        "docs/marked.md": "markword1\n<!--s-->\nmarkword3\n<!--e-->\nmarkword5\n<!--s-->\n"
                          "markword7\n<!--e-->\nmarkword9\n",
    }
    paths = {name: write(project / name, text) for name, text in files.items()}
    page_text = ('# Page\n\n--8<-- "part.md:2:3"\n\n--8<-- "sec.md:body"\n\n'
                 '{% include-markdown "marked.md" start="<!--s-->" end="<!--e-->" %}\n')
    page = write(project / "docs" / "index.md", page_text)
    (project / "mkdocs.yml").write_text(
        "site_name: T\nplugins:\n  - include-markdown\n"
        "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: [snippets]\n",
        encoding="utf-8",
    )
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=project,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    html = (project / "site" / "index.html").read_text(encoding="utf-8")
    rules = rules_for({"pymdownx.snippets": {"base_path": ["snippets"]}}, ["pymdownx.snippets"],
                      frozenset({"include-markdown"}), project, reach=Reach([tmp_path]))
    shown = shown_lines(page_text, str(page), rules)
    assert shown == {
        str(paths["snippets/part.md"]): ((2, 3),),
        str(paths["snippets/sec.md"]): ((3, 4),),
        str(paths["docs/marked.md"]): ((3, 3), (7, 7)),
    }
    for name, path in paths.items():
        lines = shown[str(path)]
        assert lines is not None
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            words = re.findall(r"[a-z]+word\d+", line)
            in_html = {word: re.search(rf"\b{word}\b", html) is not None for word in words}
            expected = any(a <= n <= b for a, b in lines)
            assert in_html == dict.fromkeys(words, expected), (name, n, line)


# mdx_include, markdown-include-variants and mkdocs-macros templates (issue 40).

MDX = ["mdx_include"]


def mdx_site(tmp_path: Path, **options: object) -> WrittenRules:
    return rules_for({"mdx_include": options}, MDX, frozenset(), tmp_path, reach=Reach([tmp_path]))


def test_mdx_include_paths_escapes_urls_and_encodings(tmp_path: Path) -> None:
    one = write(tmp_path / "src" / "one.py", "print(1)\n")
    two = write(tmp_path / "src" / "two words.py", "print(2)\n")
    latin = tmp_path / "src" / "latin.txt"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    write(tmp_path / "src" / "escaped.py", "never\n")
    page = write(tmp_path / "docs" / "page.md",
                 "A {! src/one.py !} and {!src/two words.py!}\n"
                 "\\{! src/escaped.py !}\n{! src/latin.txt | latin-1 !}\n"
                 "{! https://example.com/x.py !}\n{! src/missing.py !}\n{* src/one.py *}\n")
    assert sorted(written_dependencies(page, mdx_site(tmp_path))) == sorted([one, two, latin])
    # base_path is relative to the config's folder; the extension must be configured.
    write(tmp_path / "docs" / "src" / "one.py", "print('docs')\n")
    assert written_dependencies(page, mdx_site(tmp_path, base_path="docs")) == [
        tmp_path / "docs" / "src" / "one.py"]
    assert written_dependencies(page, rules_for({}, [], frozenset(), tmp_path, reach=Reach([tmp_path]))) == []
    assert written_dependencies(page, mdx_site(tmp_path, allow_local=False)) == []


@pytest.mark.parametrize(("options", "marks", "nested"), [
    ({}, ["", "+"], True),  # recurs_local: true by default
    ({}, ["-"], False),
    ({"recurs_local": None}, ["+"], True),  # null: only where '+' asks
    ({"recurs_local": None}, ["", "-"], False),
    ({"recurs_local": False}, ["", "+"], False),  # false: never
])
def test_mdx_include_recursion(tmp_path: Path, options: dict[str, object], marks: list[str],
                               nested: bool) -> None:
    inner = write(tmp_path / "inner.md", "inner\n")
    outer = write(tmp_path / "outer.md", "{! inner.md !}\n")
    for mark in marks:
        page = write(tmp_path / "docs" / "page.md", f"{{!{mark} outer.md !}}\n")
        found = written_dependencies(page, mdx_site(tmp_path, **options))
        assert sorted(found) == sorted([outer, inner] if nested else [outer]), mark


def test_mdx_include_recursive_relative_path(tmp_path: Path) -> None:
    outer = write(tmp_path / "parts" / "outer.md", "{! inner.md !}\n")
    beside = write(tmp_path / "parts" / "inner.md", "beside\n")
    top = write(tmp_path / "inner.md", "top\n")
    page = write(tmp_path / "docs" / "page.md", "{! parts/outer.md !}\n")
    assert sorted(written_dependencies(page, mdx_site(tmp_path))) == sorted([outer, top])
    relative = mdx_site(tmp_path, recursive_relative_path=True)
    assert sorted(written_dependencies(page, relative)) == sorted([outer, beside])


def test_mdx_include_line_slices(tmp_path: Path) -> None:
    example = write(tmp_path / "src" / "example.py", TEN)
    other = write(tmp_path / "src" / "other.py", TEN)
    page = ("{! src/example.py [ln:1-3] !}\n{! src/example.py [ln:8,9.2-9.4] !}\n"
            "{! src/other.py [ln:3-] !}\n")
    shown = shown_lines(page, str(tmp_path / "docs" / "page.md"), mdx_site(tmp_path))
    assert shown == {str(example): ((1, 3), (8, 9)), str(other): ((3, 10),)}
    whole = shown_lines(page + "{! src/other.py !}\n", str(tmp_path / "docs" / "page.md"),
                        mdx_site(tmp_path))
    assert whole[str(other)] is None


@given(st.text(alphabet="0123-,", max_size=8), st.integers(min_value=0, max_value=6),
       st.booleans())
def test_mdx_include_rows_are_rcslice_rows(spec: str, count: int, final_newline: bool) -> None:
    """The rows ``[ln:spec]`` shows, as rcslice slices mdx_include's lines (which are
    the file's plus one empty line where it ends with a line break)."""
    import tempfile

    from rcslice import RowSlice

    from mkdocs_sitemap_pro.core.page.included_lines import sliced_lines

    rows = [f"row{n}" for n in range(1, count + 1)]
    text = "\n".join(rows) + ("\n" if final_newline and rows else "")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.py"
        path.write_text(text, encoding="utf-8")
        got = sliced_lines(path, spec, "utf-8")
    try:
        sliced = RowSlice([]).slice("".join([text, "\n"]).splitlines(), spec)
    except ValueError:
        assert got is None
        return
    picked = {int(row[3:]) for row in sliced if row}
    expected = picked if picked and len(picked) < count else None
    assert got == expected


def test_mdx_include_rows_with_columns_and_odd_line_breaks(tmp_path: Path) -> None:
    from mkdocs_sitemap_pro.core.page.included_lines import sliced_lines

    path = write(tmp_path / "f.py", TEN)
    assert sliced_lines(path, "2.3-4.1", "utf-8") == {2, 3, 4}  # cut rows are shown
    assert sliced_lines(path, ".2-.3", "utf-8") is None  # every row, cut
    assert sliced_lines(path, "1.2.3", "utf-8") is None  # the build fails
    odd = tmp_path / "odd.py"
    odd.write_bytes(b"a\x0cb\nc\nd\n")  # a form feed breaks mdx_include's lines, not git's
    assert sliced_lines(odd, "1", "utf-8") is None


def test_variants_every_sibling_whole(tmp_path: Path) -> None:
    names = ["app.py", "app_an.py", "app_py310.py", "app_an_py310.py", "apple.py"]
    paths = {name: write(tmp_path / "src" / name, "x = 1\n") for name in names}
    page = "{* src/app_py310.py ln[1:1] hl[1] *}\n  {* src/apple.py *}\n"
    rules = rules_for({}, [*MDX, "markdown_include_variants"], frozenset(), tmp_path, reach=Reach([tmp_path]))
    shown = shown_lines(page, str(tmp_path / "docs" / "page.md"), rules)
    assert shown == {str(paths[n]): None for n in names[:4]}  # an indented line is text
    # Without mdx_include the {!path!} lines it writes stay text: nothing is shown.
    alone = rules_for({}, ["markdown_include_variants"], frozenset(), tmp_path, reach=Reach([tmp_path]))
    assert shown_lines(page, str(tmp_path / "docs" / "page.md"), alone) == {}


@pytest.mark.parametrize(("files", "given"), [
    (["app.py", "app_an.py", "app_py39.py", "app_an_py311.py"], "app.py"),
    (["app_an.py"], "app_an.py"),
    (["app.py"], "app.py"),
    (["tut/main.py", "tut_an/main.py", "tut_py310/main.py"], "tut/main.py"),
    (["tut.py", "tut_an/main.py"], "tut_an/main.py"),  # folders only when the file has none
    (["app.py", "app_an/x.py"], "app_an.py"),  # the given file is no variant: the build fails
    (["notes.txt"], "notes.txt"),
])
def test_variants_are_the_extensions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     files: list[str], given: str) -> None:
    """The files markdown-include-variants itself renders, each through ``{!path!}``."""
    from markdown_include_variants import IncludeVariantsPreprocessor

    for name in files:
        write(tmp_path / name, "x = 1\n")
    monkeypatch.chdir(tmp_path)
    try:
        lines = IncludeVariantsPreprocessor(None).run([f"{{* {given} *}}"])
    except (AssertionError, FileNotFoundError):
        lines = []
    expected = {str(tmp_path / m) for line in lines for m in re.findall(r"^\{!([^\[!]+)!\}$", line)}
    rules = rules_for({}, [*MDX, "markdown_include_variants"], frozenset(), tmp_path, reach=Reach([tmp_path]))
    assert set(shown_lines(f"{{* {given} *}}\n", str(tmp_path / "page.md"), rules)) == expected


def test_macros_templates_from_include_dir(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    parts = {name: write(tmp_path / "includes" / name, "x\n")
             for name in ("a.md", "b.md", "c.html", "d.html", "e.md")}
    write(parts["a.md"], "{% include 'e.md' %}\n")  # nested, from include_dir too
    page = write(docs / "page.md",
                 "{% include 'a.md' %}\n{%- import \"c.html\" as c -%}\n"
                 "{% from 'd.html' import x %}\n{% include ['missing.md', 'b.md'] %}\n"
                 "{% include '../docs/page.md' %}\n")
    rules = rules_for({}, [], frozenset({"macros"}), tmp_path,
                      {"macros": {"include_dir": "includes"}}, docs, reach=Reach([tmp_path]))
    assert sorted(written_dependencies(page, rules)) == sorted(parts.values())
    # Zensical's own extension, configured under markdown_extensions; docs_dir by default.
    write(docs / "a.md", "in docs\n")
    zensical = rules_for({"zensical.extensions.macros": None}, ["zensical.extensions.macros"],
                         frozenset(), tmp_path, {}, docs, reach=Reach([tmp_path]))
    assert written_dependencies(page, zensical) == [docs / "a.md"]
    off = rules_for({}, [], frozenset({"macros"}), tmp_path, {"macros": {"enabled": False}}, docs, reach=Reach([tmp_path]))
    assert written_dependencies(page, off) == []


def test_an_include_tag_either_tool_resolves_counts(tmp_path: Path) -> None:
    beside = write(tmp_path / "docs" / "part.md", "beside the page\n")
    template = write(tmp_path / "includes" / "part.md", "a template\n")
    page = write(tmp_path / "docs" / "page.md", '{% include "part.md" %}\n')
    rules = rules_for({}, [], frozenset({"macros", "include-markdown"}), tmp_path,
                      {"macros": {"include_dir": "includes"}}, tmp_path / "docs", reach=Reach([tmp_path]))
    assert sorted(written_dependencies(page, rules)) == sorted([beside, template])


def test_a_real_mdx_include_conversion_shows_exactly_those_lines(tmp_path: Path) -> None:
    """Python-Markdown with mdx_include renders the page; each line of the included
    files has its own word, in the HTML exactly when shown_lines says."""
    files = {
        "src/a.py": "".join(f"aword{n}\n" for n in range(1, 8)),
        "src/b.py": "".join(f"bword{n}\n" for n in range(1, 6)),
    }
    paths = {name: write(tmp_path / name, text) for name, text in files.items()}
    page_text = ("{! src/a.py [ln:2-3,6] !}\n\n{! src/b.py [ln:4-2] !}\n\n"
                 "{!src/b.py[ln:5]!}\n")
    page = write(tmp_path / "docs" / "page.md", page_text)
    result = subprocess.run([sys.executable, "-m", "markdown", "-x", "mdx_include", str(page)],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    shown = shown_lines(page_text, str(page), mdx_site(tmp_path))
    assert shown == {str(paths["src/a.py"]): ((2, 3), (6, 6)), str(paths["src/b.py"]): ((2, 5),)}
    for name, path in paths.items():
        lines = shown[str(path)]
        assert lines is not None
        for n in range(1, len(files[name].splitlines()) + 1):
            word = f"{name[4]}word{n}"
            expected = any(a <= n <= b for a, b in lines)
            assert (re.search(rf"\b{word}\b", result.stdout) is not None) == expected, word
