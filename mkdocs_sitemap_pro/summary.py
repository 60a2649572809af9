"""The one INFO line that sums a build's sitemap up."""

from __future__ import annotations

from mkdocs_sitemap_pro.dating import Dating
from mkdocs_sitemap_pro.generator import WriteReport


def summary_line(report: WriteReport, dating: Dating) -> str:
    """E.g. ``1,204 URLs in 1 file (sitemap.xml, .gz); lastmod: 1,180 git, 24 omitted (generated)``."""
    files = len(report.files)
    shards = files - 1 if report.is_index else files
    where = report.files[0] if files else "nothing"
    if report.is_index:
        where += f", an index of {shards:,} files"
    if report.gz_files:
        where += ", .gz"
    parts = [f"{count:,} {source}" for source, count in dating.sources.most_common()]
    for reason, count in dating.omitted.most_common():
        parts.append(f"{count:,} omitted ({reason})")
    dated = "; lastmod: " + ", ".join(parts) if parts else ""
    noun = "file" if shards == 1 else "files"
    return f"{report.url_count:,} URLs in {shards:,} {noun} ({where}){dated}"
