"""The files a text includes through mdx_include, markdown-include-variants and
mkdocs-macros templates, read as mdx_include 1.4, markdown-include-variants 0.0.8 and
mkdocs-macros 1.5 (or Zensical's macros extension) read them.

- **mdx_include**: ``{! path !}`` anywhere in a line, with an optional ``[ln:spec]``
  after the path (rcslice row slices: ``included_lines.sliced_lines``), an optional
  ``| encoding`` before the closing ``!}``, ``{!+`` / ``{!-`` to turn recursion on or off
  and ``{!>`` to indent; ``\\{!`` is escaped. The path holds no ``[``, ``]`` or ``|``;
  ``~`` is expanded; a relative one is joined to ``base_path`` (the builder's working
  folder, taken as the config's folder), or with ``recursive_relative_path`` in an
  included file to that file's folder. What a file included recursively (``recurs_local``
  true: unless ``-``; null: only with ``+``; false: never) includes counts too. The
  ``syntax_*`` options replace the delimiters. URLs are not followed.
- **markdown-include-variants**: a line that is only ``{* path ... *}`` renders, through
  ``{!path!}`` lines for mdx_include (needed), the file and each sibling variant
  (``name_an``, ``_py39``, ``_py310``, ``_py311`` and their combinations, as files, or as
  folders when the file has none), every one whole: even with ``ln[...]`` the "Full file
  preview" shows the whole file. The path is relative to the builder's working folder.
- **mkdocs-macros**: ``{% include 'x' %}``, ``{% import 'x' as y %}``,
  ``{% from 'x' import y %}`` and ``{% extends 'x' %}`` (a list: its first existing name)
  name files under ``include_dir`` (default docs_dir), whole; ``..`` is refused as Jinja
  refuses it. Templates are read for their own tags in turn. Branches are not evaluated.
"""

import codecs
import os
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlparse

from mkdocs_sitemap_pro.core.page.included_lines import Picked, sliced_lines

__all__ = ["MdxRules", "TemplateRules", "mdx_inclusions", "mdx_rules", "template_inclusions",
           "variant_inclusions"]

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
