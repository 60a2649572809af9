"""Which files went into a page: the files read while it was converted.

Rather than parse each include syntax (snippets, include-markdown, a hook's own), this
watches what is read. Python reports every open to audit hooks (``open``, ``io.open``,
``Path.read_text``, ``os.open``, ``io.FileIO``, early-bound references such as
``tokenize.open``). An audit hook can never be removed, so the process has one, installed
the first time anything listens (``watch_reads``), however many builds it runs; it tells
each listening owner (an ``Observer``, one per plugin instance), so two builds in one
process (two plugin instances, two threads) each see their own reads. It holds its
owners weakly (one goes with its plugin instance) and returns at once for any event but
``open`` and when no owner is listening. The observer counts only reads
made between ``open`` and ``close`` of a page (``on_pre_page`` first, ``on_page_content``
last), by the thread that opened it (MkDocs renders in one thread; the git worker and
other plugins' threads read other things), and not while ``suspended`` (mkdocstrings
loading modules). Nor are the import system's reads (a module's source, its bytecode, a
zip archive on sys.path): a module is imported once per process, by whichever page comes
first, and its source is read only where no bytecode is cached, so such a read would date
one page by chance, and only in a fresh clone. ``Exclusions`` then drops what is part of
the site rather than of the page: theme and template folders, site_dir, mkdocs.yml,
files appended to every page, and the system's own files (``/proc``, ``/sys``, ``/dev``:
``/proc/cpuinfo`` is no source, and git hashes it as an empty file).

Not seen: content a plugin read before the page's window (a cache filled in
``on_config``) and reads made by C code.
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NamedTuple, TypeVar

from mkdocs_sitemap_pro.core.page.realpaths import RealPaths

__all__ = ["Exclusions", "Observer", "watch_reads"]

_Owner = TypeVar("_Owner")

_WRITE_MODES = frozenset("wax+")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR
# The kernel's and devices' folders: what is read there dates no page.
_SYSTEM_FOLDERS = ("/proc/", "/sys/", "/dev/") if os.sep == "/" else ()


# setuptools' editable installs put ``__editable__.<dist>.finder.__path_hook__`` on
# sys.path: a name for their import hook, relative, no folder, so ``importlib.metadata``
# (``entry_points()``, a ``version()`` lookup) opens it as a zip archive. It is no file a
# page read (it was logged as an untracked one, in the project's folder).
_IMPORT_HOOK = "__path_hook__"

# The modules through which the import system opens files: its loaders' ``get_data``
# (``_frozen_importlib_external`` is renamed when ``importlib`` is first imported) and
# zipimport. A ``get_data`` call from elsewhere (``pkgutil.get_data``), or a loader's
# ``get_source`` (a module's text asked for, to be shown), is a real read.
_IMPORT_SYSTEM = frozenset({"importlib._bootstrap_external", "_frozen_importlib_external",
                            "importlib._bootstrap", "_frozen_importlib", "zipimport"})


class Observer:
    """The reads of one page at a time, by the thread that opened the page's window."""

    def __init__(self) -> None:
        self._reads: set[str] | None = None
        self._thread = 0
        self._suspended = 0
        watch_reads(self, Observer._listening, Observer._seen)

    @property
    def watching(self) -> bool:
        return self._reads is not None

    def open(self) -> None:
        """Start recording (again) for a page; reads of the current thread only."""
        self._reads = set()
        self._thread = threading.get_ident()
        self._suspended = 0

    def close(self) -> set[str] | None:
        """Stop recording; the absolute paths read since ``open`` (None: not recording)."""
        reads, self._reads = self._reads, None
        return reads

    @contextmanager
    def suspended(self) -> Iterator[None]:
        """Reads made inside are not the page's (another plugin loading its own data)."""
        self._suspended += 1
        try:
            yield
        finally:
            self._suspended -= 1

    def stop(self) -> None:
        """This observer is done: nothing more is recorded (it stays listed, idle)."""
        self._reads = None

    def _listening(self) -> bool:
        """Whether a page's window is open, in this thread, and not suspended."""
        return (self._reads is not None and not self._suspended
                and threading.get_ident() == self._thread)

    def _seen(self, path: object, caller: FrameType) -> None:
        reads = self._reads
        if reads is None:
            return
        text = os.fsdecode(os.fspath(path))  # type: ignore[call-overload]
        # Relative to the working folder at the time of the call, as open() took it. Most
        # reads name an absolute, normal path already: abspath (pure Python) is skipped.
        if not (text[:1] == os.sep == "/" and "/." not in text and "//" not in text
                and text[-1] != "/"):
            text = os.path.abspath(text)
        if text.endswith(_IMPORT_HOOK):  # an import system's sys.path entry, no file
            return
        reads.add(text)


def _by_import_system(caller: Any) -> bool:
    """Whether the function that called ``open`` (``caller``, a frame), and the one that
    called it, are the import system's: a module being imported, not a file being read."""
    outer = caller.f_back
    return (caller.f_globals.get("__name__") in _IMPORT_SYSTEM and outer is not None
            and outer.f_globals.get("__name__") in _IMPORT_SYSTEM
            and outer.f_code.co_name != "get_source")


class _Listener(NamedTuple):
    owner: weakref.ref[Any]
    listening: Callable[[Any], bool]
    read: Callable[[Any, object, FrameType], None]


class _ReadHook:
    """The process's one audit hook for reads, and the owners it tells of them.

    Installed on the first ``add``, once (a hook can never be removed). Each owner is
    held weakly, and those gone are dropped when the next is added: the list is as long
    as the owners alive, whatever the number of builds. The list is replaced whole, never
    changed in place, so the hook reads it without a lock while another thread adds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._installed = False
        self._listeners: tuple[_Listener, ...] = ()

    def add(self, owner: _Owner, listening: Callable[[_Owner], bool],
            read: Callable[[_Owner, object, FrameType], None]) -> None:
        listener = _Listener(weakref.ref(owner), listening, read)
        with self._lock:
            alive = (known for known in self._listeners if known.owner() is not None)
            self._listeners = (*alive, listener)
            if not self._installed:
                sys.addaudithook(self._heard)
                self._installed = True

    def _heard(self, event: str, args: tuple[Any, ...]) -> None:
        """Every audit event of the process comes here: it returns at once for all but
        ``open``, and never raises into the caller's ``open()``."""
        if event != "open":
            return
        told = []
        for listener in self._listeners:
            owner = listener.owner()
            if owner is not None and listener.listening(owner):
                told.append((owner, listener.read))
        if not told:
            return
        try:
            path, mode, flags = args
            if isinstance(mode, str):
                if not _WRITE_MODES.isdisjoint(mode):
                    return
            elif isinstance(flags, int) and flags & _WRITE_FLAGS:  # os.open: flags, no mode
                return
            if isinstance(path, int):  # a file descriptor: nothing to date
                return
            caller = sys._getframe(1)  # 0: this hook, 1: open's caller
            if _by_import_system(caller):
                return
        except Exception:  # noqa: BLE001 - a hook that raises would break the caller's open()
            return
        for owner, read in told:
            try:
                read(owner, path, caller)
            except Exception:  # noqa: BLE001 - as above; and the next owner is still told
                pass


# The one hook of the process: what it holds is its owners' (weakly), not the module's.
_READ_HOOK = _ReadHook()


def watch_reads(owner: _Owner, listening: Callable[[_Owner], bool],
                read: Callable[[_Owner, object, FrameType], None]) -> None:
    """Tell ``owner`` of each file the process opens for reading while
    ``listening(owner)``: the path as ``open`` took it, and the frame of ``open``'s caller.
    Writes, file descriptors and the import system's reads are not told.

    Through the process's one audit hook, which holds ``owner`` weakly: nothing to
    undo when the owner is gone."""
    _READ_HOOK.add(owner, listening, read)


class Exclusions:
    """Files read during a page's conversion that are part of the site, not of the page."""

    def __init__(self, folders: Iterable[str], files: Iterable[str]) -> None:
        self._real_paths = RealPaths()  # each folder resolved once, parents first
        self._real: dict[str, str] = {}
        self._folders = tuple(
            os.path.join(os.path.realpath(f), "") for f in folders if f
        )
        self._files = frozenset(os.path.realpath(f) for f in files if f)

    def real(self, path: str) -> str:
        """A path with its folder's symlinks resolved (each folder once) and the file's."""
        known = self._real.get(path)
        if known is None:
            known = self._real[path] = self._resolve(path)
        return known

    def _resolve(self, path: str) -> str:
        return self._real_paths.file(path)

    def keeps(self, path: str) -> bool:
        """Whether a read file may date the page that read it."""
        real = self.real(path)
        if real in self._files or f"{os.sep}__pycache__{os.sep}" in real:
            return False
        return not (real.startswith(self._folders) or path.startswith(_SYSTEM_FOLDERS)
                    or real.startswith(_SYSTEM_FOLDERS))

    def pick(self, paths: Iterable[str], source: str | None) -> set[str]:
        """The files among ``paths`` that count, less the page's own source.

        Most pages read their source and nothing else: the source's own path string is
        dropped before anything is resolved, so such a page costs no ``lstat``.
        """
        others = [p for p in paths if p != source]  # MkDocs' abs_src_path is normalised
        if not others:
            return set()
        own = self.real(os.path.abspath(source)) if source else None
        return {p for p in others if self.keeps(p) and self.real(p) != own}
