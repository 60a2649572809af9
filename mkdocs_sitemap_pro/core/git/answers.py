"""What git says of one file: the commit that last changed it, or why it cannot say."""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, NamedTuple, Union

__all__ = ["DateKind", "HistoryOptions", "HistoryRule", "Known", "LastChange", "Unknown"]


class Known(NamedTuple):
    """The commit that last changed a file, and its date in the commit's own zone."""

    when: datetime
    commit: str


class Unknown(NamedTuple):
    """Why git cannot date a file.

    ``reason`` is one of ``untracked`` (not in HEAD's tree: new, ignored by git, outside
    the repository, inside a nested submodule), ``shallow`` (its change is older than a
    shallow clone's history), ``ignored`` (every change was made by an ignored commit),
    ``no-git`` (no git program, or git failed reading history), ``not-a-repo`` and
    ``no-commits``.
    """

    reason: str


LastChange = Union[Known, Unknown]

HistoryRule = Literal["first-parent", "all"]
DateKind = Literal["committer", "author"]


@dataclass(frozen=True)
class HistoryOptions:
    """How history is read: the walk rule, which date of a commit, commits not to count.

    Immutable and hashable: two reads with equal options (and the same HEAD) give the
    same answers.
    """

    rule: HistoryRule = "first-parent"
    date: DateKind = "committer"
    ignore_commits: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.rule not in ("first-parent", "all"):
            raise ValueError(f"history must be 'first-parent' or 'all', not {self.rule!r}")
        if self.date not in ("committer", "author"):
            raise ValueError(f"date must be 'committer' or 'author', not {self.date!r}")
