"""The command line: --version, --help, no command; the console script and ``python -m``."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from mkdocs_sitemap_pro import __version__
from mkdocs_sitemap_pro.cli.main import main


def test_version_is_the_installed_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"mkdocs-sitemap-pro {version('mkdocs-sitemap-pro')}\n"
    assert __version__ == version("mkdocs-sitemap-pro")


def test_help_and_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "usage: mkdocs-sitemap-pro" in capsys.readouterr().out
    assert main([]) == 2  # nothing to do is "could not run", with the help on stderr
    assert "usage: mkdocs-sitemap-pro" in capsys.readouterr().err


def test_unknown_command_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["frobnicate"])
    assert stop.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "mkdocs_sitemap_pro", "--version"],
        [str(Path(sys.executable).parent / "mkdocs-sitemap-pro"), "--version"],
    ],
    ids=["python -m", "console script"],
)
def test_both_entry_points_run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"mkdocs-sitemap-pro {__version__}\n"
