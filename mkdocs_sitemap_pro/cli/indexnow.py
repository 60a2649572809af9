"""``mkdocs-sitemap-pro indexnow SITE_DIR --since OLD``: submit what changed to IndexNow.

The URLs ``changes`` finds added, updated or removed since OLD (the last deploy's
tree; by what each page rendered where both manifests record it), and those gone back
in date whose rendering changed (``recrawl``), in requests of at most 10,000 URLs of
one host, after checking that the key file is in SITE_DIR and covers every URL. Exit 0
sent (or nothing to send), 1 the endpoint refused a request or did not answer (the rest
are not sent), 2 could not run (a tree unreadable, no usable key file). Without OLD (a
first deploy) nothing is sent unless ``--all``: submitting a whole site is asked for,
never assumed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from mkdocs_sitemap_pro.cli.changes import add_reading_options, options_of, warn_backwards
from mkdocs_sitemap_pro.cli import WithExamples
from mkdocs_sitemap_pro.core.deploy.changes import (
    NoSitemap,
    SitemapUrls,
    compare,
    read_urls,
    recrawl,
)
from mkdocs_sitemap_pro.core.check import CheckError
from mkdocs_sitemap_pro.core.deploy.indexnow import (
    ACCEPTED,
    DEFAULT_ENDPOINT,
    IndexNowError,
    SendError,
    explain,
    find_key_file,
    plan,
    post,
    uncovered,
)
from mkdocs_sitemap_pro.core.words import counted as _plural, named, printable
from mkdocs_sitemap_pro.core.urls import redact_credentials

__all__ = ["register", "run"]

_NAME = "mkdocs-sitemap-pro indexnow"
_SUBMITTED = ("added", "updated", "removed")


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``indexnow`` subcommand."""
    command = commands.add_parser(
        "indexnow",
        help="submit the URLs changed since the last deploy to IndexNow",
        description=(
            "Submit the URLs added, updated and removed since OLD (the previous deploy's "
            "sitemap tree: a folder, a sitemap file or a URL read before deploying) to an "
            "IndexNow endpoint (Bing, Yandex, Naver, Seznam, Yep share what one receives). "
            "Run it after the deploy: the engines fetch the key file and the pages."
        ),
        epilog=(
            "example: the previous deploy's site kept in old-site/, after deploying site/:\n"
            "  mkdocs-sitemap-pro indexnow site/ --since old-site/ --dry-run"
        ),
        formatter_class=WithExamples,
    )
    command.add_argument("site_dir", metavar="SITE_DIR", help="the built (and deployed) site")
    command.add_argument("--since", metavar="OLD",
                         help="the previous deploy's sitemap tree (none: a first deploy)")
    keys = command.add_mutually_exclusive_group()
    keys.add_argument("--key", help="the key (SITE_DIR/KEY.txt must hold it; default: the "
                                    "one KEY.txt at SITE_DIR's root that holds its name)")
    keys.add_argument("--key-file", metavar="PATH", type=Path,
                      help="the key file in SITE_DIR (it covers the URLs under its folder)")
    command.add_argument("--endpoint", default=DEFAULT_ENDPOINT, metavar="URL",
                         help=f"the IndexNow endpoint (default: {DEFAULT_ENDPOINT})")
    command.add_argument("--dry-run", action="store_true",
                         help="print the requests instead of sending them")
    command.add_argument("--all", action="store_true",
                         help="with no previous sitemap (a first deploy), submit every URL")
    add_reading_options(command)
    command.set_defaults(run=run)


def _say(message: str) -> None:
    """One line on stderr: credentials hidden, URLs read from servers made printable."""
    print(printable(f"{_NAME}: {redact_credentials(message)}"), file=sys.stderr)


def _urls(args: argparse.Namespace, new: SitemapUrls) -> list[str] | None:
    """The URLs to submit; None when OLD cannot be read (exit 2)."""
    options = options_of(args)
    reason = "no --since OLD"
    if args.since is not None:
        try:
            old = read_urls(args.since, options, new.site_url)
        except NoSitemap as error:
            reason = str(error)
        except CheckError as error:
            _say(f"cannot read OLD: {error}")
            return None
        else:
            changes = compare(old, new)
            warn_backwards(changes, "indexnow")
            sent = [c for c in changes if recrawl(c)]
            # A URL gone back in date whose rendering changed is sent as an updated one.
            kinds: list[str] = ["updated" if c.kind == "backwards" else c.kind for c in sent]
            counts = ", ".join(f"{kinds.count(kind):,} {kind}" for kind in _SUBMITTED)
            _say(f"since {args.since}: {counts}")
            urls = [c.url for c in sent]
            if not urls:
                _say("nothing changed: nothing submitted")
            return urls
    if not args.all:
        _say(f"a first deploy ({reason}): nothing submitted; pass --all to submit every URL")
        return []
    verb = "would be submitted (--all, --dry-run)" if args.dry_run else "submitted (--all)"
    _say(f"a first deploy ({reason}): every URL {verb}")
    return list(new.urls)


def run(args: argparse.Namespace) -> int:
    """Check the key, find the changes, send (or print) the requests; the exit status."""
    if not os.path.isdir(args.site_dir):  # False too for a name too long, or a NUL byte
        _say(f"{named(args.site_dir)} is not a folder: give the built site's folder")
        return 2
    try:
        new = read_urls(args.site_dir, options_of(args))
        key = find_key_file(Path(args.site_dir), new.site_url, args.key, args.key_file)
    except (CheckError, IndexNowError) as error:
        _say(f"cannot submit: {error}")
        return 2
    urls = _urls(args, new)
    if urls is None:
        return 2
    if not urls:
        return 0
    outside = uncovered(urls, key)
    if outside:
        shown = ", ".join(outside[:3]) + (f" and {len(outside) - 3:,} more" if len(outside) > 3 else "")
        _say(f"cannot submit: the key file {key.url} covers only the URLs under "
             f"{key.url.rsplit('/', 1)[0]}/, not {shown}: put it at the root of SITE_DIR")
        return 2
    try:
        requests = plan(urls, key, args.endpoint)
    except IndexNowError as error:
        _say(f"cannot submit: {error}")
        return 2
    if args.dry_run:
        for request in requests:
            body = json.dumps(request.body, indent=2, ensure_ascii=False)
            print(printable(f"POST {redact_credentials(request.endpoint)}\n{body}", lines=True))
        _say(f"dry run: {_plural(len(urls), 'URL')} in {_plural(len(requests), 'request')}, "
             "nothing sent")
        return 0
    sent = 0
    for number, request in enumerate(requests, start=1):
        count = len(request.body["urlList"])  # type: ignore[arg-type]
        where = f"request {number} of {len(requests)} ({_plural(count, 'URL')} of {request.host})"
        status: int | None = None
        try:
            status = post(request, args.timeout)
            message = explain(status, request)
        except SendError as error:
            message = f"{error}; retry later"
        if status in ACCEPTED:
            sent += count
            _say(f"{where}: {message}")
            continue
        left = len(urls) - sent - count
        _say(f"{where}: {message}")
        were, are = ("was", "is") if sent == 1 else ("were", "are")
        _say(f"{_plural(sent, 'URL')} {were} received and {are} not sent again; this "
             f"request's {count:,} "
             f"and {left:,} more were not received: nothing further sent")
        return 1
    _say(f"{_plural(sent, 'URL')} submitted to {args.endpoint}")
    return 0
