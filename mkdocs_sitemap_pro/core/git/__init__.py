"""Git history: when each file last changed on the branch being built, in one pass.

``process`` runs git (a deadline, every process ended on shutdown, an error or a signal),
``repository`` reads facts about the repository (``platforms``: where it is built, and
fetching a shallow clone's history), ``walk`` holds the two walk rules, ``history_map``
makes the map of every tracked file and answers by path (``GitHistory``), ``map_store``
keeps it on disk and confirms it, ``line_walk`` dates the lines of files shown in part (one
walk, or ``git blame`` a file), ``line_dates`` keeps them for one build (``blame.json``),
``copies`` dates copied sources, ``branch`` reads and commits to mike's branch.
"""

from mkdocs_sitemap_pro.core.git.answers import DateKind, HistoryRule, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.history_map import GitHistory
from mkdocs_sitemap_pro.core.git.history_map import HistoryMap, MapKey, read_map
from mkdocs_sitemap_pro.core.git.repository import is_commit_id, read_ignore_revs_file

__all__ = [
    "DateKind", "GitHistory", "HistoryMap", "HistoryRule", "Known", "LastChange", "MapKey",
    "Unknown", "is_commit_id", "read_ignore_revs_file", "read_map",
]
