"""Git history: when each file last changed on the branch being built, in one pass.

``process`` runs git, ``repository`` reads facts about the repository, ``walk`` is what
both rules share, ``first_parent`` and ``all_parents`` are the two rules, ``history``
puts them together as ``GitHistory``.
"""

from mkdocs_sitemap_pro.core.git.answers import DateKind, HistoryRule, Known, LastChange, Unknown
from mkdocs_sitemap_pro.core.git.history import GitHistory, HistoryRead
from mkdocs_sitemap_pro.core.git.repository import is_commit_id, read_ignore_revs_file

__all__ = [
    "DateKind", "GitHistory", "HistoryRead", "HistoryRule", "Known", "LastChange", "Unknown",
    "is_commit_id", "read_ignore_revs_file",
]
