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

import glob
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.included_lines import Picked, marked_lines, snippet_lines
from mkdocs_sitemap_pro.core.shown import Lines, merge_lines

__all__ = ["WrittenRules", "rules_for", "shown_lines", "written_dependencies"]

# The patterns are compiled where they are used (``re`` keeps them compiled): a site
# that uses neither extension never pays for compiling them (12 M instructions).
# pymdownx.snippets' SnippetPreprocessor.RE_ALL_SNIPPETS and RE_SNIPPET_FILE.
_SNIPPET = (
    r'''(?x)^(?P<space>[ \t]*)(?P<escape>;*)(?P<all>
        (?P<inline_marker>-{1,}8<-{1,}[ \t]+)
        (?P<snippet>(?:"(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?'))(?![ \t]) |
        (?P<block_marker>-{1,}8<-{1,})(?![ \t])
    )\r?$''')
_SNIPPET_FILE = (
    r'(?i)(.*?)(?:((?::-?[0-9]*){1,2}(?:(?:,(?=[-0-9:])-?[0-9]*)(?::-?[0-9]*)?)*)|(:[a-z][-_0-9a-z]*))?$')
# mkdocs-include-markdown-plugin's INCLUDE_TAG_RE (its indent group left out) and str_arg.
_TAG = r'''\{{%\s*{0}\s+(?:"(?P<dq>([^"]|(?<=\\)")+)")?(?:'(?P<sq>([^']|(?<=\\)')+)')?(?P<arguments>.*?)\s*%\}}'''
_INCLUDE_MARKDOWN = "(?s)" + _TAG.format("include-markdown")
_INCLUDE = "(?s)" + _TAG.format("include")
_STRING_ARG = r'''{0}=(?:"(([^"]|(?<=\\)")+)")?(?:'(([^']|(?<=\\)')+)')?'''
_ARG_VALUE = r'''(?s)=(?:"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|[^=]?)'''
_URL = r"[A-Za-z0-9+.\-]{2,}:"  # the plugin's is_url
_MAX_FILES = 10_000  # a guard against include cycles through globs
_MAX_NAME = 4096  # a longer snippet name is no path (and RE_SNIPPET_FILE is quadratic)


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
    shown: dict[str, Picked] = {}
    own = os.path.normpath(source)
    for path, lines in _inclusions(text, Path(own), rules, with_lines=True):
        name, before = str(path), shown.get(str(path), set())
        if name != own:  # the page's own source dates it whole anyway
            shown[name] = None if before is None or lines is None else before | lines
    return {name: None if lines is None else merge_lines((n, n) for n in lines)
            for name, lines in shown.items()}


def _inclusions(text: str, current: Path, rules: WrittenRules,
                with_lines: bool = False) -> Iterator[tuple[Path, Picked]]:
    """The files one text includes directly, each with the lines shown if asked."""
    if rules.snippet_bases:
        for name in _snippet_names(text):
            found = _snippet_path(name, rules.snippet_bases)
            if found is not None:
                path, target = found
                yield path, snippet_lines(path, target.group(2), target.group(3)) if with_lines else None
    if rules.include_markdown:
        # The plugin replaces the include-markdown directives first, then the include ones.
        include_markdown = re.compile(_INCLUDE_MARKDOWN)
        rest = include_markdown.sub("\0", text)
        for match in [*include_markdown.finditer(text), *re.finditer(_INCLUDE, rest)]:
            yield from _markdown_inclusion(match, current, with_lines)


def _snippet_names(text: str) -> list[str]:
    """The names in snippet lines and blocks, as ``parse_snippets`` reads them: escaped
    (``;--8<--``), commented (``; name``) and inline lines in a block are skipped."""
    names, block = [], False
    snippet = re.compile(_SNIPPET)
    for line in text.split("\n"):
        match = snippet.match(line)
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
    target = re.match(_SNIPPET_FILE, name)
    if target is None or not (relative := target.group(1).strip()):
        return None
    for base in bases:
        alone = base.is_file()  # a base_path that is a file allows only itself
        path = Path(os.path.normpath((base.parent if alone else base) / relative))
        if path.is_file() and (not alone or path == base):
            return path, target
    return None


def _markdown_inclusion(match: re.Match[str], current: Path,
                        with_lines: bool) -> Iterator[tuple[Path, Picked]]:
    """The files of one include(-markdown) directive, each with the lines it shows."""
    dq, sq = match.group("dq"), match.group("sq")
    name = dq.replace('\\"', '"') if dq is not None else sq.replace("\\'", "'") if sq else None
    if not name or re.match(_URL, name):
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
        yield path, marked_lines(path, start, end, encoding) if with_lines and (start or end) else None


def _argument_names(arguments: str) -> set[str]:
    """The names the plugin's ``_maybe_arguments_iter`` sees: before each ``=`` (outside
    a quoted value) what follows the last white space, a value's quotes kept, doubled."""
    names, prefix, at = set(), "", 0
    for value in re.finditer(_ARG_VALUE, arguments):
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
