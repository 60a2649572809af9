"""The ``build`` marker's rule (tests/support/build_marker.py) and its guard: code that
reaches a process or a build is found through helpers, classes, late imports and ``os``;
code that does not is left to the quick loop; a process the rule cannot see fails."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from tests.support.build_marker import ProcessGuard, reaching

SAMPLES = '''
import os
import subprocess

from tests.support.git import GitRepo


def pure(items):
    return sorted(items)


def calls_pure(items):
    return pure(items)


def runs_git(path):
    return subprocess.run(["git", "status"], cwd=path)


def through_a_helper(path):
    return runs_git(path)


def through_os():
    return os.system("true")


def makes_a_repository(tmp_path):
    return GitRepo(tmp_path)


def imports_mkdocs_late():
    from mkdocs.commands.build import build
    return build


def runs_the_package_git():
    from mkdocs_sitemap_pro.core.git.process import GitProcesses
    return GitProcesses


class Holder:
    def quick(self):
        return calls_pure([2, 1])

    def slow(self):
        return through_a_helper(".")


def reads_its_environment():
    return os.environ.get("HOME")
'''


def _samples() -> dict[str, Any]:
    """The samples as a module of the tests would hold them (its code is followed)."""
    namespace: dict[str, Any] = {"__name__": "tests.samples"}
    exec(compile(SAMPLES, "<samples>", "exec"), namespace)
    return namespace


def test_what_reaches_a_process_is_found_and_nothing_else() -> None:
    samples = _samples()
    names = ["pure", "calls_pure", "runs_git", "through_a_helper", "through_os",
             "makes_a_repository", "imports_mkdocs_late", "runs_the_package_git",
             "Holder", "reads_its_environment"]
    marked = reaching([samples[name] for name in names])
    assert {name for name in names if id(samples[name]) in marked} == {
        "runs_git", "through_a_helper", "through_os", "makes_a_repository",
        "imports_mkdocs_late", "runs_the_package_git", "Holder"}


def test_a_process_the_rule_cannot_see_fails_the_test(process_guard: ProcessGuard) -> None:
    # A module named at run time: the rule reads no strings, the guard stops the process.
    hidden = importlib.import_module("sub" + "process")
    with pytest.raises(RuntimeError, match="is not marked build but started a process"):
        hidden.run(["true"])
    assert process_guard.caught and "subprocess.Popen" in process_guard.caught[0]
    process_guard.caught.clear()  # this test's process was stopped on purpose
