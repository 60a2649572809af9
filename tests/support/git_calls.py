"""Counting the git processes a build starts: a ``git`` first on PATH that logs each call."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


class GitCalls:
    """A wrapper script in ``folder`` that appends its arguments to a log, then runs git."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "calls.log"
        real = shutil.which("git")
        assert real, "git is not on PATH"
        script = folder / "git"
        script.write_text(f'#!/bin/sh\necho "$*" >> "{self.log}"\nexec "{real}" "$@"\n')
        script.chmod(0o755)
        self.env = {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}

    def calls(self) -> list[str]:
        """Every call so far (its arguments), oldest first."""
        return self.log.read_text().splitlines() if self.log.exists() else []

    def take(self) -> list[str]:
        """The calls since the last ``take`` (the log is emptied)."""
        calls = self.calls()
        self.log.write_text("")
        return calls


def subcommand(call: str) -> str:
    """The git subcommand of a logged call (after ``-c`` settings, ``-C`` folders and
    options)."""
    words = call.split()
    i = 0
    while i < len(words):
        if words[i] in ("-c", "-C"):
            i += 2
        elif words[i].startswith("-"):
            i += 1
        else:
            return words[i]
    return ""
