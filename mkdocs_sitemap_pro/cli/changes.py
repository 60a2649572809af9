"""``mkdocs-sitemap-pro changes OLD NEW``: URLs added, removed and updated between two trees.

One line per URL (``kind url``, and the lastmods of an updated one), or with ``--json``
one JSON record per line. Exit 0 with or without changes, 2 when a tree cannot be read.
A lastmod that went back is listed as ``backwards`` and warned about on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from mkdocs_sitemap_pro.cli import WithExamples
from mkdocs_sitemap_pro.core.deploy.changes import Change, SitemapUrls, compare, read_urls
from mkdocs_sitemap_pro.core.check import CheckError, CheckOptions
from mkdocs_sitemap_pro.core.urls import redact_credentials
from mkdocs_sitemap_pro.core.web import MAX_SECONDS, check_seconds
from mkdocs_sitemap_pro.core.words import printable, printable_json

__all__ = ["add_reading_options", "files", "read_pair", "register", "run", "seconds",
           "warn_backwards"]


def seconds(text: str) -> float:
    """``--timeout``: seconds above 0 and at most a day (``inf``, ``nan``, ``1e308`` and
    0 bound nothing); argparse names the option and exits 2 otherwise."""
    try:
        return check_seconds(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds above 0 and at most {MAX_SECONDS:,.0f}") from None


def files(text: str) -> int:
    """``--max-files``: a whole number, at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of files, at least 1")
    return value


def add_reading_options(command: argparse.ArgumentParser) -> None:
    """``--site-url``, ``--timeout`` and ``--max-files``, as ``check`` has them."""
    command.add_argument("--site-url", metavar="URL",
                         help="the URL a folder is published at (default: read from its "
                              "robots.txt, else the other tree's)")
    command.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                         help="the most each file fetched over HTTP may take, whole "
                              "(default: 10)")
    command.add_argument("--max-files", type=files, default=1_000, metavar="N",
                         help="sitemap files followed at most, per tree (default: 1000)")


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``changes`` subcommand."""
    command = commands.add_parser(
        "changes",
        help="the URLs added, removed and updated between two sitemap trees",
        description=(
            "Read two sitemap trees (each a built site's folder, a sitemap file or an "
            "http(s) URL) and list the URLs added, removed and updated: where both "
            "manifests record what the page rendered, exactly those whose rendering "
            "changed; else a newer lastmod, or, when both have the manifest, other "
            "content for a file dated as the page is. A lastmod that went back is "
            "listed as 'backwards'."
        ),
        epilog=(
            "example: what the next deploy changes, against the live site:\n"
            "  mkdocs-sitemap-pro changes https://example.com/sitemap.xml site/"
        ),
        formatter_class=WithExamples,
    )
    command.add_argument("old", metavar="OLD", help="the earlier tree")
    command.add_argument("new", metavar="NEW", help="the later tree")
    command.add_argument("--json", action="store_true", help="one JSON object per change, one per line (JSON Lines, as check --json)")
    add_reading_options(command)
    command.set_defaults(run=run)


def options_of(args: argparse.Namespace) -> CheckOptions:
    """The reading options of the command line."""
    return CheckOptions(site_url=args.site_url, timeout=args.timeout, max_files=args.max_files)


def read_pair(old: str, new: str, options: CheckOptions) -> tuple[SitemapUrls, SitemapUrls]:
    """Both trees, NEW first: a folder that cannot tell its URL is taken to be NEW's."""
    later = read_urls(new, options)
    return read_urls(old, options, later.site_url), later


def record(change: Change) -> dict[str, str | None]:
    """One change as its JSON record."""
    return {"kind": change.kind, "url": change.url, "old": change.old, "new": change.new,
            "reason": change.reason or None}


def line(change: Change) -> str:
    """One change as a line of text."""
    text = f"{change.kind:<9} {change.url}"
    if change.reason == "content":
        return f"{text}  (content changed; lastmod {change.new})"
    if change.kind == "updated" and change.reason == "rendered" and (
            change.old == change.new or change.old is None or change.new is None):
        lastmod = f"; lastmod {change.new}" if change.new is not None else ""
        return f"{text}  (rendered content changed{lastmod})"
    if change.kind in ("updated", "backwards"):
        also = "; rendered content changed" if change.kind == "backwards" and change.reason else ""
        return f"{text}  ({change.old} -> {change.new}{also})"
    return text


def warn_backwards(changes: Sequence[Change], command: str) -> None:
    """One warning on stderr for the URLs whose lastmod went back."""
    back = sum(change.kind == "backwards" for change in changes)
    if back:
        whose = "URL's" if back == 1 else "URLs'"
        print(f"mkdocs-sitemap-pro {command}: warning: {back:,} {whose} lastmod went "
              "backwards: the history was rewritten, or dates were carried wrongly (a "
              "shallow clone without the last deploy's manifest?)", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Compare, print one line (or record) per change, return the exit status."""
    try:
        old, new = read_pair(args.old, args.new, options_of(args))
    except CheckError as error:
        if args.json:  # as check --json says it could not run
            print(json.dumps({"old": args.old, "new": args.new, "status": 2,
                              "error": redact_credentials(str(error))}))
        print(printable(f"mkdocs-sitemap-pro changes: cannot compare: "
                        f"{redact_credentials(str(error))}"), file=sys.stderr)
        return 2
    changes = compare(old, new)
    if args.json:
        text = "".join(printable_json(record(c)) + "\n" for c in changes)
    else:
        text = "".join(printable(line(c)) + "\n" for c in changes)  # URLs read from servers
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `changes … | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    warn_backwards(changes, "changes")
    return 0
