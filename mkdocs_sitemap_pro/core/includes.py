"""The files a page's source says it includes, read from the text alone.

``mkdocs-sitemap-pro build`` observes no rendering, so a page's dependencies are only
those written in its Markdown: pymdownx.snippets lines (``--8<-- "file.md"``, with
``:lines`` or ``:section`` suffixes, and ``--8<--`` blocks of one path per line) and
mkdocs-include-markdown-plugin directives (``{% include-markdown "file.md" %}``,
``{% include "file" %}``, globs allowed). Included files are read in turn, since both
tools include recursively. Files that a hook or a macro reads, ``auto_append`` and URLs
are not seen. Small interface, so the plugin's own dependency tracking can share it:
``written_dependencies(source, rules) -> [absolute paths]``.
"""

import glob
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

__all__ = ["WrittenRules", "rules_for", "written_dependencies"]

_SNIPPET_LINE = re.compile(r"""^[ \t]*(;*)--8<--[ \t]+(["'])(.+?)\2[ \t]*$""", re.MULTILINE)
_SNIPPET_FENCE = re.compile(r"^[ \t]*(;*)--8<--[ \t]*$")
_INCLUDE = re.compile(r"""\{%-?\s*include(?:-markdown)?\s+(["'])(.+?)\1""")
_MAX_FILES = 10_000  # a guard against include cycles through globs


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
        for path in _includes(text, current, rules):
            if path != source and path not in found:
                found[path] = None
                pending.append(path)
    return list(found)


def _includes(text: str, current: Path, rules: WrittenRules) -> list[Path]:
    """The files one text includes directly."""
    paths: list[Path] = []
    if rules.snippet_bases:
        for name in _snippet_names(text):
            path = _snippet_path(name, rules.snippet_bases)
            if path is not None:
                paths.append(path)
    if rules.include_markdown:
        for match in _INCLUDE.finditer(text):
            pattern = os.path.join(current.parent, match.group(2))
            paths.extend(Path(os.path.normpath(p)) for p in sorted(glob.glob(pattern)) if os.path.isfile(p))
    return paths


def _snippet_names(text: str) -> list[str]:
    """The names in snippet lines and blocks; escaped ones (``;--8<--``) are skipped."""
    names = [m.group(3) for m in _SNIPPET_LINE.finditer(text) if not m.group(1)]
    inside = False
    for line in text.splitlines():
        fence = _SNIPPET_FENCE.match(line)
        if fence:
            inside = not inside and not fence.group(1)
        elif inside and line.strip() and not line.strip().startswith(";"):
            names.append(line.strip())
    return names


def _snippet_path(name: str, bases: tuple[Path, ...]) -> Path | None:
    """The file a snippet name means, trying ``:start:end`` / ``:section`` suffixes off."""
    if "://" in name:
        return None  # a URL snippet: nothing in the repository
    candidates = [name]
    for _ in range(2):
        head, sep, _tail = candidates[-1].rpartition(":")
        if not sep or not head:
            break
        candidates.append(head)
    for candidate in candidates:
        for base in bases:
            path = Path(os.path.normpath(base / candidate))
            if path.is_file():
                return path
    return None
