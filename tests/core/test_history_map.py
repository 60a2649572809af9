"""history_map and map_store: the map of every tracked file, brought forward exactly.

Every map is checked against git's own per-file answer, and every map brought forward
from an earlier HEAD against a full walk of the same HEAD: merges (plain, ``-s ours``,
conflicts, octopus), renames, deletions, ignored commits, both rules, both date kinds.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git import GitHistory, HistoryMap, Known, Unknown, read_map
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions
from mkdocs_sitemap_pro.core.git.map_store import load_map, save_map
from tests.support.dates import day
from tests.support.git import DATES, RULES, GitRepo, reference, tracked


pytestmark = pytest.mark.usefixtures("isolated_git")


def assert_like_git(top: Path, history: HistoryMap, rule: str, date: str) -> None:
    """Every tracked file's answer in the map is git's own."""
    names = tracked(top)
    assert set(history.changes) == {n.encode() for n in names}
    for name in names:
        expected = reference(top, name, rule, date)
        got = history.changes[name.encode()]
        if expected is None:
            assert isinstance(got, Unknown), (name, got)
        else:
            assert isinstance(got, Known) and (got.commit, got.when) == expected, (name, rule)


def _random_steps(repo: GitRepo, rnd: random.Random, files: list[str], start: int,
                  count: int) -> None:
    """Commits, branches, merges (some reverting, some conflicting), renames."""
    branches = [b.strip(" *") for b in repo.git("branch").splitlines()]
    repo.git("checkout", "-q", "main")
    for step in range(start, start + count):
        action = rnd.random()
        when = day(step + rnd.randint(-6, 2))
        if action < 0.35:
            name = rnd.choice(files)
            repo.write(name, rnd.choice(["v1", "v2", f"s{step}"]))
            repo.commit(f"c{step}", when)
        elif action < 0.42:
            old = rnd.choice(files)
            if (repo.path / old).exists():
                new = f"docs/r{step}.md"
                repo.git("mv", old, new)
                files[files.index(old)] = new
                repo.commit(f"rename {step}", when)
        elif action < 0.55:
            name = f"b{step}"
            repo.git("checkout", "-q", "-b", name, rnd.choice(branches))
            branches.append(name)
        elif action < 0.7:
            repo.git("checkout", "-q", rnd.choice(branches))
        elif len(branches) > 1:
            current = repo.git("rev-parse", "--abbrev-ref", "HEAD").strip()
            others = [b for b in branches if b != current]
            how = rnd.choice([(), (), ("-s", "ours"), ("-X", "theirs")])
            repo.merge(rnd.choice(others), when, *how)
            if repo.git("status", "--porcelain").strip():
                repo.git("merge", "--abort", check=False)
    repo.git("checkout", "-q", "main")
    for step, branch in enumerate(branches[1:], start=start + count):
        repo.merge(branch, day(step), *rnd.choice([(), ("-s", "ours")]))
        if repo.git("status", "--porcelain").strip():
            repo.git("merge", "--abort", check=False)


def test_full_map_agrees_with_git_for_every_file(tmp_path: Path) -> None:
    rnd = random.Random(7)
    repo = GitRepo(tmp_path / "r")
    files = [f"docs/f{i}.md" for i in range(6)]
    for name in files:
        repo.write(name, "0")
    repo.commit("base", day(0))
    _random_steps(repo, rnd, files, 1, 40)
    for rule in RULES:
        for date in DATES:
            history = read_map(repo.path / "docs", HistoryOptions(rule, date))  # type: ignore[arg-type]
            assert history.made == "full" and history.key is not None
            assert_like_git(repo.path, history, rule, date)


def test_brought_forward_equals_a_full_walk(tmp_path: Path) -> None:
    """Maps kept at several HEADs, each brought forward to later ones, always equal a
    full walk of the later HEAD, ignored commits included; under each rule, the same
    repositories (one history read both ways)."""
    for seed in range(4):
        rnd = random.Random(seed)
        repo = GitRepo(tmp_path / f"r{seed}")
        files = [f"docs/f{i}.md" for i in range(6)]
        for name in files:
            repo.write(name, "0")
        repo.commit("base", day(0))
        kept: dict[str, list[HistoryMap]] = {rule: [] for rule in RULES}
        ignored: list[str] = []
        forward = dict.fromkeys(RULES, 0)
        for round_ in range(3):
            _random_steps(repo, rnd, files, 1 + 40 * round_, 25)
            repo.write(rnd.choice(files), f"reformat {round_}")
            ignored.append(repo.commit(f"reformat {round_}", day(40 * round_ + 30)))
            for rule in RULES:
                options = HistoryOptions(rule, "committer", tuple(ignored[:1]))  # type: ignore[arg-type]
                full = read_map(repo.path, options)
                assert full.made == "full"
                for earlier in kept[rule]:
                    if earlier.key is not None and earlier.key.options == options:
                        brought = read_map(repo.path, options, known=earlier)
                        assert brought.made in ("forward", "full")
                        forward[rule] += brought.made == "forward"
                        assert dict(brought.changes) == dict(full.changes), (seed, round_, rule)
                kept[rule].append(full)
        assert all(forward.values()), f"no map was brought forward: {forward}"
        last = kept["first-parent"][-1]
        assert last.key is not None
        assert_like_git(repo.path, read_map(repo.path, HistoryOptions("first-parent")),
                        "first-parent", "committer")


@pytest.mark.parametrize("rule", RULES)
def test_one_new_commit_reads_one_commit(tmp_path: Path, rule: str) -> None:
    repo = GitRepo(tmp_path / "r")
    for i in range(30):
        repo.write(f"docs/p{i}.md", f"{i}")
        repo.commit(f"c{i}", day(i))
    options = HistoryOptions(rule)  # type: ignore[arg-type]
    first = read_map(repo.path, options)
    assert first.commits_read == 30
    same = read_map(repo.path, options, known=first)
    assert same.made == "kept" and same.commits_read == 0
    repo.write("docs/p3.md", "new")
    sha = repo.commit("edit p3", day(40))
    later = read_map(repo.path, options, known=first)
    assert later.made == "forward" and later.commits_read == 1
    assert later.changes[b"docs/p3.md"] == Known(later.changes[b"docs/p3.md"].when, sha)  # type: ignore[union-attr]
    assert dict(later.changes) == dict(read_map(repo.path, options).changes)


def test_a_head_that_is_no_descendant_gets_a_full_walk(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a")
    repo.commit("a", day(1))
    repo.git("checkout", "-q", "-b", "other")
    repo.write("docs/b.md", "b")
    repo.commit("b", day(2))
    options = HistoryOptions()
    on_other = read_map(repo.path, options)
    repo.git("checkout", "-q", "main")
    repo.write("docs/c.md", "c")
    repo.commit("c", day(3))
    back = read_map(repo.path, options, known=on_other)
    assert back.made == "full"
    assert dict(back.changes) == dict(read_map(repo.path, options).changes)
    assert b"docs/b.md" not in back.changes


def test_other_options_are_never_brought_forward(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a")
    repo.commit("a", day(1), author_date=day(0))
    committer = read_map(repo.path, HistoryOptions("first-parent", "committer"))
    author = read_map(repo.path, HistoryOptions("first-parent", "author"), known=committer)
    assert author.made == "full"
    a = author.changes[b"docs/a.md"]
    assert isinstance(a, Known) and a.when.isoformat() == day(0)


def test_store_round_trip(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/café.md", "a")
    repo.write("docs/日本.md", "b")
    repo.commit("one", day(1, zone="-05:00"))
    repo.write("docs/b.md", "b")
    repo.commit("two", day(2, zone="+05:30"))
    options = HistoryOptions("all", "author", ("0" * 40,))
    history = read_map(repo.path, options)
    store = tmp_path / "cache" / "history.json"
    save_map(store, history)
    loaded = load_map(store)
    assert loaded is not None and loaded.key == history.key
    assert dict(loaded.changes) == dict(history.changes)
    assert loaded.map_warnings == history.map_warnings and history.map_warnings  # the unknown SHA's warning
    for change in loaded.changes.values():
        assert isinstance(change, Known)
    assert [p.name for p in store.parent.iterdir()] == ["history.json"]  # no temporary left
    again = read_map(repo.path, options, known=loaded)
    assert again.made == "kept" and any("0000000" in w for w in again.warnings)


@pytest.mark.parametrize("damage", [
    b"", b"not json", b"[]", b'{"format": "mkdocs-sitemap-pro history map", "version": 99}',
    None,  # a valid file with a commit index out of range
])
def test_a_damaged_store_is_as_good_as_none(tmp_path: Path, damage: bytes | None) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a")
    repo.commit("a", day(1))
    store = tmp_path / "history.json"
    save_map(store, read_map(repo.path, HistoryOptions()))
    if damage is None:
        data = json.loads(store.read_bytes())
        data["files"]["docs/a.md"] = 5
        damage = json.dumps(data).encode()
    store.write_bytes(damage)
    assert load_map(store) is None


def test_no_repository_and_no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plain").mkdir()
    outside = read_map(tmp_path / "plain", HistoryOptions())
    assert outside.key is None and outside.default == Unknown("not-a-repo")
    assert GitHistory(outside).last_changed(tmp_path / "plain/a.md") == Unknown("not-a-repo")
    monkeypatch.setenv("PATH", str(tmp_path / "plain"))
    no_git = read_map(tmp_path / "plain", HistoryOptions())
    assert no_git.default == Unknown("no-git") and "git is not installed" in no_git.warnings[0]


def test_lookup_by_path_symlinks_and_unicode_forms(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/real.md", "a")
    os.symlink("real.md", repo.path / "docs/link.md")
    repo.write("docs/caf\u00e9.md", "c")
    sha = repo.commit("one", day(1))
    history = GitHistory(read_map(repo.path, HistoryOptions()))
    assert history.last_changed(repo.path / "docs/link.md") == history.last_changed(
        repo.path / "docs/real.md")
    decomposed = history.last_changed(repo.path / "docs/cafe\u0301.md")
    assert isinstance(decomposed, Known) and decomposed.commit == sha
    assert history.last_changed(tmp_path / "elsewhere.md") == Unknown("untracked")
    assert history.relative(repo.path / "docs/real.md") == "docs/real.md"


def test_a_symlinked_page_is_dated_by_its_target_from_a_map_and_a_kept_one(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("shared/real.md", "a")
    repo.commit("the target", day(1))
    (repo.path / "docs").mkdir()
    os.symlink("../shared/real.md", repo.path / "docs" / "link.md")
    repo.git("add", "docs/link.md")
    repo.commit("the link, later", day(2))
    made = read_map(repo.path, HistoryOptions())
    assert made.links == {b"docs/link.md"}
    store = tmp_path / "history.json"
    save_map(store, made)
    kept = load_map(store)
    assert kept is not None and kept.links == made.links
    for history in (GitHistory(made), GitHistory(kept)):
        target = history.last_changed(repo.path / "shared/real.md")
        assert isinstance(target, Known) and target.when == dt.datetime.fromisoformat(day(1))
        assert history.last_changed(repo.path / "docs/link.md") == target  # not day 2
