"""``mkdocs-sitemap-pro build``: the sitemap for a site that another builder wrote.

Arguments and exit status only; the work is ``plugin.standalone.run.build_sitemap``.
Exit 0 fine, 1 writing failed or (with ``--strict``) there were warnings, 2 the
configuration cannot work (the message names the option).
"""

from __future__ import annotations

import argparse
import sys

from mkdocs_sitemap_pro.cli import WithExamples
from mkdocs_sitemap_pro.core.words import counted, printable
from mkdocs_sitemap_pro.plugin.standalone.run import (
    ConfigError,
    WriteFailed,
    build_sitemap,
    console_log,
)

__all__ = ["register", "run"]

_NAME = "mkdocs-sitemap-pro build"  # what each message of the command starts with


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``build`` subcommand."""
    command = subparsers.add_parser(
        "build",
        help="write the sitemap after another builder (Zensical) wrote the site",
        description=(
            "Write the sitemap tree and the robots.txt line into a site that another "
            "builder (Zensical, say) wrote from zensical.toml or mkdocs.yml, read as data "
            "(no theme, plugin or Markdown extension of the site is imported), with the "
            "plugin's options ([project.plugins.sitemap-pro] in zensical.toml, the "
            "sitemap-pro entry under plugins: in mkdocs.yml) and rules."
        ),
        epilog=(
            "example: after Zensical, in the folder of zensical.toml, before the upload:\n"
            "  zensical build --clean\n"
            "  mkdocs-sitemap-pro build --strict"
        ),
        formatter_class=WithExamples,
    )
    command.add_argument(
        "-f", "--config-file", metavar="FILE",
        help="zensical.toml or mkdocs.yml (default: the first of ./zensical.toml, "
             "./mkdocs.yml, ./mkdocs.yaml, as Zensical looks)")
    command.add_argument("-d", "--site-dir", metavar="DIR",
                         help="the built site (default: site_dir of the config file)")
    command.add_argument("-s", "--strict", action="store_true", help="exit 1 if there were warnings")
    command.add_argument("-v", "--verbose", action="store_true",
                         help="say more: per page, the file that decided its date")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``build``; return the exit status."""
    with console_log(args.verbose) as counter:
        try:
            build_sitemap(args.config_file, args.site_dir)
        except ConfigError as error:  # it may quote a value given (a path holding a NUL)
            print(printable(f"{_NAME}: {error}"), file=sys.stderr)
            return 2
        except WriteFailed as error:
            print(printable(f"{_NAME}: {error}"), file=sys.stderr)
            return 1
    warnings = sum(count for _level, count in counter.get_counts())
    if args.strict and warnings:
        print(f"{_NAME}: {counted(warnings, 'warning')} in strict mode", file=sys.stderr)
        return 1
    return 0
