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


def _commands() -> list[str]:
    from mkdocs_sitemap_pro.cli.main import parser

    top = parser()
    [commands] = [a for a in top._actions if a.dest == "command"]
    return sorted(commands.choices)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", _commands())
def test_every_command_s_help_ends_with_an_example_of_it(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    shown = capsys.readouterr().out
    example = shown.split("\nexample", 1)[1]
    assert f"\n  mkdocs-sitemap-pro {command} " in example, shown


@pytest.mark.parametrize(("argv", "said"), [
    (["check", "site", "--site_url", "https://example.com/"],
     "--site_url https://example.com/; --site_url: did you mean --site-url?"),
    (["build", "--site_dir", "site"], "--site_dir site; --site_dir: did you mean --site-dir?"),
    (["changes", "a", "b", "--jsn"], "--jsn; --jsn: did you mean --json?"),
    (["indexnow", "site", "--since", "old", "--dry_run"],
     "--dry_run; --dry_run: did you mean --dry-run?"),
])
def test_a_mistyped_option_is_named_in_the_command_s_usage_with_the_one_meant(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: mkdocs-sitemap-pro {argv[0]} "), err
    assert err.splitlines()[-1] == (
        f"mkdocs-sitemap-pro {argv[0]}: error: unrecognized arguments: {said}"), err


@pytest.mark.parametrize("argv", [
    ["build", "-f", "nowhere.yml"],
    ["check", "nowhere"],
    ["changes", "nowhere", "elsewhere"],
    ["indexnow", "nowhere", "--since", "elsewhere"],
    ["versions", "-f", "nowhere.yml"],
])
def test_every_command_s_messages_start_with_its_name(
    argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err and all(line.startswith(f"mkdocs-sitemap-pro {argv[0]}: ")
                       for line in err.splitlines()), err
