"""git_history: every answer agrees with git's own per-file answer, on real repositories.

Each history case builds a real repository with ``GitRepo`` and compares, for every
file, both rules and both date kinds, ``GitHistory`` against
``git log -1 [--first-parent] --format=%H %cI|%aI -- <file>`` run for that one file.
"""

from __future__ import annotations

import random
import subprocess
import time
from datetime import datetime
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git import (
    GitHistory,
    Known,
    Unknown,
    read_ignore_revs_file,
)
from tests.support.dates import day
from tests.support.git import DATES, RULES, GitRepo, git_env, read_history, reference, tracked



pytestmark = pytest.mark.usefixtures("isolated_git")


def assert_matches_git(top: Path, folder: Path | None = None, rels: list[str] | None = None
                       ) -> dict[tuple[str, str], GitHistory]:
    """Compare every tracked file (or ``rels``), both rules, both dates, with git."""
    folder = folder or top
    rels = rels if rels is not None else tracked(top)
    paths = [top / rel for rel in rels]
    seen = {}
    for history in RULES:
        for date in DATES:
            result = read_history(folder, history=history, date=date)
            assert result.warnings == ()
            for rel, path in zip(rels, paths):
                expected = reference(top, rel, history, date)
                got = result.last_changed(path)
                assert expected is not None, rel
                assert isinstance(got, Known), (rel, history, date, got)
                assert (got.commit, got.when) == expected, (rel, history, date)
                assert got.when.utcoffset() == expected[1].utcoffset(), (rel, history, date)
            seen[history, date] = result
    return seen


# -- histories ------------------------------------------------------------------------


def test_linear_history(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a1")
    repo.write("docs/b.md", "b1")
    repo.commit("one", day(1))
    repo.write("docs/a.md", "a2")
    repo.commit("two", day(2, zone="-07:00"))
    repo.write("docs/c.md", "c1")
    repo.write("README", "r")
    repo.commit("three", day(3))
    repo.commit("empty", day(4))
    results = assert_matches_git(repo.path)
    known = results["first-parent", "committer"].last_changed(repo.path / "docs/a.md")
    assert isinstance(known, Known) and known.when.isoformat() == day(2, zone="-07:00")


def test_merges_with_older_branch_commits(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a1")
    repo.write("docs/b.md", "b1")
    repo.write("docs/c.md", "c1")
    repo.commit("base", day(1))
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("docs/b.md", "b2")
    repo.commit("feature b (old)", day(2))
    repo.git("checkout", "-q", "main")
    repo.write("docs/a.md", "a2")
    repo.commit("main a", day(5))
    repo.merge("feature", day(6))
    repo.git("checkout", "-q", "-b", "later", "HEAD~1")
    repo.write("docs/c.md", "c2")
    repo.commit("later c", day(3))
    repo.git("checkout", "-q", "main")
    repo.merge("later", day(7))
    results = assert_matches_git(repo.path)
    # The merge dates the change under first-parent, the branch commit under all.
    fp = results["first-parent", "committer"].last_changed(repo.path / "docs/b.md")
    al = results["all", "committer"].last_changed(repo.path / "docs/b.md")
    assert isinstance(fp, Known) and isinstance(al, Known)
    assert fp.when > al.when


def test_merge_discarding_side_changes_with_ours(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a1")
    repo.write("docs/b.md", "b1")
    repo.commit("base", day(1))
    repo.git("checkout", "-q", "-b", "side")
    repo.write("docs/a.md", "side a")
    repo.write("docs/new.md", "only on side")
    repo.commit("side", day(4))
    repo.git("checkout", "-q", "main")
    repo.write("docs/b.md", "b2")
    repo.commit("main b", day(2))
    repo.merge("side", day(5), "-s", "ours")
    assert_matches_git(repo.path)


def test_merge_resolving_a_conflict_with_new_content(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "base\n")
    repo.write("docs/b.md", "b\n")
    repo.commit("base", day(1))
    repo.git("checkout", "-q", "-b", "side")
    repo.write("docs/a.md", "side\n")
    repo.write("docs/b.md", "b side\n")
    repo.commit("side", day(2))
    repo.git("checkout", "-q", "main")
    repo.write("docs/a.md", "main\n")
    repo.commit("main", day(3))
    repo.merge("side", day(4))
    repo.write("docs/a.md", "resolved, new content\n")
    merge = repo.commit("resolve", day(4))
    results = assert_matches_git(repo.path)
    got = results["all", "committer"].last_changed(repo.path / "docs/a.md")
    assert isinstance(got, Known) and got.commit == merge


def test_interleaved_branch_dates_and_skewed_clocks(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    for name in "abcd":
        repo.write(f"docs/{name}.md", name)
    repo.commit("base", day(1))
    repo.git("checkout", "-q", "-b", "x")
    repo.write("docs/a.md", "x1")
    repo.commit("x1", day(2))
    repo.git("checkout", "-q", "main")
    repo.write("docs/b.md", "m1")
    repo.commit("m1", day(3))
    repo.git("checkout", "-q", "x")
    repo.write("docs/c.md", "x2")
    repo.commit("x2", day(4))
    repo.write("docs/b.md", "x3")
    repo.commit("x3 (clock behind its parent)", day(0))
    repo.git("checkout", "-q", "main")
    repo.write("docs/d.md", "m2")
    repo.commit("m2", day(5))
    repo.merge("x", day(6))
    repo.write("docs/b.md", "m3")  # conflict on b.md? b differs on both sides
    repo.commit("finish", day(6))
    assert_matches_git(repo.path)


def test_octopus_merge(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    for name in "abc":
        repo.write(f"docs/{name}.md", name)
    repo.commit("base", day(1))
    for n, name in enumerate("abc"):
        repo.git("checkout", "-q", "-b", f"t{name}", "main")
        repo.write(f"docs/{name}.md", f"{name} on its branch")
        repo.commit(f"t{name}", day(2 + n))
    repo.git("checkout", "-q", "main")
    repo.write("docs/a.md", "a on main")
    repo.commit("main a", day(1, hour=18))
    repo.merge("tb", day(6), "tc")
    assert len(repo.git("log", "-1", "--format=%p").split()) == 3
    assert_matches_git(repo.path)


def test_rename_and_delete_then_readd(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/old.md", "same content\n")
    repo.write("docs/gone.md", "v1")
    repo.commit("base", day(1))
    repo.git("mv", "docs/old.md", "docs/new.md")
    repo.commit("rename", day(2))
    (repo.path / "docs/gone.md").unlink()
    repo.commit("delete", day(3))
    repo.write("docs/gone.md", "v1")
    repo.commit("re-add", day(4))
    results = assert_matches_git(repo.path)
    new = results["first-parent", "committer"].last_changed(repo.path / "docs/new.md")
    assert isinstance(new, Known) and new.when.isoformat() == day(2)


def test_random_histories_agree_with_git(tmp_path: Path) -> None:
    """Random branches, merges (plain, -s ours, conflicts), skewed dates, octopus."""
    for seed in range(6):
        rnd = random.Random(seed)
        repo = GitRepo(tmp_path / f"r{seed}")
        files = [f"docs/f{i}.md" for i in range(6)]
        for name in files:
            repo.write(name, "0")
        repo.commit("base", day(0))
        branches = ["main"]
        current = "main"
        for step in range(1, 45):
            action = rnd.random()
            when = day(step + rnd.randint(-6, 2))
            if action < 0.4:
                name = rnd.choice(files)
                repo.write(name, rnd.choice(["v1", "v2", "v3", f"s{step}"]))
                repo.commit(f"c{step}", when)
            elif action < 0.55:
                current = f"b{step}"
                repo.git("checkout", "-q", "-b", current, rnd.choice(branches))
                branches.append(current)
            elif action < 0.7:
                current = rnd.choice(branches)
                repo.git("checkout", "-q", current)
            elif len(branches) > 1:
                others = [b for b in branches if b != current]
                how = rnd.choice([(), (), ("-s", "ours"), ("-X", "theirs"), ("-X", "ours")])
                if rnd.random() < 0.15 and len(others) >= 2:
                    one, two = rnd.sample(others, 2)
                    repo.merge(one, when, two)  # an octopus merge
                    repo.git("merge", "--abort", check=False)
                else:
                    repo.merge(rnd.choice(others), when, *how)
                _resolve(repo, rnd, files, step, when)
        repo.git("checkout", "-q", "main")
        for step, branch in enumerate(branches[1:], start=50):
            how = rnd.choice([(), ("-s", "ours"), ("-X", "theirs")])
            when = day(step + rnd.randint(-30, 0))
            repo.merge(branch, when, *how)
            _resolve(repo, rnd, files, step, when)
        assert_matches_git(repo.path)


def _resolve(repo: GitRepo, rnd: random.Random, files: list[str], step: int, when: str
             ) -> None:
    """After a merge that stopped on conflicts: abort it, or commit new content."""
    if not repo.git("status", "--porcelain").strip():
        return
    if rnd.random() < 0.3:
        repo.git("merge", "--abort", check=False)
    else:
        for name in rnd.sample(files, 3):
            repo.write(name, rnd.choice(["v1", "v2", f"m{step}"]))
        repo.commit(f"resolve {step}", when)


# -- ignore_commits -------------------------------------------------------------------


def _reformat_repo(tmp_path: Path) -> tuple[GitRepo, dict[str, str]]:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a")
    repo.write("docs/b.md", "b")
    shas = {"base": repo.commit("base", day(1))}
    repo.write("docs/a.md", "a2")
    shas["edit"] = repo.commit("edit a", day(2))
    repo.write("docs/a.md", "a2 reformatted")
    repo.write("docs/b.md", "b reformatted")
    shas["fmt"] = repo.commit("reformat", day(3))
    return repo, shas


@pytest.mark.parametrize("history", RULES)
def test_ignored_reformatting_commit(tmp_path: Path, history: str) -> None:
    repo, shas = _reformat_repo(tmp_path)
    a, b = repo.path / "docs/a.md", repo.path / "docs/b.md"
    for ignore in ([shas["fmt"]], [shas["fmt"][:7]], [shas["fmt"].upper()]):
        result = read_history(repo.path / "docs", history=history, ignore_commits=ignore)
        assert result.warnings == ()
        assert result.last_changed(a) == Known(datetime.fromisoformat(day(2)), shas["edit"])
        assert result.last_changed(b) == Known(datetime.fromisoformat(day(1)), shas["base"])
    everything = read_history(repo.path, history=history,
                              ignore_commits=[shas["fmt"], shas["base"]])
    assert everything.last_changed(b) == Unknown("ignored")


def test_ignore_revs_file_and_unknown_sha(tmp_path: Path) -> None:
    repo, shas = _reformat_repo(tmp_path)
    revs = repo.path / ".git-blame-ignore-revs"
    revs.write_text(
        "\ufeff# Reformatting\n\n" + shas["fmt"] + "  # black\n   \n# done\ndeadbeefcafe\n",
        encoding="utf-8",
    )
    assert read_ignore_revs_file(revs) == [shas["fmt"], "deadbeefcafe"]
    a = repo.path / "docs/a.md"
    result = read_history(repo.path, ignore_commits=read_ignore_revs_file(revs))
    assert result.last_changed(a) == Known(datetime.fromisoformat(day(2)), shas["edit"])
    assert len(result.warnings) == 1 and "deadbeefcafe" in result.warnings[0]
    bad = read_history(repo.path, ignore_commits=["not-a-sha", "abc"])
    assert len(bad.warnings) == 2 and isinstance(bad.last_changed(a), Known)


def test_ignored_merge_under_both_rules(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a")
    base = repo.commit("base", day(1))
    repo.git("checkout", "-q", "-b", "fmt")
    repo.write("docs/a.md", "a reformatted")
    repo.commit("reformat on a branch", day(2))
    repo.git("checkout", "-q", "main")
    merge = repo.merge("fmt", day(3))
    a = repo.path / "docs/a.md"
    for history in RULES:
        result = read_history(repo.path, history=history, ignore_commits=[merge])
        assert result.last_changed(a) == Known(datetime.fromisoformat(day(1)), base)


# -- repository shapes ----------------------------------------------------------------


def test_shallow_clone(tmp_path: Path) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("docs/old.md", "old")
    origin.write("docs/mid.md", "mid")
    origin.write("docs/new.md", "n1")
    origin.commit("one", day(1))
    origin.write("docs/mid.md", "mid2")
    origin.commit("two", day(2))
    origin.write("docs/new.md", "n2")
    origin.commit("three", day(3))
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{origin.path}", str(tmp_path / "c")],
        env=git_env(), check=True, capture_output=True,
    )
    clone = tmp_path / "c"
    paths = [clone / "docs/old.md", clone / "docs/mid.md", clone / "docs/new.md"]
    for history in RULES:
        result = read_history(clone / "docs", history=history)
        assert len(result.warnings) == 1
        assert "fetch-depth: 0" in result.warnings[0] and "--unshallow" in result.warnings[0]
        assert result.last_changed(paths[0]) == Unknown("shallow")
        assert result.last_changed(paths[1]) == Unknown("shallow")  # the boundary commit
        expected = reference(clone, "docs/new.md", history, "committer")
        got = result.last_changed(paths[2])
        assert isinstance(got, Known) and (got.commit, got.when) == expected


def test_uncommitted_untracked_ignored_and_outside(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write(".gitignore", "docs/skip.md\n")
    repo.write("docs/a.md", "a")
    repo.commit("base", day(1))
    repo.write("docs/a.md", "edited, not committed")
    repo.write("docs/new.md", "untracked")
    repo.write("docs/staged.md", "staged only")
    repo.git("add", "docs/staged.md")
    repo.write("docs/skip.md", "ignored by git")
    outside = tmp_path / "elsewhere.md"
    outside.write_text("x")
    paths = [repo.path / f"docs/{n}.md" for n in ("a", "new", "staged", "skip")] + [outside]
    for history in RULES:
        result = read_history(repo.path / "docs", history=history)
        assert result.warnings == ()
        assert result.last_changed(paths[0]) == Known(datetime.fromisoformat(day(1)),
                                                      repo.git("rev-parse", "HEAD").strip())
        for path in paths[1:]:
            assert result.last_changed(path) == Unknown("untracked")
        assert result.last_changed(tmp_path / "never-passed.md") == Unknown("untracked")


def test_unusual_file_names(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    names = [
        "docs/with space.md", "docs/a&b.md", "docs/quote'\".md", "docs/caf\u00e9.md",
        "docs/cafe\u0301 nfd.md", "docs/new\nline.md", "docs/tab\there.md",
        "docs/\u65e5\u672c.md", "docs/star*[x].md", "docs/\nlead.md", "docs/    spaces.md",
    ]
    for i, name in enumerate(names):
        repo.write(name, f"{i}")
        repo.commit(f"add {i}", day(i + 1))
    repo.write("docs/with space.md", "again")
    repo.commit("", day(30), extra_args=("--allow-empty-message",))
    assert_matches_git(repo.path, repo.path / "docs", names)


def test_docs_deep_in_repo(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("src/code.py", "1")
    repo.write("project/site/docs/index.md", "i")
    repo.write("project/site/docs/guide/deep.md", "d")
    repo.commit("base", day(1))
    repo.git("checkout", "-q", "-b", "f")
    repo.write("project/site/docs/guide/deep.md", "d2")
    repo.commit("f", day(2))
    repo.git("checkout", "-q", "main")
    repo.write("src/code.py", "2")
    repo.commit("code", day(3))
    repo.merge("f", day(4))
    docs = repo.path / "project/site/docs"
    rels = ["project/site/docs/index.md", "project/site/docs/guide/deep.md"]
    assert_matches_git(repo.path, docs, rels)


def test_docs_folder_is_a_submodule(tmp_path: Path) -> None:
    sub = GitRepo(tmp_path / "docs-origin")
    sub.write("index.md", "i")
    sub.commit("docs one", day(1))
    sub.write("index.md", "i2")
    sub.commit("docs two", day(2))
    outer = GitRepo(tmp_path / "outer")
    outer.write("README", "r")
    outer.commit("outer", day(10))
    outer.git("submodule", "add", "-q", str(sub.path), "docs")
    outer.commit("add docs", day(11))
    index = outer.path / "docs/index.md"
    for history in RULES:
        result = read_history(outer.path / "docs", history=history)
        got = result.last_changed(index)
        assert isinstance(got, Known) and got.when.isoformat() == day(2)
        # Read from the outer repository, a file inside the submodule is not tracked.
        assert read_history(outer.path).last_changed(index) == Unknown("untracked")


def test_worktree_and_detached_head(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/a.md", "a")
    first = repo.commit("one", day(1))
    repo.write("docs/a.md", "a2")
    repo.commit("two", day(2))
    repo.git("worktree", "add", "-q", "--detach", str(tmp_path / "wt"), first)
    in_tree = tmp_path / "wt/docs/a.md"
    for history in RULES:
        result = read_history(tmp_path / "wt/docs", history=history)
        assert result.warnings == ()
        assert result.last_changed(in_tree) == Known(datetime.fromisoformat(day(1)), first)
    repo.git("checkout", "-q", "--detach", "HEAD~1")
    result = read_history(repo.path)
    assert result.warnings == ()
    assert result.last_changed(repo.path / "docs/a.md") == Known(
        datetime.fromisoformat(day(1)), first
    )


def test_symlinked_page_is_dated_by_its_target(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("shared/page.md", "p")
    target = repo.commit("shared", day(1))
    repo.write("docs/other.md", "o")
    repo.commit("other", day(2))
    link = repo.path / "docs/page.md"
    link.symlink_to(repo.path / "shared/page.md")
    result = read_history(repo.path / "docs")
    assert result.last_changed(link) == Known(datetime.fromisoformat(day(1)), target)


def test_repository_troubles_never_raise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    empty = GitRepo(tmp_path / "empty")
    empty.write("docs/a.md", "a")
    unborn = empty.path / "docs/a.md"
    result = read_history(empty.path / "docs")
    assert result.last_changed(unborn) == Unknown("no-commits")
    assert len(result.warnings) == 1 and "no commits" in result.warnings[0]

    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.md").write_text("a")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    result = read_history(plain)
    assert result.last_changed(plain / "a.md") == Unknown("not-a-repo")
    assert len(result.warnings) == 1 and "not inside a git repository" in result.warnings[0]

    nogit = tmp_path / "bin"
    nogit.mkdir()
    monkeypatch.setenv("PATH", str(nogit))
    result = read_history(plain)
    assert result.last_changed(plain / "a.md") == Unknown("no-git")
    assert len(result.warnings) == 1 and "git" in result.warnings[0]


def test_immune_to_user_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("docs/caf\u00e9 x.md", "1")
    repo.write("docs/b.md", "1")
    repo.commit("one", day(1))
    repo.git("checkout", "-q", "-b", "s")
    repo.git("mv", "docs/b.md", "docs/c.md")
    repo.commit("rename", day(2))
    repo.git("checkout", "-q", "main")
    repo.merge("s", day(3))
    repo.git("notes", "add", "-m", "a note")
    config = tmp_path / "hostile.gitconfig"
    config.write_text(
        "[core]\n quotePath = true\n[diff]\n relative = true\n renames = copies\n"
        " external = false\n[log]\n showRoot = false\n decorate = full\n showSignature = true\n"
        " date = relative\n abbrevCommit = true\n[color]\n ui = always\n[format]\n"
        " pretty = oneline\n[i18n]\n logOutputEncoding = ISO-8859-1\n[notes]\n"
        " displayRef = refs/notes/*\n",
        encoding="utf-8",
    )
    expected = {key: (r.last_changed(repo.path / "docs/c.md"))
                for key, r in assert_matches_git(repo.path, repo.path / "docs").items()}
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_PAGER", "false")
    for history in RULES:
        for date in DATES:
            result = read_history(repo.path / "docs", history=history, date=date)
            assert result.last_changed(repo.path / "docs/c.md") == expected[history, date]
            assert isinstance(result.last_changed(repo.path / "docs/caf\u00e9 x.md"), Known)


# -- one pass, early stop -------------------------------------------------------------


def page(i: int) -> str:
    """The name of file ``i`` in a fast-imported history (100 files a folder)."""
    return f"docs/d{i // 100}/f{i}.md"


def fast_import_history(path: Path, commits: int, files: int, *, tail: int = 0) -> None:
    """A linear history made with ``git fast-import``: commit i changes ``page(i % files)``;
    then ``tail`` commits change ``docs/hot-<j>.md``."""
    GitRepo(path)
    lines: list[str] = []
    for i in range(commits + tail):
        when = 1_600_000_000 + i * 60
        lines += [
            "commit refs/heads/main",
            f"mark :{i + 1}",
            f"author A <a@x> {when - 3600} +0530",
            f"committer C <c@x> {when} -0200",
            "data 2\nc",
        ]
        if i:
            lines.append(f"from :{i}")
        name = f"docs/hot-{i - commits}.md" if i >= commits else page(i % files)
        lines += [f"M 100644 inline {name}", f"data {len(str(i))}\n{i}"]
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, env=git_env(), check=True,
                   input="\n".join(lines).encode() + b"\n")
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=path, env=git_env(),
                   check=True)


def test_the_walk_stops_once_every_file_is_answered(tmp_path: Path) -> None:
    """Commit i changes file i % 300, then five commits add hot files: every file last
    changed in the newest 305 commits (the oldest, f200, by commit 4700)."""
    path = tmp_path / "big"
    fast_import_history(path, 5000, 300, tail=5)
    for history in RULES:
        result = read_history(path / "docs", history=history)
        assert result.map.commits_read == 5005 - 4700, (history, result.map.commits_read)
        for name in ("docs/hot-4.md", page(0), page(200)):
            assert isinstance(result.last_changed(path / name), Known)


@pytest.mark.slow
def test_large_history_agrees_and_is_fast(tmp_path: Path) -> None:
    path = tmp_path / "huge"
    fast_import_history(path, 50_000, 2000)
    pages = [path / page(i) for i in range(2000)]
    for history in RULES:
        start = time.perf_counter()
        result = read_history(path / "docs", history=history)
        assert time.perf_counter() - start < 60
        for i in (0, 1, 999, 1999):
            expected = reference(path, page(i), history, "committer")
            got = result.last_changed(pages[i])
            assert isinstance(got, Known) and (got.commit, got.when) == expected
