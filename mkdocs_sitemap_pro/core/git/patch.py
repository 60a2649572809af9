"""One commit's patch as ``git log -p -U0`` prints it, read for its headers alone.

``core.git.line_walk`` follows lines through hunks; this says which file each patch is
of, whether the commit created it, and its hunks (``@@ -a,b +c,d @@``, no context), the
changed lines' text passed over by the expression.
"""

import re
from collections.abc import Iterator

__all__ = ["Hunk", "file_patches"]

# The lines of a commit's patch that say which file and which lines: a file's header, its
# name after the change, its creation, a hunk (``-U0``: no context lines).
_HEADER = re.compile(
    rb"^(?:(?P<diff>diff --git )|--- [^\n]*\n\+\+\+ b/(?P<name>[^\n]*)$|(?P<new>new file mode)"
    rb"|@@ -(?P<a>\d+)(?:,(?P<b>\d+))? \+(?P<c>\d+)(?:,(?P<d>\d+))? @@)", re.MULTILINE)

Hunk = tuple[int, int, int, int]  # a, b, c, d of ``@@ -a,b +c,d @@``


def file_patches(body: bytes) -> Iterator[tuple[bytes, bool, list[Hunk]]]:
    """Each file's patch in a commit: (its name, whether the commit created it, hunks).
    Only the headers are read: the changed lines' text is passed over by the expression."""
    name: bytes | None = None
    hunks: list[Hunk] = []
    created = False
    for match in _HEADER.finditer(body):
        if match.group("diff"):
            if name is not None:
                yield name, created, hunks
            name, hunks, created = None, [], False
        elif match.group("name") is not None:
            name = match.group("name").rstrip(b"\t")
        elif match.group("new"):
            created = True
        else:
            a, b, c, d = match.group("a", "b", "c", "d")
            hunks.append((int(a), 1 if b is None else int(b), int(c), 1 if d is None else int(d)))
    if name is not None:
        yield name, created, hunks
