"""The files a page's source says it includes, and the lines of them it shows, read
from the text alone.

``mkdocs-sitemap-pro build`` observes no rendering, so a page's dependencies are only
those written in its Markdown: pymdownx.snippets lines (``--8<-- "file.md"``, with
``:lines`` or ``:section`` suffixes, and ``--8<--`` blocks of one path per line) and
mkdocs-include-markdown-plugin directives (``{% include-markdown "file.md" %}``,
``{% include "file" %}``, globs and ``start=``/``end=`` allowed), read as pymdown-extensions
13.1 and the plugin 7.3 read them (their expressions are copied here); mdx_include
(``{! file !}``, ``[ln:...]``), markdown-include-variants (``{* file *}``, every variant
whole) and mkdocs-macros' template tags, read by ``core.page.include_syntaxes`` (which says
their syntax). Where two tools spell a tag alike (``{% include "x" %}``), a file either
resolves counts. Included files are read in turn, since the tools include recursively
(mdx_include only where its recursion is on). Files that a hook or a macro reads,
``auto_append`` and URLs are not seen. A page's text is untrusted: an included file is
opened only inside the rules' ``reach`` (``build``: the repository; resolved, symlinks
followed, before it is opened), and a glob looks only through folders inside it. Small
interface, so the plugin's own dependency tracking can share it:
``written_dependencies(source, rules) -> [absolute paths]``;
``shown_lines(text, source, rules) -> {absolute path: Lines, or None: shown whole}``."""

import glob
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.page.include_syntaxes import (
    MdxRules,
    TemplateRules,
    mdx_inclusions,
    mdx_rules,
    template_inclusions,
    variant_inclusions,
)
from mkdocs_sitemap_pro.core.page.included_lines import Picked, marked_lines, snippet_lines
from mkdocs_sitemap_pro.core.page.reach import Reach
from mkdocs_sitemap_pro.core.page.shown import Lines, merge_lines

__all__ = ["WrittenRules", "rules_for", "shown_lines", "written_dependencies"]

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
