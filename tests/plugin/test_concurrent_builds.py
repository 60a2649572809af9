"""Two builds at once in one process: each plugin instance sees only its own pages' reads.

Two different sites, each in its own git repository, each with a page that includes a
snippet committed later than the page. They are built at the same time, in two threads of
this process, with MkDocs' own API: each thread loads its own config, with its own store
of kept plugin instances (MkDocs keeps one per process, on the class-level ``plugins``
option, and would hand both configs the same plugin), so there are two plugin instances.
A barrier holds both builds at their first page's ``on_page_markdown`` (inside
the window in which the plugin observes a page's reads) until both are there, so their
page conversions overlap. Each page's lastmod must be its own include's commit date: a
read observer shared by the process would give one build's reads to the other, and that
build's page would fall back to its source's date.

And many builds one after the other, each with its own plugin instance (as a process
that loads a fresh config per build makes them), add no audit hook after the first: a
hook can never be removed, and one a build would slow every ``open`` of the process.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin

from mkdocs_sitemap_pro.core.page.reads import Observer
from tests.support.dates import day, utc
from tests.support.git import git_env
from tests.support.sites import SITE_URL, Built, Site

#: site name -> (the page's commit date, its include's commit date, later).
DATES = {
    "alpha": ("2021-03-01T10:00:00+01:00", "2021-07-15T08:30:00+02:00"),
    "beta": ("2022-01-10T09:00:00-05:00", "2022-11-20T18:45:00+00:00"),
}
ROUNDS = 2  # each build makes its own observer: the first round's stay hooked, idle
TIMEOUT = 120


def _site(root: Path, page_date: str, include_date: str) -> Site:
    site = Site(
        root,
        markdown_extensions=[
            {"pymdownx.snippets": {"base_path": [str(root / "snippets")], "check_paths": True}}
        ],
    )
    site.repo.write(".gitignore", "site/\n.cache/\n")
    site.page("index.md", "# Home\n")
    site.page("shows.md", f'# Shows {root.name}\n\n--8<-- "inc.md"\n')
    site.commit("Pages", page_date)
    site.repo.write("snippets/inc.md", f"Included in {root.name}.\n")
    site.commit("The include", include_date)
    return site


class _Meet(BasePlugin):  # type: ignore[type-arg]
    """Waits, at its build's first page, until the other build has reached its own."""

    def __init__(self, barrier: threading.Barrier) -> None:
        super().__init__()
        self._barrier = barrier
        self._met = False

    def on_page_markdown(self, markdown: str, **kwargs: Any) -> str:
        if not self._met:
            self._met = True
            self._barrier.wait(TIMEOUT)
        return markdown


_LOADING = threading.Lock()  # load_config sets state on the one, class-level, option


def _load(site: Site, store: dict[str, BasePlugin]) -> MkDocsConfig:  # type: ignore[type-arg]
    """The site's config, its plugins taken from (and kept in) ``store``, not MkDocs' own."""
    option = dict(MkDocsConfig._schema)["plugins"]
    with _LOADING:
        saved, option.plugin_cache = option.plugin_cache, store  # type: ignore[attr-defined]
        try:
            return load_config(str(site.root / "mkdocs.yml"))
        finally:
            option.plugin_cache = saved  # type: ignore[attr-defined]


def _build(site: Site, store: dict[str, BasePlugin], barrier: threading.Barrier,  # type: ignore[type-arg]
           errors: list[BaseException]) -> None:
    try:
        config = _load(site, store)
        config.plugins["test-meet"] = _Meet(barrier)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    except BaseException as error:  # noqa: BLE001 - raised again in the test's thread
        errors.append(error)
        barrier.abort()  # the other build must not wait for this one


def _isolate_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """The git environment of tests/support/git.py, for the whole process (both threads)."""
    env = git_env()
    for key in [k for k in os.environ if k not in env]:
        monkeypatch.delenv(key)
    for key, value in env.items():
        monkeypatch.setenv(key, value)


def test_two_builds_in_two_threads_each_date_by_their_own_includes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _isolate_git(monkeypatch)
    sites = {name: _site(tmp_path / name, *dates) for name, dates in DATES.items()}
    stores: dict[str, dict[str, BasePlugin]] = {name: {} for name in sites}  # type: ignore[type-arg]
    for _ in range(ROUNDS):
        barrier = threading.Barrier(len(sites))
        errors: list[BaseException] = []
        threads = [
            threading.Thread(target=_build, args=(site, stores[name], barrier, errors),
                             name=f"build-{name}", daemon=True)
            for name, site in sites.items()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
        assert not any(t.is_alive() for t in threads), "a build did not finish"
        if errors:
            raise errors[0]
        plugins = [store["sitemap-pro"] for store in stores.values()]
        assert plugins[0] is not plugins[1], "the two builds shared one plugin instance"
        for name, site in sites.items():
            urls = Built(site.root / "site").sitemap()
            page_date, include_date = DATES[name]
            assert urls[SITE_URL + "shows/"]["lastmod"] == utc(include_date), name
            assert urls[SITE_URL]["lastmod"] == utc(page_date), name



def test_two_observers_in_two_threads_each_see_their_own_reads(tmp_path: Path) -> None:
    """The same, without MkDocs: two observers open at once, one per thread."""
    barrier = threading.Barrier(2)
    seen: dict[str, set[str]] = {}

    def watch(name: str) -> None:
        observer = Observer()
        barrier.wait(TIMEOUT)  # both observers exist before either reads
        observer.open()
        barrier.wait(TIMEOUT)
        (tmp_path / f"{name}.md").read_text(encoding="utf-8")
        barrier.wait(TIMEOUT)
        seen[name] = observer.close()
        observer.stop()

    for name in ("a", "b"):
        (tmp_path / f"{name}.md").write_text(name, encoding="utf-8")
    threads = [threading.Thread(target=watch, args=(n,), daemon=True) for n in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert seen == {n: {str(tmp_path / f"{n}.md")} for n in ("a", "b")}


def test_an_observer_is_not_kept_alive_by_its_hook(tmp_path: Path) -> None:
    """An audit hook cannot be removed: it holds its observer weakly, and idles after."""
    observer = Observer()
    observer.open()
    gone = weakref.ref(observer)
    del observer
    gc.collect()
    assert gone() is None
    assert (tmp_path / "x").write_text("x") == 1 and (tmp_path / "x").read_text() == "x"


# A hook with its own include syntax: only the observation of reads sees what it inlines.
_INLINING_HOOK = '''
from pathlib import Path

def on_page_markdown(markdown, page, config, files):
    if "[[part]]" not in markdown:
        return markdown
    root = Path(config.config_file_path).parent
    return markdown.replace("[[part]]", (root / "parts/part.md").read_text())
'''

BUILDS = 5


def test_many_builds_in_one_process_add_at_most_one_audit_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _isolate_git(monkeypatch)
    site = Site(tmp_path / "many", hooks=["hooks/inline.py"])
    site.repo.write(".gitignore", "site/\n.cache/\n__pycache__/\n")
    site.repo.write("hooks/inline.py", _INLINING_HOOK)
    site.page("plain.md", "# Plain\n")
    site.page("shows.md", "# Shows\n\n[[part]]\n")
    site.repo.write("parts/part.md", "A part.\n")
    site.commit("Pages", day(1))
    site.repo.write("parts/part.md", "A part, edited.\n")
    site.commit("The part", day(3))
    added: list[Any] = []
    real = sys.addaudithook

    def addaudithook(hook: Any) -> None:
        added.append(hook)
        real(hook)

    monkeypatch.setattr(sys, "addaudithook", addaudithook)
    monkeypatch.chdir(site.root)
    for _ in range(BUILDS):
        store: dict[str, BasePlugin] = {}  # type: ignore[type-arg]
        config = _load(site, store)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
        assert "sitemap-pro" in store  # a plugin instance of its own
        urls = Built(site.root / "site").sitemap()
        assert urls[SITE_URL + "shows/"]["lastmod"] == utc(day(3))  # seen through the hook
        assert urls[SITE_URL + "plain/"]["lastmod"] == utc(day(1))
    assert "A part, edited." in (site.root / "site/shows/index.html").read_text(encoding="utf-8")
    # One hook for the process, installed by the first build (or by an earlier test).
    assert len(added) <= 1, f"{len(added)} audit hooks added by {BUILDS} builds"
