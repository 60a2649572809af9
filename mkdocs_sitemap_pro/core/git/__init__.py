"""Git history: when each file last changed on the branch being built, in one pass.

``process`` runs git (a deadline, every process ended on shutdown, an error or a
signal), ``repository`` reads facts about the repository, ``walk`` is what both rules
share, ``first_parent`` and ``all_parents`` are the two rules, ``history_map`` makes the
map of every tracked file (brought forward from an earlier one), ``map_store`` keeps it
on disk, and ``history`` looks files up by path (``GitHistory``); of files shown in
part, ``line_walk`` and ``blame`` date the lines, ``line_dates`` keeps those dates.
"""

from mkdocs_sitemap_pro.core.git.answers import DateKind, HistoryRule, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.history import GitHistory
from mkdocs_sitemap_pro.core.git.history_map import HistoryMap, MapKey, read_map
from mkdocs_sitemap_pro.core.git.repository import is_commit_id, read_ignore_revs_file

__all__ = [
    "DateKind", "GitHistory", "HistoryMap", "HistoryRule", "Known", "LastChange", "MapKey",
    "Unknown", "is_commit_id", "read_ignore_revs_file", "read_map",
]
