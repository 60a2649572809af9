"""Where a site is built, told by the environment, and how to get git's whole history there.

Most sites are built on a CI runner or a hosting platform, whose clone is shallow by
default (one commit on GitHub Actions and Cloudflare Pages, 50 on Read the Docs, 10 on
Vercel, a limited depth on GitLab CI). The shallow-clone warning names the fix of the
platform it runs on; the docs' CI page (docs/pages/ci.md) has these rows.

Also ``fetch_history``: deepen a shallow clone before the walk (``fetch_history: auto``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from mkdocs_sitemap_pro.core.git.process import GitProcesses, run_git
from mkdocs_sitemap_pro.core.urls import redact_credentials

__all__ = ["PLATFORMS", "Platform", "detect", "shallow_advice", "Fetched", "fetch_history"]


class Platform(NamedTuple):
    """A build platform: the variable it sets, how deep it clones, how to fetch it all."""

    name: str
    variable: str  # set (non-empty) in every build there
    clone: str  # what its checkout fetches by default
    fix: str  # one sentence: how to have the whole history in the build
    remote: bool = True  # the clone has a remote to fetch from (fetch_history can work)


PLATFORMS: tuple[Platform, ...] = (
    Platform("GitHub Actions", "GITHUB_ACTIONS", "1 commit (actions/checkout)",
             "set `fetch-depth: 0` under `with:` of the actions/checkout step"),
    Platform("GitLab CI", "GITLAB_CI", "a limited depth (the project's `GIT_DEPTH`)",
             "set the CI/CD variable `GIT_DEPTH: 0` in .gitlab-ci.yml"),
    Platform("Read the Docs", "READTHEDOCS", "the last 50 commits",
             "add `git fetch --unshallow || true` to `build.jobs.post_checkout` in "
             ".readthedocs.yaml"),
    Platform("Netlify", "NETLIFY", "the whole history (blobless)",
             "run `git fetch --unshallow` before the build command"),
    Platform("Vercel", "VERCEL", "the last 10 commits, with no remote",
             "fetch from the repository's URL before the build command "
             "(`git fetch --unshallow https://...`), since Vercel's clone has no remote",
             remote=False),
    Platform("Cloudflare Pages", "CF_PAGES", "1 commit",
             "start the build command with `git fetch --unshallow &&`"),
    Platform("this CI", "CI", "often a shallow clone",
             "set the checkout's clone depth to 0 (the whole history), or run "
             "`git fetch --unshallow` before the build"),
)

_ANYWHERE = (
    "fetch the full history before the build: `fetch-depth: 0` for actions/checkout on "
    "GitHub Actions, `GIT_DEPTH: 0` on GitLab CI, or `git fetch --unshallow` elsewhere"
)


def detect(environ: Mapping[str, str]) -> Platform | None:
    """The platform whose variable the environment sets, the most specific first
    (plain ``CI`` last); None outside CI."""
    for platform in PLATFORMS:
        if environ.get(platform.variable, "").strip().lower() not in ("", "0", "false"):
            return platform
    return None


def shallow_advice(environ: Mapping[str, str], tried: frozenset[str] = frozenset()) -> str:
    """What to do about a shallow clone, for the platform the build runs on (one line);
    ``tried``: the plugin's options already set that did not help (not advised again)."""
    platform = detect(environ)
    fix = f"On {platform.name}, {platform.fix}" if platform else _ANYWHERE[0].upper() + _ANYWHERE[1:]
    fetch = "fetch_history" not in tried and (platform is None or platform.remote)
    previous = "previous" not in tried
    if fetch and previous:
        options = ("; or set the plugin's `fetch_history: auto` (deepens the clone before "
                   "the walk) or `previous: auto` (carries dates from the last deploy)")
    elif fetch:
        options = "; or set the plugin's `fetch_history: auto` to deepen the clone before the walk"
    elif previous:
        options = "; or set the plugin's `previous: auto` to carry dates from the last deploy"
    else:
        options = ""
    return f"{fix}{options}."


class Fetched(NamedTuple):
    """What the fetch did: ``message`` is an INFO line when ``done``, else a WARNING
    (empty when there was nothing to do: not a shallow clone, or no repository)."""

    done: bool
    message: str = ""


def fetch_history(folder: Path, processes: GitProcesses | None = None) -> Fetched:
    """Fetch the whole history into the shallow clone ``folder`` lies in, from its
    remote (``origin`` if it has one); ``GitTimeout`` from ``processes`` passes through."""
    status, out, _ = run_git(["rev-parse", "--is-shallow-repository"], folder,
                             processes=processes)
    if status != 0 or out.strip() != b"true":
        return Fetched(False)
    _, out, _ = run_git(["remote"], folder, processes=processes)
    remotes = out.decode("utf-8", "replace").split()
    if not remotes:
        return Fetched(False, (
            "fetch_history: the clone is shallow and has no remote to fetch its history "
            "from, so files older than its oldest commit stay undated"))
    remote = "origin" if "origin" in remotes else remotes[0]
    start = time.monotonic()
    status, _, err = run_git(["fetch", "--quiet", "--no-tags", "--filter=blob:none",
                              "--unshallow", "--", remote], folder, processes=processes)
    seconds = time.monotonic() - start
    if status != 0:
        detail = redact_credentials(err.strip().splitlines()[-1]) if err.strip() else (
            f"exit status {status}")
        return Fetched(False, (
            f"fetch_history: `git fetch --unshallow {remote}` failed ({detail}), so files "
            "older than the clone's oldest commit stay undated"))
    return Fetched(True, (
        f"fetch_history: fetched the whole history from {remote} in {seconds:.1f} s "
        f"(commits and trees, no file contents): the clone is now a partial clone "
        f"(blob:none), which fetches an old file's content from {remote} when a git "
        "command needs it"))
