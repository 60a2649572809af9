"""``mkdocs-sitemap-pro``: the console script, with one subcommand per job.

``main(argv=None)`` parses, calls and returns an exit status (0 fine, 1 problems, 2
could not run), so tests drive it without a subprocess. Subcommands arrive with later
work (``check``, ``build``, ``versions``); each lives in a module of its own here.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from mkdocs_sitemap_pro import __version__
from mkdocs_sitemap_pro.cli import build, changes, check, indexnow, versions

__all__ = ["main"]

PROG = "mkdocs-sitemap-pro"


def parser() -> argparse.ArgumentParser:
    """The argument parser, with every subcommand registered."""
    top = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Correct sitemaps for MkDocs sites. As an MkDocs plugin, add `- sitemap-pro` "
            "to the plugins of mkdocs.yml; this command holds the tools around it."
        ),
    )
    top.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    versions.register(commands)
    check.register(commands)
    build.register(commands)
    changes.register(commands)
    indexnow.register(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    top = parser()
    args, unknown = top.parse_known_args(argv)
    if unknown:  # said by the subcommand, with its usage and the option meant
        _unrecognized(top, args.command, unknown)
    if args.command is None:
        top.print_help(sys.stderr)
        return 2
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


def _unrecognized(
    top: argparse.ArgumentParser, command: str | None, unknown: list[str]
) -> NoReturn:
    """Exit 2 naming the arguments no option takes, in the subcommand's usage, with the
    option meant where one is close (``--site_url``: ``did you mean --site-url?``)."""
    where = _subcommand(top, command) or top
    options = [name for action in where._actions for name in action.option_strings
               if name.startswith("--")]
    meant = []
    for argument in unknown:
        flag = argument.split("=", 1)[0]
        if not flag.startswith("-"):
            continue
        close = difflib.get_close_matches(flag.replace("_", "-").lower(), options, n=1)
        if close:
            meant.append(f"{flag}: did you mean {close[0]}?")
    where.error("; ".join([f"unrecognized arguments: {' '.join(unknown)}", *meant]))


def _subcommand(top: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser | None:
    """The parser of ``command``."""
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]  # type: ignore[no-any-return]
    return None
