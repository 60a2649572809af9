"""Real git repositories with fixed dates, driven by the real ``git`` program.

The environment isolates git from the user's own configuration, so every test sees the
same git whatever machine it runs on. Branches and merges are scripted with the same
fixed dates.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from mkdocs_sitemap_pro.core.git import DateKind, GitHistory, HistoryRule, read_map
from mkdocs_sitemap_pro.core.git.answers import HistoryOptions


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """An environment that isolates git from the user's and the system's configuration."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GIT_") and k not in {"HOME", "XDG_CONFIG_HOME"}
    }
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Test Author",
        GIT_AUTHOR_EMAIL="author@example.com",
        GIT_COMMITTER_NAME="Test Committer",
        GIT_COMMITTER_EMAIL="committer@example.com",
        HOME=os.environ.get("HOME", "/"),
    )
    if extra:
        env.update(extra)
    return env


class GitRepo:
    """A real git repository in a folder, with commits at fixed dates.

    ``commit(date=...)`` sets the committer date to ``date`` and the author date to a
    different moment in a different zone (``author_date``, default: one day earlier at
    +05:30), so tests can tell the two apart.
    """

    def __init__(self, path: Path, *, branch: str = "main") -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", branch)

    def git(self, *args: str, env: dict[str, str] | None = None, check: bool = True) -> str:
        """Run git in the repository and return its standard output."""
        proc = subprocess.run(
            ["git", "-c", "protocol.file.allow=always", *args],
            cwd=self.path,
            env=git_env(env),
            capture_output=True,
            text=True,
        )
        if check and proc.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr}")
        return proc.stdout

    def write(self, relpath: str, content: str = "x\n") -> Path:
        """Write a file (creating folders) without committing it."""
        target = self.path / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        return target

    def commit(
        self,
        message: str,
        date: str,
        *,
        author_date: str | None = None,
        add: bool = True,
        extra_args: tuple[str, ...] = (),
    ) -> str:
        """Commit everything (``git add -A``) at ``date`` (committer) and return the SHA."""
        if add:
            self.git("add", "-A")
        env = {
            "GIT_COMMITTER_DATE": date,
            "GIT_AUTHOR_DATE": author_date or shift_date(date),
        }
        self.git("commit", "-q", "--allow-empty", "-m", message, *extra_args, env=env)
        return self.head()

    def head(self) -> str:
        """HEAD's SHA, read from the files git just wrote (a branch's loose ref, or a
        detached HEAD) without a process; ``git rev-parse`` where they do not say it."""
        git_dir = self.path / ".git"
        try:
            head = (git_dir / "HEAD").read_text(encoding="ascii").strip()
            if head.startswith("ref: "):
                head = (git_dir / head.removeprefix("ref: ")).read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            head = ""
        if len(head) in (40, 64) and all(c in "0123456789abcdef" for c in head):
            return head
        return self.git("rev-parse", "HEAD").strip()

    def merge(self, branch: str, date: str, *args: str, author_date: str | None = None) -> str:
        """Merge ``branch`` with ``--no-ff`` at a fixed date and return the merge's SHA."""
        env = {
            "GIT_COMMITTER_DATE": date,
            "GIT_AUTHOR_DATE": author_date or shift_date(date),
        }
        self.git("merge", "-q", "--no-ff", "--no-edit", *args, branch, env=env, check=False)
        return self.head()


def shift_date(date: str) -> str:
    """An author date that differs from ``date``: one day earlier, in zone +05:30."""
    when = dt.datetime.fromisoformat(date).astimezone(dt.timezone(dt.timedelta(hours=5, minutes=30)))
    return (when - dt.timedelta(days=1)).isoformat()


#: The history rules and date kinds, as the plugin's options spell them.
RULES = ("first-parent", "all")
DATES = ("committer", "author")


def reference(
    top: Path, rel: str, history: str = "first-parent", date: str = "committer"
) -> tuple[str, dt.datetime] | None:
    """git's own answer for one file: (sha, aware datetime) of ``git log -1 ... -- <file>``
    under the rule and date kind, or None if git knows no change of it."""
    placeholder = "%cI" if date == "committer" else "%aI"
    args = ["git", "--literal-pathspecs", "log", "-1", f"--format=%H {placeholder}"]
    if history == "first-parent":
        args.append("--first-parent")
    out = subprocess.run(
        [*args, "--", rel], cwd=top, env=git_env(), capture_output=True, check=True
    ).stdout.decode()
    if not out.strip():
        return None
    sha, iso = out.split()
    return sha, dt.datetime.fromisoformat(iso)


def read_history(folder: Path, *, history: HistoryRule = "first-parent",
                 date: DateKind = "committer", ignore_commits: Sequence[str] = ()) -> GitHistory:
    """The history of ``folder``'s repository by the build's own route: its map
    (``read_map``), looked up by path."""
    return GitHistory(read_map(folder, HistoryOptions(history, date, tuple(ignore_commits))))


def git_date(top: Path, rel: str, history: str = "first-parent", date: str = "committer") -> str:
    """git's own date for one file, as the sitemap writes it (UTC); the file must have one."""
    answer = reference(top, rel, history, date)
    assert answer is not None, f"git log knows no change of {rel}"
    return answer[1].astimezone(dt.timezone.utc).isoformat()


def tracked(top: Path) -> list[str]:
    """Every file HEAD's tree holds, as git names them."""
    out = subprocess.run(
        ["git", "ls-tree", "-r", "-z", "--name-only", "HEAD"],
        cwd=top, env=git_env(), capture_output=True, check=True,
    ).stdout.decode()
    return [name for name in out.split("\0") if name]


def hanging_git(folder: Path, subcommand: str) -> dict[str, str]:
    """The environment of a ``git`` (written into ``folder``) that runs the real one,
    except ``subcommand``, which hangs: the hanging shell's process id in
    ``folder/git.pid``, its ``sleep``'s in ``folder/sleep.pid``."""
    folder.mkdir(parents=True, exist_ok=True)
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True,
                          check=True).stdout.strip()
    script = folder / "git"
    script.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do\n'
        f'  if [ "$a" = {subcommand} ]; then\n'
        f'    echo $$ > "{folder}/git.pid"; sleep 600 & echo $! > "{folder}/sleep.pid"; wait\n'
        "    exit 1\n"
        "  fi\n"
        "done\n"
        f'exec "{real}" "$@"\n'
    )
    script.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def alive(pid_file: Path) -> bool:
    """Whether the process whose id ``pid_file`` holds still runs (a zombie does not)."""
    try:
        with open(f"/proc/{int(pid_file.read_text())}/status") as status:
            return "State:\tZ" not in status.read()
    except FileNotFoundError:
        return False
