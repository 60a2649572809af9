"""``mkdocs-sitemap-pro check SITE_DIR_OR_URL``: validate any sitemap tree.

Plain text for people by default, ``--json`` for machines. Exit status 0 (no problem),
1 (errors found, or warnings under ``--strict``), 2 (the tree could not be checked).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from mkdocs_sitemap_pro.cli.changes import files, seconds
from mkdocs_sitemap_pro.cli import WithExamples
from mkdocs_sitemap_pro.core.check import CheckError, CheckOptions, Report, check
from mkdocs_sitemap_pro.core.check.run import PROGRESS_EVERY
from mkdocs_sitemap_pro.core.urls import redact_credentials
from mkdocs_sitemap_pro.core.words import counted as _plural
from mkdocs_sitemap_pro.core.words import printable, printable_json

__all__ = ["register", "run"]


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``check`` subcommand."""
    command = commands.add_parser(
        "check",
        help="validate a sitemap tree (a built site's folder, a sitemap file or a URL)",
        description=(
            "Follow a sitemap tree from robots.txt (or a sitemap file given directly), .gz "
            "included, and report every rule of the sitemaps.org protocol and Google's "
            "guidance it breaks. For a local site folder, also check that each listed URL "
            "is a page that wants indexing, and count built pages missing from the sitemap."
        ),
        epilog=(
            "examples: the site MkDocs just built, failing on warnings too; a live site,\n"
            "from its robots.txt:\n"
            "  mkdocs-sitemap-pro check --strict site/\n"
            "  mkdocs-sitemap-pro check https://example.com/"
        ),
        formatter_class=WithExamples,
    )
    command.add_argument("target", metavar="SITE_DIR_OR_URL",
                         help="a built site's folder, a sitemap file, or an http(s) URL")
    command.add_argument("--site-url", metavar="URL",
                         help="the URL the folder is published at (default: read from the "
                              "folder's robots.txt; for a URL, the URL's folder)")
    command.add_argument("--json", action="store_true", help="print the report as one JSON object on one line "
                              "(JSON Lines, as changes --json)")
    command.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    command.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                         help="the most each file fetched over HTTP may take, whole "
                              "(default: 10)")
    command.add_argument("--max-files", type=files, default=1_000, metavar="N",
                         help="sitemap files followed at most (default: 1000)")
    command.add_argument("--progress", type=_seconds, default=PROGRESS_EVERY, metavar="SECONDS",
                         help="while a large tree is checked, a line on stderr at most every "
                              f"SECONDS, the first after SECONDS (default: {PROGRESS_EVERY:g}; "
                              "0: never)")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check, print the report, return the exit status."""
    options = CheckOptions(site_url=args.site_url, timeout=args.timeout,
                           max_files=args.max_files,
                           progress=_say if args.progress > 0 else None,
                           progress_every=args.progress)
    try:
        report = check(args.target, options)
    except CheckError as error:
        reason = redact_credentials(str(error))  # a URL's user information is never printed
        if args.json:
            print(json.dumps({"target": redact_credentials(args.target), "status": 2,
                              "error": reason}))
        print(printable(f"mkdocs-sitemap-pro check: could not check: {reason}"), file=sys.stderr)
        return 2
    # --json is JSON Lines, as changes --json is: the report is one object on one line.
    text = printable_json(report.as_dict(args.strict)) if args.json \
        else _text(report)
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `check … | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return report.status(args.strict)


def _seconds(value: str) -> float:
    """A number of seconds, 0 or more and finite (argparse names the option otherwise)."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds, 0 or more")
    return seconds


def _say(line: str) -> None:
    """A progress line, on stderr (stdout holds the report)."""
    print(printable(f"mkdocs-sitemap-pro check: {line}"), file=sys.stderr, flush=True)


def _text(report: Report) -> str:
    """The report for people, one line each (what a line quotes of a sitemap, a
    robots.txt or a server with every control character as ``\\xNN``)."""
    lines = [f"{report.target}: {_plural(len(report.files), 'sitemap file')}, "
             f"{_plural(report.url_count, 'URL')}"]
    for finding in report.shown():
        lines.append(f"{finding.severity:<7} {finding.rule:<19} {finding.file}: {finding.message}")
    if report.findings:
        lines.append(f"{_plural(len(report.errors), 'error')}, "
                     f"{_plural(len(report.warnings), 'warning')}")
    else:
        lines.append("no problem found")
    return "\n".join(printable(line) for line in lines)
