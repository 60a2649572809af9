"""Fixed commit dates, in several zones, and the form the sitemap writes them in."""

from __future__ import annotations

import datetime as dt

UTC = dt.timezone.utc

D1 = "2024-01-10T09:00:00+02:00"  # written in UTC as 2024-01-10T07:00:00+00:00
D2 = "2024-02-20T23:30:00-05:00"  # UTC: 2024-02-21T04:30:00
D3 = "2024-03-05T12:00:00+00:00"


def utc(date: str) -> str:
    """A git or ISO date as the sitemap writes it: UTC, seconds, ``+00:00``."""
    return dt.datetime.fromisoformat(date.strip()).astimezone(UTC).isoformat()


def day(n: int, hour: int = 12, zone: str = "+02:00") -> str:
    """A fixed committer date, ``n`` days after 2024-01-01 (``n`` may exceed a month)."""
    base = dt.datetime.fromisoformat(f"2024-01-01T{hour:02d}:00:00{zone}")
    return (base + dt.timedelta(days=n)).isoformat()
