"""Which lines of a file one inclusion shows, as pymdownx.snippets 13.1 (line ranges,
sections), mkdocs-include-markdown-plugin 7.3 (``start``/``end``) and mdx_include 1.4
(``[ln:...]``, rcslice 1.1's row slices) pick them.

``core.page.includes`` finds the inclusions in a page's text; this module reads the included
file and says which of its lines (1-based, numbered as on disk) end up on the page, or
None when that is all of them, none, or cannot be told (the file is then dated whole).
"""

import bisect
import re
from pathlib import Path

__all__ = ["Picked", "marked_lines", "sliced_lines", "snippet_lines"]

Picked = set[int] | None  # the line numbers of a file one inclusion shows; None: whole

# pymdownx.snippets' SnippetPreprocessor.RE_SNIPPET_SECTION, compiled where it is used
# (``re`` keeps it): a site without snippets never pays for compiling it.
_SECTION = (
    r'''(?xi)^(?P<pre>.*?)(?<!;)(?!(?<=-)-)(?P<escape>;*)(?P<inline_marker>-{1,}8<-{1,}[ \t]+)
    (?P<section>\[[ \t]*(?P<type>start|end)[ \t]*:[ \t]*(?P<name>[a-z][-_0-9a-z]*)[ \t]*\])
    (?P<post>.*?)$''')


def snippet_lines(path: Path, lines_suffix: str | None, section_suffix: str | None) -> Picked:
    """The lines ``file:10:20,30:`` or ``file:section`` shows, as ``extract_lines`` and
    ``extract_section`` pick them; None for no suffix, or when the section is missing."""
    text = _read(path)
    if text is None or not (lines_suffix or section_suffix):
        return None
    lines = text.split("\n") if text else []
    picked = (_ranged(lines_suffix, len(lines)) if lines_suffix
              else _sectioned(lines, (section_suffix or ':')[1:]))
    if picked is None:
        return None
    return _part({n + 1 for n in picked}, text)


def _ranged(lines_suffix: str, total: int) -> set[int]:
    """The 0-based lines ``:10:20,30:`` picks of ``total``, as ``extract_lines`` slices
    them (negative numbers count from the end)."""
    picked = set[int]()
    for nums in lines_suffix[1:].split(","):
        span = nums.split(":")
        first = int(span[0]) if span[0] else None
        first = first if first is None or first < 0 else max(0, first - 1)
        last = int(span[1]) if len(span) > 1 and span[1] else None
        start = min(max(total + first, 0), total) if first and first < 0 else first
        end = min(max(total + 1 + last, 0), total) if last and last < 0 else last
        picked.update(range(*slice(start, end).indices(total)))
    return picked


def _sectioned(lines: list[str], section: str) -> set[int] | None:
    """The 0-based lines between the ``[start:section]`` and ``[end:section]`` markers,
    as ``extract_section`` keeps them; None when the section does not start."""
    picked, inside, found = set[int](), False, False
    marker_line = re.compile(_SECTION)
    for n, line in enumerate(lines):
        marker = marker_line.match(line) if "8<-" in line else None
        if marker and not marker.group("escape"):
            if marker.group("name") == section:
                if marker.group("type") != "start":  # [END:x], [START:x] too
                    break  # the end, or an end before any start
                inside = found = True
            continue  # markers are not shown
        if inside:
            picked.add(n)
    return picked if found else None


def marked_lines(path: Path, start: str | None, end: str | None, encoding: str) -> Picked:
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


def sliced_lines(path: Path, spec: str, encoding: str) -> Picked:
    """The rows mdx_include's ``[ln:spec]`` shows: ``spec`` is comma-separated parts,
    each ``r`` (one row), ``a-b`` (rows a to b; b before a runs backwards, both shown),
    ``a-``/``-b`` (to the last row; ``-b`` from the last row back to b), a row taking a
    ``.column`` that cuts the row but still shows it. A malformed part stops the build."""
    text = _read(path, encoding, strict=True)
    if text is None:
        return None
    total = len(text.split("\n"))  # mdx_include's rows: its read text plus one "\n", split
    rows = range(total)
    picked: set[int] = set()
    try:
        for part in filter(None, spec.split(",")):
            ends = [_row(end) for end in part.split("-")]
            if len(ends) > 2:
                return None
            first, last = ends[0], ends[-1]
            if len(ends) == 1:
                picked.update(rows[first - 1:first] if first else rows)
            elif last is None or (first is not None and first <= last):
                picked.update(rows[first - 1 if first else None:last])
            else:  # backwards: from first (or the last row) down to last
                picked.update(rows[first - 1 if first else None:last - 2 if last > 1 else None:-1])
    except ValueError:
        return None  # mdx_include fails on the page
    return _part({n + 1 for n in picked}, text) if picked else None


def _row(end: str) -> int | None:
    """The row of one end of a part (``r``, ``r.c``, ``.c`` or nothing: None)."""
    if not end:
        return None
    row, *column = end.split(".")
    if len(column) > 1 or any(n and int(n) <= 0 for n in (row, *column)):
        raise ValueError(end)
    return int(row) if row else None


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


def _part(picked: set[int], text: str) -> Picked:
    """Lines picked of ``text``'s real lines (a final line ending starts none); None
    when that is none (the tools show nothing, or fail) or all of them."""
    count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    picked = {n for n in picked if 1 <= n <= count}
    return picked if picked and len(picked) < count else None


def _read(path: Path, encoding: str = "utf-8", strict: bool = False) -> str | None:
    """A file as the tools read it (text mode: universal newlines), or None when its
    lines would not be git's (a lone carriage return; ``strict``: any other line break
    ``str.splitlines`` knows, as mdx_include splits by it) or it cannot be read."""
    try:
        text = path.read_bytes().decode(encoding)
    except (OSError, LookupError, UnicodeDecodeError):
        return None
    text = text.replace("\r\n", "\n")
    breaks = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029" if strict else "\r"
    return None if any(c in text for c in breaks) else text
