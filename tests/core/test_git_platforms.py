"""core.git.platforms: the build platform, from its environment, and its shallow-clone fix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mkdocs_sitemap_pro.core.git.platforms import PLATFORMS, detect, shallow_advice

PLATFORMS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "pages" / "ci.md"  # its platforms table


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.variable)
def test_each_platform_is_found_by_its_variable_and_named_in_the_advice(platform) -> None:  # type: ignore[no-untyped-def]
    environ = {platform.variable: "true", "CI": "true"}
    assert detect(environ) == platform
    advice = shallow_advice(environ)
    assert advice.startswith(f"On {platform.name}, {platform.fix}")
    assert "\n" not in advice and "previous: auto" in advice
    # fetch_history needs a remote: not offered where the clone has none (Vercel).
    assert ("fetch_history: auto" in advice) == platform.remote


def test_the_most_specific_platform_wins_and_false_is_not_set() -> None:
    assert detect({"CI": "true", "GITHUB_ACTIONS": "true"}).name == "GitHub Actions"  # type: ignore[union-attr]
    assert detect({"CI": "1", "READTHEDOCS": "True"}).name == "Read the Docs"  # type: ignore[union-attr]
    assert detect({"GITHUB_ACTIONS": "false", "VERCEL": "0", "NETLIFY": ""}) is None
    assert detect({}) is None


def test_outside_ci_the_advice_names_the_usual_fixes() -> None:
    advice = shallow_advice({})
    for fix in ("fetch-depth: 0", "GIT_DEPTH: 0", "git fetch --unshallow",
                "fetch_history: auto", "previous: auto"):
        assert fix in advice
    assert advice.count(".") >= 1 and "\n" not in advice


def test_the_docs_have_one_row_per_platform() -> None:
    text = PLATFORMS_PAGE.read_text(encoding="utf-8")
    table = text[text.index("| platform | detected by |"):]
    lines = table.splitlines()[2:]
    rows = lines[: next(i for i, line in enumerate(lines) if not line.startswith("|"))]
    assert len(rows) == len(PLATFORMS)
    for row, platform in zip(rows, PLATFORMS):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        name = "any other CI" if platform.variable == "CI" else platform.name
        assert cells[0] == name and cells[1] == f"`{platform.variable}`"
        assert cells[2] == platform.clone
        assert cells[3].replace("\\|", "|") == platform.fix
