"""``core.git.line_walk``: each line's last change, by the history rules, on real repositories."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.line_walk import IGNORED, SHALLOW, BlameFailed, LineDates, Span, blame
from tests.support.dates import day
from tests.support.git import GitRepo, shift_date

pytestmark = pytest.mark.usefixtures("isolated_git")

NONE: frozenset[bytes] = frozenset()


def at(date: str) -> dt.datetime:
    return dt.datetime.fromisoformat(date)


def lines_repo(path: Path) -> GitRepo:
    """Five lines on day 1; line 2 on day 3; line 4 on a branch on day 5, merged day 7."""
    repo = GitRepo(path)
    repo.write("f.txt", "one\ntwo\nthree\nfour\nfive\n")
    repo.commit("start", day(1))
    repo.write("f.txt", "one\nTWO\nthree\nfour\nfive\n")
    repo.commit("line 2", day(3))
    repo.git("checkout", "-q", "-b", "side")
    repo.write("f.txt", "one\nTWO\nthree\nFOUR\nfive\n")
    repo.commit("line 4", day(5))
    repo.git("checkout", "-q", "main")
    repo.write("other.txt", "x\n")
    repo.commit("elsewhere", day(6))
    repo.merge("side", day(7))
    return repo


def test_first_parent_dates_a_merged_line_by_its_merge(tmp_path: Path) -> None:
    repo = lines_repo(tmp_path / "r")
    dates = blame(str(repo.path), b"f.txt", HistoryOptions(), NONE, NONE)
    assert dates.length == 5
    assert dates.newest([(1, 1)]) == (True, at(day(1)))
    assert dates.newest([(1, 3)]) == (True, at(day(3)))
    assert dates.newest([(4, 4)]) == (True, at(day(7)))
    assert dates.newest([(5, 5), (1, 1)]) == (True, at(day(1)))


def test_all_dates_it_by_its_own_commit_and_author_by_author(tmp_path: Path) -> None:
    repo = lines_repo(tmp_path / "r")
    dates = blame(str(repo.path), b"f.txt", HistoryOptions("all"), NONE, NONE)
    assert dates.newest([(4, 4)]) == (True, at(day(5)))
    author = blame(str(repo.path), b"f.txt", HistoryOptions("all", "author"), NONE, NONE)
    assert author.newest([(2, 2)]) == (True, at(shift_date(day(3))))
    assert author.newest([(2, 2)])[1].utcoffset() == dt.timedelta(hours=5, minutes=30)


def test_an_ignored_commit_gives_its_lines_to_the_one_before(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("f.txt", "one\ntwo\n")
    repo.commit("start", day(1))
    repo.write("f.txt", "one\nTwo\nadded\n")
    sha = repo.commit("reformat", day(4)).encode()
    dates = blame(str(repo.path), b"f.txt", HistoryOptions(), frozenset({sha}), NONE)
    assert dates.newest([(2, 2)]) == (True, at(day(1)))  # changed by it: the earlier commit's
    assert dates.newest([(3, 3)]) == (True, None)  # added by it: no date
    assert dates.runs[-1][2] == IGNORED
    assert dates.newest([(1, 3)]) == (True, at(day(1)))


def test_lines_beyond_a_shallow_boundary_or_the_file_are_not_sure(tmp_path: Path) -> None:
    origin = lines_repo(tmp_path / "origin")
    clone = tmp_path / "clone"
    origin.git("clone", "-q", "--depth", "1", f"file://{origin.path}", str(clone))
    boundary = frozenset((clone / ".git/shallow").read_bytes().split())
    dates = blame(str(clone), b"f.txt", HistoryOptions(), NONE, boundary)
    assert all(run[2] == SHALLOW for run in dates.runs)
    assert dates.newest([(1, 1)]) == (False, None)
    assert dates.newest([(6, 6)]) == (False, None)
    assert dates.newest([(0, 1)]) == (False, None)


def test_a_file_git_cannot_blame_fails_with_git_s_reason(tmp_path: Path) -> None:
    repo = lines_repo(tmp_path / "r")
    with pytest.raises(BlameFailed, match="no such path"):
        blame(str(repo.path), b"missing.txt", HistoryOptions(), NONE, NONE)


def test_runs_join_neighbouring_lines_of_one_commit() -> None:
    dates = LineDates((Span(1, 2, 100, 0), Span(3, 3, 300, 60), Span(4, 9, 200, 0)))
    assert dates.length == 9
    assert dates.newest([(2, 2)]) == (True, dt.datetime.fromtimestamp(100, dt.timezone.utc))
    when = dates.newest([(2, 5)])[1]
    assert when is not None and when.timestamp() == 300 and when.utcoffset() == dt.timedelta(hours=1)
    assert dates.newest([(5, 9), (1, 1)])[1] == dt.datetime.fromtimestamp(200, dt.timezone.utc)
