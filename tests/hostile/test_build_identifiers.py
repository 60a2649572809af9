"""Issue 54, experiment 5 (``:::``): a hostile ``:::`` identifier under ``build``
(``::: /``, 6,000 characters, a path climbing out) is a WARNING naming the page and the
block by its start, never a traceback (``ValueError: PosixPath('/') has an empty name``,
``ENAMETOOLONG``). Moved here from ``tests/cli/test_build_api_alone.py``."""

from __future__ import annotations

import pytest

from tests.cli.test_build import needs_zensical, run_build, zensical_build
from tests.support.dates import D1


@needs_zensical
@pytest.mark.parametrize("identifier", ["/", "a" * 6000, "pkg." + "b" * 6000, "a/../../etc"])
def test_a_hostile_identifier_is_named_not_a_traceback(site, monkeypatch, capsys,
                                                        identifier):
    """Zensical's build fails on such a block, so the site is built first and the page
    then given it (a build script that edits sources after building, or a stale site)."""
    site.config.update(plugins=[{"mkdocstrings": {}}, {"sitemap-pro": {}}])
    site.write_config()
    site.page("index.md", "# Home\n")
    site.page("odd.md", "# Odd\n")
    site.commit("first", D1)
    zensical_build(site)
    site.page("odd.md", f"# Odd\n\n::: {identifier}\n")
    assert run_build(site, monkeypatch, "--strict") == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Error:" not in err, err[-2000:]
    assert "WARNING -  sitemap-pro: page 'odd.md': mkdocstrings block not followed" in err
    assert len(max(err.splitlines(), key=len)) < 1000  # named by its start
    # A handler build does not run, whose identifier names no file: said at DEBUG.
    site.page("odd.md", f"# Odd\n\n::: {identifier}\n    handler: shell\n")
    assert run_build(site, monkeypatch, "--strict", "-v") == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "page 'odd.md': its '::: " in err, err[-2000:]
