"""``core.git.line_walk``: one ``git log -p`` walk agrees with ``git blame --first-parent``
on every line it dates, dates each part by its newest change and stops there, and sees
the deletions blame cannot name."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.line_walk import IGNORED, OLDER, SHALLOW, LineDates, Lines, blame
from mkdocs_sitemap_pro.core.git.line_walk import walk_lines
from tests.support.dates import day
from tests.support.git import GitRepo

pytestmark = pytest.mark.usefixtures("isolated_git")

NONE: frozenset[bytes] = frozenset()


def per_line(dates: LineDates) -> list[int]:
    return [run[2] for run in dates.runs for _ in range(run[0], run[1] + 1)]


def by_line(count: int) -> tuple[Lines, ...]:
    """Every line a part of its own: the walk must date each one."""
    return tuple(((n, n),) for n in range(1, count + 1))


def everything(repo: GitRepo, names: list[str]) -> dict[bytes, tuple[int, tuple[Lines, ...]]]:
    files = {}
    for name in names:
        count = (repo.path / name).read_text().count("\n")
        files[name.encode()] = (count, by_line(count))
    return files


def random_history(repo: GitRepo, seed: int, names: list[str], commits: int) -> None:
    """Random edits (insert, change, delete lines), some on branches merged later."""
    rng = random.Random(seed)
    contents = {name: [f"{name} {n}" for n in range(8)] for name in names}
    counter = 0

    def edit() -> None:
        nonlocal counter
        for name in rng.sample(names, rng.randint(1, len(names))):
            lines = contents[name]
            for _ in range(rng.randint(1, 3)):
                counter += 1
                kind = rng.choice(["insert", "change", "delete"])
                at = rng.randrange(len(lines) + 1)
                if kind == "insert" or not lines:
                    lines[at:at] = [f"new {counter}"] * rng.randint(1, 2)
                elif kind == "change":
                    lines[min(at, len(lines) - 1)] = f"changed {counter}"
                else:
                    del lines[min(at, len(lines) - 1):min(at, len(lines) - 1) + rng.randint(1, 2)]
            repo.write(name, "".join(line + "\n" for line in lines))

    for name in names:
        repo.write(name, "".join(line + "\n" for line in contents[name]))
    repo.commit("start", day(0))
    n = 1
    while n < commits:
        if rng.random() < 0.2:
            repo.git("checkout", "-q", "-b", f"b{n}")
            saved = {k: list(v) for k, v in contents.items()}
            edit()
            repo.commit(f"side {n}", day(n))
            repo.git("checkout", "-q", "main")
            contents = saved
            repo.write("other.txt", f"{n}\n")
            repo.write("c/other.txt", f"{n}\n" * n)  # in a folder asked for, not wanted
            repo.commit(f"main {n}", day(n + 1))
            repo.merge(f"b{n}", day(n + 2), "-X", "theirs")
            for name in names:
                contents[name] = (repo.path / name).read_text().splitlines()
            n += 3
        else:
            edit()
            repo.commit(f"edit {n}", day(n))
            n += 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_line_is_dated_as_blame_dates_it(tmp_path: Path, seed: int) -> None:
    repo = GitRepo(tmp_path / "r")
    names = ["a.txt", "b.txt", "c/d.txt", "c/e.txt"]  # c/: asked for as a folder
    random_history(repo, seed, names, 40)
    walked = walk_lines(str(repo.path), everything(repo, names), "committer", NONE, NONE)
    for name in names:
        dates = walked[name.encode()]
        assert dates is not None
        blamed = blame(str(repo.path), name.encode(), HistoryOptions(), NONE, NONE)
        assert per_line(dates) == per_line(blamed), name
    # Parts of some lines: each has the newest date of the walk of every line (blame's
    # lines and the deletions), the lines the walk dated have blame's dates, and the
    # lines it stopped short of are older than all of those.
    full = walked
    rng = random.Random(seed)
    parts = {}
    for key, (count, _) in everything(repo, names).items():
        if not count:
            continue
        first = rng.randint(1, max(1, count // 2))
        one = rng.randint(1, count)
        parts[key] = (count, (((first, min(count, first + 2)), (count, count)), ((one, one),)))
    walked = walk_lines(str(repo.path), parts, "committer", NONE, NONE)
    for key, (count, wanted) in parts.items():
        dates = walked[key]
        assert dates is not None and dates.length == count
        blamed = blame(str(repo.path), key, HistoryOptions(), NONE, NONE)
        for part in wanted:
            assert dates.covers(part), key
            reference = full[key]
            assert reference is not None
            assert dates.newest(part) == reference.newest(part), (key, part)
        got, truth = per_line(dates), per_line(blamed)
        dated = [n for n, epoch in enumerate(got) if epoch >= 0]
        assert dated, key
        assert all(got[n] == truth[n] for n in dated), key
        oldest = min(got[n] for n in dated)
        assert all(truth[n] <= oldest for n, epoch in enumerate(got) if epoch == OLDER), key


def test_author_dates_and_zones(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    random_history(repo, 4, ["a.txt"], 10)
    walked = walk_lines(str(repo.path), everything(repo, ["a.txt"]), "author", NONE, NONE)
    blamed = blame(str(repo.path), b"a.txt", HistoryOptions(date="author"), NONE, NONE)
    assert walked[b"a.txt"] is not None
    assert walked[b"a.txt"].runs == blamed.runs


def test_a_deletion_between_two_lines_dates_a_part_that_holds_both(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("f.txt", "one\ntwo\nthree\nfour\n")
    repo.commit("start", day(1))
    repo.write("f.txt", "one\ntwo\nfour\n")  # "three" goes, between two and four
    repo.commit("delete", day(5))
    files = {b"f.txt": (3, (((1, 3),), *by_line(3)))}
    dates = walk_lines(str(repo.path), files, "committer", NONE, NONE)[b"f.txt"]
    assert dates is not None
    assert dates.newest([(1, 3)]) == (True, dt.datetime.fromisoformat(day(5)))
    assert dates.newest([(2, 3)]) == (True, dt.datetime.fromisoformat(day(5)))
    assert dates.newest([(1, 2)]) == (True, dt.datetime.fromisoformat(day(1)))
    assert dates.newest([(3, 3)]) == (True, dt.datetime.fromisoformat(day(1)))


def test_the_walk_stops_once_the_wanted_lines_are_dated(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("f.txt", "one\ntwo\n")
    repo.commit("start", day(1))
    repo.write("f.txt", "one\nTWO\n")
    repo.commit("two", day(2))
    dates = walk_lines(str(repo.path), {b"f.txt": (2, (((2, 2),),))}, "committer", NONE, NONE)
    got = dates[b"f.txt"]
    assert got is not None
    assert got.covers([(2, 2)]) and not got.covers([(1, 1)])
    assert got.newest([(1, 1)]) == (False, None)  # not looked for: the file is dated whole


def test_a_part_is_dated_by_its_first_change_and_the_walk_goes_no_further(
        tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("f.txt", "one\ntwo\nthree\n")
    repo.commit("start", day(1))
    repo.write("f.txt", "ONE\ntwo\nthree\n")
    repo.commit("one", day(2))
    repo.write("f.txt", "ONE\ntwo\nTHREE\n")
    repo.commit("three", day(3))
    files = {b"f.txt": (3, (((1, 2),), ((2, 3),)))}
    got = walk_lines(str(repo.path), files, "committer", NONE, NONE)[b"f.txt"]
    assert got is not None
    # Lines 1-2 met "one", lines 2-3 met "three": line 2 was never reached ("start").
    assert [run[2] for run in got.runs] == [
        int(dt.datetime.fromisoformat(day(2)).timestamp()), OLDER,
        int(dt.datetime.fromisoformat(day(3)).timestamp())]
    assert got.newest([(1, 2)]) == (True, dt.datetime.fromisoformat(day(2)))
    assert got.newest([(2, 3)]) == (True, dt.datetime.fromisoformat(day(3)))
    assert got.newest([(1, 3)]) == (True, dt.datetime.fromisoformat(day(3)))
    # Line 2 alone is not decided: a page showing only it makes the walk go on.
    assert not got.covers([(2, 2)]) and got.newest([(2, 2)]) == (False, None)
    assert got.covers([(1, 3)])


def test_ignored_commits_and_a_shallow_boundary(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("f.txt", "one\ntwo\n")
    repo.commit("start", day(1))
    repo.write("f.txt", "one\nTwo\nadded\n")
    sha = repo.commit("reformat", day(4)).encode()
    files = {b"f.txt": (3, by_line(3))}
    dates = walk_lines(str(repo.path), files, "committer", frozenset({sha}), NONE)[b"f.txt"]
    assert dates is not None
    assert dates.newest([(2, 2)]) == (True, dt.datetime.fromisoformat(day(1)))
    assert dates.runs[-1][2] == IGNORED
    clone = tmp_path / "clone"
    repo.git("clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone))
    boundary = frozenset((clone / ".git/shallow").read_bytes().split())
    shallow = walk_lines(str(clone), files, "committer", NONE, boundary)[b"f.txt"]
    assert shallow is not None and all(run[2] == SHALLOW for run in shallow.runs)


def test_a_renamed_file_is_left_to_blame_a_new_one_is_not(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("old.txt", "one\ntwo\n")
    repo.commit("start", day(1))
    repo.git("mv", "old.txt", "new.txt")
    repo.write("born.txt", "fresh\n")
    repo.commit("rename and create", day(3))
    files = {b"new.txt": (2, (((1, 2),),)), b"born.txt": (1, (((1, 1),),))}
    walked = walk_lines(str(repo.path), files, "committer", NONE, NONE)
    assert walked[b"new.txt"] is None
    born = walked[b"born.txt"]
    assert born is not None and born.newest([(1, 1)]) == (True, dt.datetime.fromisoformat(day(3)))
