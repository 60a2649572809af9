"""validate: true runs the checker on the written tree; each finding is a warning."""

from __future__ import annotations

import datetime as dt

from tests.support.dates import day


def five_pages(site, same_day, validate):
    for n, name in enumerate(("index.md", "a.md", "b.md", "c.md", "d.md"), start=1):
        site.page(name, f"# {name}\n")
        site.commit(name, day(1, hour=10 + n) if same_day else day(n))
    site.config["plugins"] = [{"sitemap-pro": {"validate": validate}}]
    site.write_config()
    return site.build(strict=True)


def stamped_today(site, validate):
    """20 pages dated by their files' times: the day of the build, every one."""
    for n in range(20):
        site.page(f"p{n}.md", f"# P{n}\n")
    site.config["plugins"] = [{"sitemap-pro": {"validate": validate, "lastmod": "mtime"}}]
    site.write_config()
    return site.build(strict=True)


def test_our_output_passes_its_own_check(site):
    built = five_pages(site, same_day=False, validate=True)
    assert built.error is None, built.messages()
    assert not [m for m in built.messages() if "validate" in m]


def test_a_new_site_committed_in_one_day_passes_too(site):
    built = five_pages(site, same_day=True, validate=True)
    assert built.error is None, built.messages()
    assert not [m for m in built.messages() if "validate" in m]


def test_findings_become_warnings_so_strict_fails(site):
    built = stamped_today(site, validate=True)
    assert built.error is not None  # --strict: a warning fails the build
    found = [m for m in built.messages() if m.startswith("sitemap-pro: validate:")]
    assert len(found) == 1 and found[0].endswith("[lastmod-same-day]"), found
    today = dt.datetime.fromtimestamp((built.site_dir / "sitemap.xml").stat().st_mtime,
                                      dt.timezone.utc).date()
    assert f"all 20 lastmods fall on {today.isoformat()}, the day the sitemap was built" in found[0]


def test_off_by_default(site):
    built = stamped_today(site, validate=False)
    assert built.error is None, built.messages()
