"""The README's test command is the one ``.ci/run`` runs, and it runs on every core
(pytest-xdist, a dependency of the ``test`` extra) (issue 57)."""

from __future__ import annotations

import re
import tomllib

from tests.support import REPO


def _readme_test_command() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"# 2\. Run the tests[^\n]*\n(python -m pytest[^\n]*)\n", readme)
    assert found, "the README's set-up names no test command"
    return found.group(1)


def test_ci_runs_the_readmes_test_command_on_every_core() -> None:
    command = _readme_test_command()
    assert re.search(r"\s-n (auto|2)\b", command), command
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines(), command
    extra = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]["test"]
    assert any(re.match(r"pytest-xdist\b", req) for req in extra), extra
