"""Issue 54, experiment 2: a kept history map that re-points a file to an older real commit.

``history.json`` in ``cache_dir`` names, for each file, the commit that last changed it.
A forged map naming an older commit of the same history, with that commit's true date,
passes the date check; the file's content at that commit is not its content at the
map's HEAD, and git says so: the map is discarded (DEBUG) and the history walked. Real
builds in real repositories, the map forged between them.
"""

from __future__ import annotations

import json
import logging

from tests.hostile.test_cache_trust import CACHE, _dates, _site
from tests.support.dates import D1, D2, D3, utc
from tests.support.sites import SITE_URL, Built, Site


def _repoint(site: Site) -> None:
    """docs/a.md's commit index set to docs/index.md's: the first commit, a real one,
    with its real date, which changed a.md too (but to other content)."""
    path = site.root / CACHE / "history.json"
    data = json.loads(path.read_text())
    files = data["files"]
    assert files["docs/a.md"][0] != files["docs/index.md"][0]
    files["docs/a.md"][0] = files["docs/index.md"][0]
    path.write_text(json.dumps(data))


def _refused(built: Built) -> list[str]:
    return [m for m in built.messages(logging.DEBUG)
            if "history.json cannot be used" in m and "docs/a.md" in m]


def test_a_map_repointing_a_file_to_an_older_commit_is_discarded(site):
    _site(site)
    assert _dates(site.build()) == {SITE_URL: utc(D1), SITE_URL + "a/": utc(D2)}
    _repoint(site)
    built = site.build()
    assert _dates(built) == {SITE_URL: utc(D1), SITE_URL + "a/": utc(D2)}
    assert not built.messages()
    assert len(_refused(built)) == 1, built.messages(logging.DEBUG)


def test_a_repointed_map_is_not_brought_forward_either(site):
    """HEAD moved on since the map was kept: the files the new commits did not touch
    would take the map's answer; a.md's must be git's."""
    _site(site)
    site.build()
    _repoint(site)
    site.page("index.md", "# Home\n\nNews.\n")
    site.commit("third", D3)
    built = site.build()
    assert _dates(built) == {SITE_URL: utc(D3), SITE_URL + "a/": utc(D2)}
    assert not built.messages()
    assert len(_refused(built)) == 1, built.messages(logging.DEBUG)


def test_an_untouched_kept_map_is_used_without_a_walk(site):
    """The check costs no walk: the kept map, confirmed, is used as it is."""
    _site(site)
    site.build()
    built = site.build()
    assert _dates(built) == {SITE_URL: utc(D1), SITE_URL + "a/": utc(D2)}
    debug = built.messages(logging.DEBUG)
    assert any("the map kept for this HEAD (no walk)" in m for m in debug), debug
    assert not any("cannot be used" in m for m in debug), debug
