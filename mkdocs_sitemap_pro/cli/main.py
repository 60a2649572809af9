"""``mkdocs-sitemap-pro``: the console script, with one subcommand per job.

``main(argv=None)`` parses, calls and returns an exit status (0 fine, 1 problems, 2
could not run), so tests drive it without a subprocess. Subcommands arrive with later
work (``check``, ``build``, ``versions``); each lives in a module of its own here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

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
    args = parser().parse_args(argv)
    if args.command is None:
        parser().print_help(sys.stderr)
        return 2
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)
