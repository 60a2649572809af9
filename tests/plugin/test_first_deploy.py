"""A first deploy with ``previous: auto``, and the shallow-clone advice after an option
failed: real shallow clones (``git clone --depth``) of a history with fixed dates, the
published site served by a local ``http.server``.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from tests.plugin.test_ci_clones import PAGES, clone, git, in_clone, lastmods, make_history, warnings
from tests.support.browser import serve
from tests.support.dates import day, utc
from tests.support.sites import Site

ADVICE_FETCH, ADVICE_PREVIOUS = "`fetch_history: auto`", "`previous: auto`"


def shallow_warning(said: list[str]) -> str:
    found = [m for m in said if "is a shallow clone" in m]
    assert len(found) == 1, said
    return found[0]


def test_a_first_deploy_is_an_info_and_passes_strict(site: Site, tmp_path: Path) -> None:
    make_history(site)
    truth = lastmods(site.build())
    (tmp_path / "www").mkdir()  # the host answers, but nothing was ever published: 404
    folder = clone(f"file://{site.root}", tmp_path / "c", "--depth", "3")
    with serve(tmp_path / "www") as base:
        shallow = in_clone(site, folder, previous="auto")
        shallow.config["site_url"] = f"{base}docs/"
        shallow.write_config()
        built = shallow.build(strict=True)
    assert built.error is None, built.messages()
    assert warnings(built) == []
    said = [m for m in built.infos() if "previous:" in m]
    assert said == [f"sitemap-pro: previous: no earlier deploy ({base}docs/"
                    "sitemap.manifest.json: HTTP 404), so this is the first: dates from this "
                    "clone's history, a file whose last change is older than its oldest commit "
                    "dated by that commit"], built.infos()
    # Pages changed inside the clone: exact; older ones: the clone's oldest commit (c10),
    # never older than the truth.
    got = {loc.replace(f"{base}docs/", ""): when for loc, when in lastmods(built).items()}
    expected = {loc.replace("https://example.com/docs/", ""): when for loc, when in truth.items()}
    boundary = utc(day(PAGES - 1))
    for path, when in expected.items():
        assert when is not None
        assert got[path] == (when if when >= boundary else boundary), path
    # The manifest published for the next deploy holds every dating file.
    manifest = json.loads((built.site_dir / "sitemap.manifest.json").read_text())
    assert len(manifest["files"]) == PAGES + 1


def test_other_failures_of_auto_stay_warnings_without_advising_it_again(site: Site, tmp_path: Path) -> None:
    make_history(site)
    (tmp_path / "www" / "docs").mkdir(parents=True)
    (tmp_path / "www" / "docs" / "sitemap.manifest.json").write_text("{not json")
    folder = clone(f"file://{site.root}", tmp_path / "c", "--depth", "1")
    with serve(tmp_path / "www") as base:
        shallow = in_clone(site, folder, previous="auto")
        shallow.config["site_url"] = f"{base}docs/"
        shallow.write_config()
        built = shallow.build()
        failed_strict = shallow.build(strict=True).error is not None
    said = warnings(built)
    assert any(m.startswith("sitemap-pro: previous: the manifest at") and "cannot be used" in m
               for m in said), said
    advice = shallow_warning(said)
    assert ADVICE_PREVIOUS not in advice and ADVICE_FETCH in advice, advice
    assert failed_strict


def test_a_failed_fetch_is_not_advised_again(site: Site, tmp_path: Path) -> None:
    make_history(site)
    folder = clone(f"file://{site.root}", tmp_path / "c", "--depth", "1")
    git(folder, "remote", "remove", "origin")
    built = in_clone(site, folder, fetch_history="auto").build()
    advice = shallow_warning(warnings(built))
    assert ADVICE_FETCH not in advice and ADVICE_PREVIOUS in advice, advice
    # Both set, both failed: the platform's fix alone.
    built = in_clone(site, folder, fetch_history="auto",
                     previous=str(tmp_path / "nowhere")).build()
    said = warnings(built)
    advice = shallow_warning(said)
    assert ADVICE_FETCH not in advice and ADVICE_PREVIOUS not in advice, advice
    assert advice.endswith("or `git fetch --unshallow` elsewhere."), advice
    assert any("previous: there is no manifest at" in m for m in said), said
    assert not [r for r in built.records if r.levelno == logging.ERROR]
