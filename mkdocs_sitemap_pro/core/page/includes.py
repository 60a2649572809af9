"""The files a page's source says it includes, and the lines of them it shows, read
from the text alone.

``mkdocs-sitemap-pro build`` observes no rendering, so a page's dependencies are only
those written in its Markdown: pymdownx.snippets lines (``--8<-- "file.md"``, with
``:lines`` or ``:section`` suffixes, and ``--8<--`` blocks of one path per line) and
mkdocs-include-markdown-plugin directives (``{% include-markdown "file.md" %}``,
``{% include "file" %}``, globs and ``start=``/``end=`` allowed), read as pymdown-extensions
13.1 and the plugin 7.3 read them (their expressions are copied here); mdx_include
(``{! file !}``, ``[ln:...]``), markdown-include-variants (``{* file *}``, every variant
whole) and mkdocs-macros' template tags, read by ``core.page.includes`` (which says
their syntax). Where two tools spell a tag alike (``{% include "x" %}``), a file either
resolves counts. Included files are read in turn, since the tools include recursively
(mdx_include only where its recursion is on). Files that a hook or a macro reads,
``auto_append`` and URLs are not seen. A page's text is untrusted: an included file is
opened only inside the rules' ``reach`` (``build``: the repository; resolved, symlinks
followed, before it is opened), and a glob looks only through folders inside it. Small
interface, so the plugin's own dependency tracking can share it:
``written_dependencies(source, rules) -> [absolute paths]``;
``shown_lines(text, source, rules) -> {absolute path: Lines, or None: shown whole}``.

Every syntax is here (mdx_include, markdown-include-variants, macros templates), and
``Reach``: the files a page's text may make the tool open.
"""

from __future__ import annotations

import codecs
import glob
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlparse

from mkdocs_sitemap_pro.core.page.included_lines import (
    Picked,
    marked_lines,
    sliced_lines,
    snippet_lines,
)
from mkdocs_sitemap_pro.core.page.shown import Lines, merge_lines

__all__ = [
    "WrittenRules", "rules_for", "shown_lines", "written_dependencies", "MdxRules",
    "TemplateRules", "mdx_inclusions", "mdx_rules", "template_inclusions", "variant_inclusions",
    "Reach",
]


class Reach:
    """Real folders whose files, and real files that, may be opened; nothing else."""

    def __init__(self, folders: Iterable[str | os.PathLike[str]] = (),
                 files: Iterable[str | os.PathLike[str]] = ()) -> None:
        self._real: dict[str, str | None] = {}  # a path -> its real path (None: none)
        self.folders = tuple(f for f in map(self._resolve, folders) if f is not None)
        self.files = frozenset(f for f in map(self._resolve, files) if f is not None)

    def allows(self, path: str | os.PathLike[str]) -> bool:
        """Whether the file at ``path`` (symlinks followed) lies inside the reach."""
        real = self._resolve(path)
        return real is not None and (real in self.files or any(
            real.startswith(folder.rstrip(os.sep) + os.sep) for folder in self.folders))

    def allows_folder(self, path: str | os.PathLike[str]) -> bool:
        """Whether a glob may look through the folder at ``path``: it is a root folder,
        lies inside one, or holds an allowed file."""
        real = self._resolve(path)
        if real is None:
            return False
        inner = real.rstrip(os.sep) + os.sep
        return any(real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)
                   for folder in self.folders) or any(f.startswith(inner) for f in self.files)

    def _resolve(self, path: str | os.PathLike[str]) -> str | None:
        """The real path of ``path`` made absolute (``..`` taken lexically, as the tools
        join names); None for what names no file (a NUL byte)."""
        text = os.fspath(path)
        if text not in self._real:
            try:
                self._real[text] = os.path.realpath(os.path.abspath(text))
            except (OSError, ValueError):
                self._real[text] = None
        return self._real[text]


# One inclusion found: the file, the lines of it shown (None: whole), and how
# mdx_include treats the text it brings (None: not at all; "": as the page's own text;
# a path: as included recursively by that file).
Inclusion = tuple[Path, Picked, str | None]

_VARIANT_LINE = r"^\{\*\s*(\S+)\s*.*\*\}$"
_SUFFIXES = ("_an", "_py39", "_py310", "_py311")
_VERSIONS = ("_py311", "_py310", "_py39", "")
_TEMPLATE_TAG = r'''{0}[-+]?\s*(?:include|import|from|extends)\s+("[^"]*"|'[^']*'|\[[^\]]*\])'''


class MdxRules(NamedTuple):
    """mdx_include's options that decide which files a text includes."""

    base: Path  # base_path, absolute
    encoding: str
    recursive: bool | None  # recurs_local
    relative: bool  # recursive_relative_path
    pattern: str  # the include expression, with the configured delimiters
    on: str  # the mark that turns recursion on (syntax_recurs_on)


class TemplateRules(NamedTuple):
    """Where mkdocs-macros' Jinja loader looks, and how its tags open."""

    folder: Path  # include_dir, absolute
    block_start: str = "{%"


def mdx_rules(settings: object, project: Path) -> MdxRules | None:
    """mdx_include's rules from its options (None when it may include no local file)."""
    options = settings if isinstance(settings, Mapping) else {}

    def text(key: str, default: str) -> str:
        value = options.get(key, default)
        return value if isinstance(value, str) else default

    if options.get("allow_local", True) is False:
        return None
    recursive = options.get("recurs_local", True)
    on, off = re.escape(text("syntax_recurs_on", "+")), re.escape(text("syntax_recurs_off", "-"))
    pattern = "".join([
        r"(?P<escape>\\)?", text("syntax_left", r"\{!"), f"(?P<mark>[{on}{off}])?",
        re.escape(text("syntax_apply_indent", ">")), r"?\s*(?P<path>[^\[\]|]+?)",
        r"(?:\s*\[ln:(?P<lines>[-\d.,]+)\])?\s*",
        "(?:", text("syntax_delim", r"\|"), r"\s*(?P<encoding>.+?)\s*)?", text("syntax_right", r"!\}"),
    ])
    return MdxRules(
        base=Path(os.path.normpath(project / text("base_path", "."))),
        encoding=text("encoding", "utf-8"),
        recursive=recursive if isinstance(recursive, bool) else None,
        relative=options.get("recursive_relative_path") is True,
        pattern=pattern,
        on=text("syntax_recurs_on", "+"),
    )


def mdx_inclusions(text: str, parent: str, rules: MdxRules, with_lines: bool,
                   may_open: Callable[[Path], bool]) -> Iterator[Inclusion]:
    """The local files ``{! path !}`` includes in ``text`` (of file ``parent``; "" for
    the page's own text), each with the rows its ``[ln:...]`` shows if asked; only
    files ``may_open`` allows (the others are never opened)."""
    expression = re.compile(rules.pattern)
    for line in text.split("\n"):
        for match in expression.finditer(line):
            if match.group("escape"):
                continue
            found = _mdx_path(match.group("path"), parent, rules)
            if found is None or not may_open(found):
                continue
            encoding = match.group("encoding")
            encoding = encoding if encoding and _known(encoding) else rules.encoding
            spec = match.group("lines")
            lines = sliced_lines(found, spec, encoding) if with_lines and spec else None
            yield found, lines, _nested(found, match.group("mark"), rules)


def variant_inclusions(text: str, project: Path, rules: MdxRules) -> Iterator[Inclusion]:
    """The files ``{* path *}`` lines render, every one whole, through mdx_include."""
    if "{*" not in text:
        return  # most pages: no line to look at
    for line in text.split("\n"):
        match = re.match(_VARIANT_LINE, line)
        if match is None:
            continue
        for variant in _variants(Path(match.group(1)), project):
            found = _mdx_path(str(variant), "", rules)
            if found is not None:
                yield found, None, _nested(found, None, rules)


def template_inclusions(text: str, rules: TemplateRules) -> Iterator[Inclusion]:
    """The template files Jinja tags in ``text`` name (whole, read as page text)."""
    for match in re.finditer(_TEMPLATE_TAG.format(re.escape(rules.block_start)), text):
        names = re.findall(r'"([^"]*)"|\'([^\']*)\'', match.group(1))
        for name in (a or b for a, b in names):
            parts = name.split("/")
            path = rules.folder.joinpath(*(p for p in parts if p and p != "."))
            if ".." not in parts and path.is_file():
                yield Path(os.path.normpath(path)), None, ""
                break  # a list: Jinja takes the first that exists


def _mdx_path(name: str, parent: str, rules: MdxRules) -> Path | None:
    """The existing local file one mdx_include path means, or None (a URL, missing)."""
    if urlparse(name).netloc:
        return None  # a URL: nothing in the repository
    name = os.path.expanduser(name)
    if not os.path.isabs(name):
        folder = os.path.dirname(parent) if rules.relative and parent else rules.base
        name = os.path.join(folder, name)
    path = Path(os.path.normpath(name))
    return path if path.is_file() else None


def _nested(path: Path, mark: str | None, rules: MdxRules) -> str | None:
    """How mdx_include reads what an included file includes: as included from it
    (``recurs_local`` and the ``+``/``-`` mark decide), or not at all."""
    if rules.recursive is False:
        return None
    if rules.recursive is None:
        return str(path) if mark and mark == rules.on else None
    return None if mark and mark != rules.on else str(path)


def _known(encoding: str) -> bool:
    """Whether Python knows an encoding by that name (else mdx_include uses its own)."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        return False
    return True


def _variants(given: Path, project: Path) -> list[Path]:
    """The variant files markdown-include-variants renders for ``given`` (relative to
    the working folder), the given one among them; none when it would fail."""
    def existing(paths: list[Path]) -> list[Path]:
        return [p for p in paths if (project / p).exists()]

    def stem(name: str) -> str:
        while any(name.endswith(s) for s in _SUFFIXES):
            name = name[: -len(next(s for s in _SUFFIXES if name.endswith(s)))]
        return name

    names = [f"{an}{version}" for an in ("_an", "") for version in _VERSIONS]
    base = stem(given.stem)
    files = existing([given.parent / f"{base}{suffix}.py" for suffix in names])
    if len(files) == 1:
        folder = stem(given.parent.name)
        folders = existing([given.parent.parent / f"{folder}{suffix}" / given.name
                            for suffix in names])
        plain_file = files[0] == given.parent / f"{base}.py"
        plain_folder = folders[:1] == [given.parent.parent / folder / given.name]
        if len(folders) > 1 or (len(folders) == 1 and plain_file and not plain_folder):
            files = folders
    return files if given in files else []

# The patterns are compiled where they are used (``re`` keeps them compiled), so a site
# that uses neither extension compiles none.
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
_GLOB_CHARS = "*?[]{}()!@+|\\"  # wcmatch's pattern characters (extglob, braces, negation)
_ZENSICAL_MACROS = "zensical.extensions.macros"  # Zensical's own macros, as an extension


class WrittenRules(NamedTuple):
    """Which include syntaxes are active, and where each looks for files."""

    snippet_bases: tuple[Path, ...] = ()  # empty: pymdownx.snippets is not in use
    include_markdown: bool = False
    mdx: MdxRules | None = None  # mdx_include
    variants: Path | None = None  # markdown-include-variants: the working folder
    templates: TemplateRules | None = None  # mkdocs-macros (plugin, or Zensical's)
    # The files a page's text may have opened; None: any (a caller that confines reads
    # itself, or a test). ``rules_for`` always sets one.
    reach: Reach | None = None

    @property
    def active(self) -> bool:
        """Whether any syntax is in use (else no page includes anything)."""
        return bool(self.snippet_bases or self.include_markdown or self.mdx or self.templates)

    @property
    def in_part(self) -> bool:
        """Whether a syntax in use can show part of a file."""
        return bool(self.snippet_bases or self.include_markdown or self.mdx)

    def may_open(self, path: str | os.PathLike[str]) -> bool:
        """Whether a file a page's text names may be opened (it lies inside the reach)."""
        return self.reach is None or self.reach.allows(path)

    def may_list(self, folder: str | os.PathLike[str]) -> bool:
        """Whether a glob may look through ``folder``."""
        return self.reach is None or self.reach.allows_folder(folder)


def rules_for(
    mdx_configs: Mapping[str, object], extensions: Sequence[str], plugins: frozenset[str],
    project: Path, plugin_options: Mapping[str, object] | None = None,
    docs_dir: Path | None = None, *, reach: Reach,
) -> WrittenRules:
    """The rules of a site: ``base_path``, the variants' paths and ``include_dir`` are
    relative to ``project``, the folder the builder runs in (absolute: MkDocs' working
    folder; for ``build``, the config's folder); ``plugin_options``
    (each plugin's options, as written) gives macros' ``include_dir`` (else docs_dir);
    only files inside ``reach`` are ever opened."""
    bases: tuple[Path, ...] = ()
    if "pymdownx.snippets" in extensions:
        settings = mdx_configs.get("pymdownx.snippets")
        base = settings.get("base_path", ".") if isinstance(settings, Mapping) else "."
        names = [base] if isinstance(base, str) else [str(b) for b in base or ["."]]
        bases = tuple(Path(os.path.normpath(project / name)) for name in names)
    includes = bool(plugins & {"include-markdown", "include_markdown"})
    mdx = mdx_rules(mdx_configs.get("mdx_include"), project) if "mdx_include" in extensions else None
    variants = project if mdx and "markdown_include_variants" in extensions else None
    return WrittenRules(snippet_bases=bases, include_markdown=includes, mdx=mdx,
                        variants=variants, templates=_templates(
                            mdx_configs, extensions, plugins, project, plugin_options, docs_dir),
                        reach=reach)


def _templates(mdx_configs: Mapping[str, object], extensions: Sequence[str],
               plugins: frozenset[str], project: Path,
               plugin_options: Mapping[str, object] | None, docs_dir: Path | None,
               ) -> TemplateRules | None:
    """mkdocs-macros' loader folder and tag opening, where the plugin (or Zensical's
    extension, configured in markdown_extensions) is in use and enabled."""
    if _ZENSICAL_MACROS in extensions:
        options = mdx_configs.get(_ZENSICAL_MACROS)
    elif "macros" in plugins:
        options = (plugin_options or {}).get("macros")
    else:
        return None
    settings = options if isinstance(options, Mapping) else {}
    if settings.get("enabled", True) is False:
        return None
    folder, start = settings.get("include_dir"), settings.get("j2_block_start_string")
    where = project / folder if isinstance(folder, str) and folder else docs_dir or project / "docs"
    return TemplateRules(Path(os.path.normpath(where)),
                         start if isinstance(start, str) and start else "{%")


def written_dependencies(source: Path, rules: WrittenRules) -> list[Path]:
    """Every existing file ``source`` includes, directly or through what it includes."""
    if not rules.active:
        return []
    found: dict[Path, None] = {}
    # Each file with how mdx_include reads it (see ``_inclusions``), read once each way.
    pending: list[tuple[Path, str | None]] = [(source, "")]
    seen = set(pending)
    while pending and len(seen) < _MAX_FILES:
        current, parent = pending.pop()
        try:
            text = current.read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            continue
        for path, _lines, nested in _inclusions(text, current, rules, parent):
            if path != source:
                found[path] = None
                if (path, nested) not in seen:
                    seen.add((path, nested))
                    pending.append((path, nested))
    return list(found)


def shown_lines(text: str, source: str, rules: WrittenRules) -> dict[str, Lines | None]:
    """The files the page text of ``source`` includes directly: absolute path -> the
    lines of it shown (as the file is now), or None when it is shown whole anywhere on
    the page (or what it shows cannot be told). Parts of one file are merged."""
    shown: dict[str, Picked] = {}
    own = os.path.normpath(source)
    for path, lines, _nested in _inclusions(text, Path(own), rules, "", with_lines=True):
        name, before = str(path), shown.get(str(path), set())
        if name != own:  # the page's own source dates it whole anyway
            shown[name] = None if before is None or lines is None else before | lines
    return {name: None if lines is None else merge_lines((n, n) for n in lines)
            for name, lines in shown.items()}


def _inclusions(text: str, current: Path, rules: WrittenRules, parent: str | None,
                with_lines: bool = False) -> Iterator[tuple[Path, Picked, str | None]]:
    """The files one text includes directly, each with the lines shown if asked, and
    how mdx_include reads what it includes in turn: ``parent`` is that for ``text``
    ("" as the page's own text, which goes through every tool; None: mdx_include has
    run already; a file's path: included recursively from it). A file outside the
    rules' reach is left out before it is opened."""
    if rules.mdx is not None and parent is not None:
        if rules.variants is not None and parent == "":  # variants' lines precede mdx_include
            yield from (found for found in variant_inclusions(text, rules.variants, rules.mdx)
                        if rules.may_open(found[0]))
        yield from mdx_inclusions(text, parent, rules.mdx, with_lines, rules.may_open)
    if rules.snippet_bases:  # after mdx_include (a lower priority): never read by it
        for name in _snippet_names(text):
            found = _snippet_path(name, rules.snippet_bases)
            if found is not None and rules.may_open(found[0]):
                path, target = found
                yield path, snippet_lines(path, target.group(2), target.group(3)) if with_lines else None, None
    if rules.include_markdown:
        # The plugin replaces the include-markdown directives first, then the include ones.
        include_markdown = re.compile(_INCLUDE_MARKDOWN)
        rest = include_markdown.sub("\0", text)
        for match in [*include_markdown.finditer(text), *re.finditer(_INCLUDE, rest)]:
            for path, lines in _markdown_inclusion(match, current, with_lines, rules):
                yield path, lines, ""  # before Markdown: the page's text
    if rules.templates is not None:
        yield from (found for found in template_inclusions(text, rules.templates)
                    if rules.may_open(found[0]))


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


def _markdown_inclusion(match: re.Match[str], current: Path, with_lines: bool,
                        rules: WrittenRules) -> Iterator[tuple[Path, Picked]]:
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
    for path in _markdown_paths(name, current, rules):
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


def _markdown_paths(name: str, current: Path, rules: WrittenRules) -> list[Path]:
    """The files a directive's path or glob means, as the plugin resolves it: ``./`` and
    ``../`` from the including file's folder, an absolute one as is, any other from
    docs_dir (unknown here: the nearest folder above the file where it matches). Only
    files inside the rules' reach; a glob looks only through folders inside it."""
    if name.startswith("/"):
        roots: list[Path | None] = [None]
    elif name.startswith(("./", "../")):
        roots = [current.parent]
    else:
        roots = [current.parent, *current.parent.parents]
    for root in roots:
        if root is not None and not rules.may_list(root):
            continue  # above the repository: nothing there may be opened
        literal = os.path.join(root, name) if root is not None else name
        if os.path.isfile(literal):
            return [Path(os.path.normpath(literal))] if rules.may_open(Path(literal)) else []
        folder = _glob_folder(name, root)
        if folder is None or not rules.may_list(folder):
            continue
        try:
            from wcmatch import glob as wcglob  # the plugin's glob, where the plugin is
            flags = wcglob.NEGATE | wcglob.EXTGLOB | wcglob.GLOBSTAR | wcglob.BRACE
            found = [os.path.join(root, p) if root is not None else p
                     for p in wcglob.glob(name, flags=flags, root_dir=root)]
        except ImportError:  # pragma: no cover - the plugin needs wcmatch
            found = glob.glob(literal, recursive=True)
        paths = sorted(Path(os.path.normpath(p)) for p in found
                       if os.path.isfile(p) and rules.may_open(Path(p)))
        if paths:
            return paths
    return []


def _glob_folder(name: str, root: Path | None) -> str | None:
    """The folder a glob starts looking in (its leading names without a pattern
    character, joined to ``root``), or None when a ``..`` follows a pattern (it could
    lead anywhere)."""
    parts = name.split("/")
    plain = next((n for n, part in enumerate(parts) if set(part) & set(_GLOB_CHARS)), len(parts))
    if ".." in parts[plain:]:
        return None
    folder = "/".join(parts[:plain]) or ("/" if name.startswith("/") else ".")
    return os.path.normpath(os.path.join(root, folder) if root is not None else folder)
