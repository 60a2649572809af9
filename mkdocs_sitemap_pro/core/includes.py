"""The files a page's source says it includes, and the lines of them it shows, read
from the text alone.

``mkdocs-sitemap-pro build`` observes no rendering, so a page's dependencies are only
those written in its Markdown: pymdownx.snippets lines (``--8<-- "file.md"``, with
``:lines`` or ``:section`` suffixes, and ``--8<--`` blocks of one path per line) and
mkdocs-include-markdown-plugin directives (``{% include-markdown "file.md" %}``,
``{% include "file" %}``, globs and ``start=``/``end=`` allowed), read as pymdown-extensions
13.1 and the plugin 7.3 read them (their expressions are copied here). Included files are
read in turn, since both tools include recursively. Files that a hook or a macro reads,
``auto_append`` and URLs are not seen. Small interface, so the plugin's own dependency
tracking can share it: ``written_dependencies(source, rules) -> [absolute paths]``;
``shown_lines(text, source, rules) -> {absolute path: Lines, or None: shown whole}``.
"""

import bisect
import glob
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.shown import Lines, merge_lines

__all__ = ["WrittenRules", "rules_for", "shown_lines", "written_dependencies"]

# pymdownx.snippets' SnippetPreprocessor.RE_ALL_SNIPPETS, RE_SNIPPET_FILE, RE_SNIPPET_SECTION.
_SNIPPET = re.compile(
    r'''(?x)^(?P<space>[ \t]*)(?P<escape>;*)(?P<all>
        (?P<inline_marker>-{1,}8<-{1,}[ \t]+)
        (?P<snippet>(?:"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?'))(?![ \t]) |
        (?P<block_marker>-{1,}8<-{1,})(?![ \t])
    )\r?$''')
_SNIPPET_FILE = re.compile(
    r'(?i)(.*?)(?:((?::-?[0-9]*){1,2}(?:(?:,(?=[-0-9:])-?[0-9]*)(?::-?[0-9]*)?)*)|(:[a-z][-_0-9a-z]*))?$')
_SECTION = re.compile(
    r'''(?xi)^(?P<pre>.*?)(?<!;)(?!(?<=-)-)(?P<escape>;*)(?P<inline_marker>-{1,}8<-{1,}[ \t]+)
    (?P<section>\[[ \t]*(?P<type>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\])
    (?P<post>.*?)$''')
# mkdocs-include-markdown-plugin's INCLUDE_TAG_RE (its indent group left out) and str_arg.
_TAG = r'''\{{%\s*{0}\s+(?:"(?P<dq>([^"]|(?<=\\)")+)")?(?:'(?P<sq>([^']|(?<=\\)')+)')?(?P<arguments>.*?)\s*%\}}'''
_INCLUDE_MARKDOWN = re.compile(_TAG.format("include-markdown"), re.DOTALL)
_INCLUDE = re.compile(_TAG.format("include"), re.DOTALL)
_STRING_ARG = r'''{0}=(?:"(([^"]|(?<=\\)")+)")?(?:'(([^']|(?<=\\)')+)')?'''
_ARG_VALUE = re.compile(r'''=(?:"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|[^=]?)''', re.DOTALL)
_URL = re.compile(r"[A-Za-z0-9+.\-]{2,}:")  # the plugin's is_url
_MAX_FILES = 10_000  # a guard against include cycles through globs
_MAX_NAME = 4096  # a longer snippet name is no path (and RE_SNIPPET_FILE is quadratic)

_Shown = set[int] | None  # the line numbers of a file one inclusion shows; None: all


class WrittenRules(NamedTuple):
    """Which include syntaxes are active, and where pymdownx.snippets looks for files."""

    snippet_bases: tuple[Path, ...] = ()  # empty: pymdownx.snippets is not in use
    include_markdown: bool = False


def rules_for(
    mdx_configs: Mapping[str, object], extensions: Sequence[str], plugins: frozenset[str],
    project: Path,
) -> WrittenRules:
    """The rules of a site: ``base_path`` is relative to the folder of mkdocs.yml."""
    bases: tuple[Path, ...] = ()
    if "pymdownx.snippets" in extensions:
        settings = mdx_configs.get("pymdownx.snippets")
        base = settings.get("base_path", ".") if isinstance(settings, Mapping) else "."
        names = [base] if isinstance(base, str) else [str(b) for b in base or ["."]]
        bases = tuple(Path(os.path.normpath(project / name)) for name in names)
    includes = bool(plugins & {"include-markdown", "include_markdown"})
    return WrittenRules(snippet_bases=bases, include_markdown=includes)


def written_dependencies(source: Path, rules: WrittenRules) -> list[Path]:
    """Every existing file ``source`` includes, directly or through what it includes."""
    if not rules.snippet_bases and not rules.include_markdown:
        return []
    found: dict[Path, None] = {}
    pending = [source]
    while pending and len(found) < _MAX_FILES:
        current = pending.pop()
        try:
            text = current.read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            continue
        for path, _lines in _inclusions(text, current, rules):
            if path != source and path not in found:
                found[path] = None
                pending.append(path)
    return list(found)


def shown_lines(text: str, source: str, rules: WrittenRules) -> dict[str, Lines | None]:
    """The files the page text of ``source`` includes directly: absolute path -> the
    lines of it shown (as the file is now), or None when it is shown whole anywhere on
    the page (or what it shows cannot be told). Parts of one file are merged."""
    shown: dict[str, _Shown] = {}
    own = os.path.normpath(source)
    for path, lines in _inclusions(text, Path(own), rules, with_lines=True):
        name, before = str(path), shown.get(str(path), set())
        if name != own:  # the page's own source dates it whole anyway
            shown[name] = None if before is None or lines is None else before | lines
    return {name: None if lines is None else merge_lines((n, n) for n in lines)
            for name, lines in shown.items()}


def _inclusions(text: str, current: Path, rules: WrittenRules,
                with_lines: bool = False) -> Iterator[tuple[Path, _Shown]]:
    """The files one text includes directly, each with the lines shown if asked."""
    if rules.snippet_bases:
        for name in _snippet_names(text):
            found = _snippet_path(name, rules.snippet_bases)
            if found is not None:
                path, target = found
                yield path, _snippet_lines(path, target) if with_lines else None
    if rules.include_markdown:
        # The plugin replaces the include-markdown directives first, then the include ones.
        rest = _INCLUDE_MARKDOWN.sub("\0", text)
        for match in [*_INCLUDE_MARKDOWN.finditer(text), *_INCLUDE.finditer(rest)]:
            yield from _markdown_inclusion(match, current, with_lines)


def _snippet_names(text: str) -> list[str]:
    """The names in snippet lines and blocks, as ``parse_snippets`` reads them: escaped
    (``;--8<--``), commented (``; name``) and inline lines in a block are skipped."""
    names, block = [], False
    for line in text.split("\n"):
        match = _SNIPPET.match(line)
        if match:
            if match.group("escape") or (block and match.group("inline_marker")):
                continue
            if not match.group("inline_marker"):
                block = not block
                continue
            name = match.group("snippet")[1:-1].strip()
        elif block:
            name = line.strip()
        else:
            continue
        if name and not name.startswith(";"):
            names.append(name)
    return names


def _snippet_path(name: str, bases: tuple[Path, ...]) -> tuple[Path, re.Match[str]] | None:
    """The file a snippet name means (its ``:start:end`` or ``:section`` split off as the
    extension's ``split_path`` does), with the name split."""
    if "://" in name or len(name) > _MAX_NAME:
        return None  # a URL snippet: nothing in the repository
    target = _SNIPPET_FILE.match(name)
    if target is None or not (relative := target.group(1).strip()):
        return None
    for base in bases:
        alone = base.is_file()  # a base_path that is a file allows only itself
        path = Path(os.path.normpath((base.parent if alone else base) / relative))
        if path.is_file() and (not alone or path == base):
            return path, target
    return None


def _snippet_lines(path: Path, target: re.Match[str]) -> _Shown:
    """The lines ``file:10:20,30:`` or ``file:section`` shows, as ``extract_lines`` and
    ``extract_section`` pick them; None for no suffix, or when the section is missing."""
    text = _read(path)
    if text is None or not (target.group(2) or target.group(3)):
        return None
    lines = text.split("\n") if text else []
    total, picked = len(lines), set[int]()
    if target.group(2):
        for nums in target.group(2)[1:].split(","):
            span = nums.split(":")
            first = int(span[0]) if span[0] else None
            first = first if first is None or first < 0 else max(0, first - 1)
            last = int(span[1]) if len(span) > 1 and span[1] else None
            start = min(max(total + first, 0), total) if first and first < 0 else first
            end = min(max(total + 1 + last, 0), total) if last and last < 0 else last
            picked.update(range(*slice(start, end).indices(total)))
    else:
        section, inside, found = target.group(3)[1:], False, False
        for n, line in enumerate(lines):
            marker = _SECTION.match(line) if "8<-" in line else None
            if marker and not marker.group("escape"):
                if marker.group("name") == section:
                    if marker.group("type") != "start":  # [END:x], [START:x] too
                        break  # the end, or an end before any start
                    inside = found = True
                continue  # markers are not shown
            if inside:
                picked.add(n)
        if not found:
            return None
    return _part({n + 1 for n in picked}, text)


def _markdown_inclusion(match: re.Match[str], current: Path,
                        with_lines: bool) -> Iterator[tuple[Path, _Shown]]:
    """The files of one include(-markdown) directive, each with the lines it shows."""
    dq, sq = match.group("dq"), match.group("sq")
    name = dq.replace('\\"', '"') if dq is not None else sq.replace("\\'", "'") if sq else None
    if not name or _URL.match(name):
        return
    arguments = match.group("arguments")
    options: dict[str, str | None] = {"start": None, "end": None, "encoding": "utf-8"}
    for option in _argument_names(arguments) & options.keys():  # parse_string_argument
        value = re.search(_STRING_ARG.format(option), arguments)
        options[option] = value and (value[1].replace('\\"', '"') if value[1] is not None
                                     else value[3] and value[3].replace("\\'", "'"))
        with_lines = with_lines and options[option] is not None  # else the build stops
    start, end, encoding = options["start"], options["end"], options["encoding"] or ""
    for path in _markdown_paths(name, current):
        yield path, _marked_lines(path, start, end, encoding) if with_lines and (start or end) else None


def _argument_names(arguments: str) -> set[str]:
    """The names the plugin's ``_maybe_arguments_iter`` sees: before each ``=`` (outside
    a quoted value) what follows the last white space, a value's quotes kept, doubled."""
    names, prefix, at = set(), "", 0
    for value in _ARG_VALUE.finditer(arguments):
        names.add(re.split(r"[ \t\n\r\x0b\x0c]", prefix + arguments[at:value.start()])[-1])
        quote = value.group()[1:2]
        prefix, at = (quote * 2 if quote in ("'", '"') else ""), value.end()
    return names


def _markdown_paths(name: str, current: Path) -> list[Path]:
    """The files a directive's path or glob means, as the plugin resolves it: ``./`` and
    ``../`` from the including file's folder, an absolute one as is, any other from
    docs_dir (unknown here: the nearest folder above the file where it matches)."""
    if name.startswith("/"):
        roots: list[Path | None] = [None]
    elif name.startswith(("./", "../")):
        roots = [current.parent]
    else:
        roots = [current.parent, *current.parent.parents]
    for root in roots:
        literal = os.path.join(root, name) if root is not None else name
        if os.path.isfile(literal):
            return [Path(os.path.normpath(literal))]
        try:
            from wcmatch import glob as wcglob  # the plugin's glob, where the plugin is
            flags = wcglob.NEGATE | wcglob.EXTGLOB | wcglob.GLOBSTAR | wcglob.BRACE
            found = [os.path.join(root, p) if root is not None else p
                     for p in wcglob.glob(name, flags=flags, root_dir=root)]
        except ImportError:  # pragma: no cover - the plugin needs wcmatch
            found = glob.glob(literal, recursive=True)
        paths = sorted(Path(os.path.normpath(p)) for p in found if os.path.isfile(p))
        if paths:
            return paths
    return []


def _marked_lines(path: Path, start: str | None, end: str | None, encoding: str) -> _Shown:
    """The lines that hold what the plugin keeps of a file by ``start``/``end``."""
    text = _read(path, encoding)
    try:  # the plugin's interpret_escapes: Python's escapes (\\n) in a delimiter
        start, end = (None if v is None else v.encode("latin-1", "backslashreplace")
                      .decode("unicode_escape") for v in (start, end))
    except UnicodeDecodeError:
        return None  # the plugin fails on the directive
    spans = None if text is None else _kept(text, start, end)
    if text is None or spans is None:
        return None
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    picked = set()
    for a, b in spans:
        n = bisect.bisect_right(starts, a) - 1  # the line that holds a
        while n < len(starts) and starts[n] < b:
            s, e = starts[n], starts[n + 1] - 1 if n + 1 < len(starts) else len(text)
            if max(a, s) < min(b, e) or (s == e and a <= s):  # any of it, or a whole empty line
                picked.add(n + 1)
            n += 1
    return _part(picked, text)


def _kept(text: str, start: str | None, end: str | None) -> list[tuple[int, int]] | None:
    """The spans of ``text`` the plugin's ``filter_inclusions`` keeps: after the first
    ``start`` (start alone), before the first ``end`` (end alone), or after each ``start``
    the pieces between its ``end``s, every other one from the first."""
    if start is not None and end is None:
        at = text.find(start)
        return [] if at < 0 else [(at + len(start), len(text))]
    if end is not None and start is None:
        at = text.find(end)
        return [(0, len(text) if at < 0 else at)]
    if not start or not end:
        return None  # the plugin fails on an empty delimiter
    parts = _pieces(text, 0, len(text), start)
    return [piece for a, b in (parts[1:] or parts)
            for n, piece in enumerate(_pieces(text, a, b, end)) if not n % 2]


def _pieces(text: str, a: int, b: int, separator: str) -> list[tuple[int, int]]:
    """``text[a:b].split(separator)`` as spans of ``text``."""
    pieces = []
    while (at := text.find(separator, a, b)) >= 0:
        pieces.append((a, at))
        a = at + len(separator)
    return [*pieces, (a, b)]


def _part(picked: set[int], text: str) -> _Shown:
    """Lines picked of ``text``'s real lines (a final line ending starts none); None
    when that is none (the tools show nothing, or fail) or all of them."""
    count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    picked = {n for n in picked if 1 <= n <= count}
    return picked if picked and len(picked) < count else None


def _read(path: Path, encoding: str = "utf-8") -> str | None:
    """A file as both tools read it (text mode: universal newlines), or None when its
    lines would not be git's (a lone carriage return) or it cannot be read."""
    try:
        text = path.read_bytes().decode(encoding)
    except (OSError, LookupError, UnicodeDecodeError):
        return None
    text = text.replace("\r\n", "\n")
    return None if "\r" in text else text
