"""What the checker found: findings (error or warning, a rule id, the file, the URL, a
message) and the report that holds them, with its exit status and its JSON form.

Every finding is kept and counted; for people, ``Report.shown`` lists the first few of
one rule in one file and then one line counting the rest, right after them.

Also ``Ticker``: how far a long check has got, a line now and then.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["CheckError", "Finding", "Findings", "Report", "Severity", "Ticker"]

Severity = Literal["error", "warning"]

#: Findings of one rule in one file that are listed one by one; the rest are counted.
SHOWN_PER_RULE = 5


class CheckError(Exception):
    """The tree could not be checked at all (exit status 2): the message says why."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: ``rule`` is a stable id (``loc-escaping``), ``file`` the sitemap (or
    robots.txt, or page) it was found in, as a URL or a path."""

    severity: Severity
    rule: str
    file: str
    message: str
    url: str | None = None  # the URL it is about, where there is one

    def as_dict(self) -> dict[str, str | None]:
        return {"severity": self.severity, "rule": self.rule, "file": self.file,
                "url": self.url, "message": self.message}


class Findings:
    """Collects findings, in the order they are found."""

    def __init__(self) -> None:
        self.items: list[Finding] = []

    def add(self, severity: Severity, rule: str, file: str, message: str,
            url: str | None = None) -> None:
        self.items.append(Finding(severity, rule, file, message, url))

    def error(self, rule: str, file: str, message: str, url: str | None = None) -> None:
        self.add("error", rule, file, message, url)

    def warning(self, rule: str, file: str, message: str, url: str | None = None) -> None:
        self.add("warning", rule, file, message, url)

    def finish(self) -> list[Finding]:
        """Every finding."""
        return list(self.items)


def summed_up(findings: list[Finding]) -> list[Finding]:
    """The findings for people: past ``SHOWN_PER_RULE`` of one rule in one file, one line
    counting the rest, right after the last one shown. A sitemap with 40,000 badly
    escaped URLs gives five lines naming URLs and one saying how many more there are."""
    sizes = Counter((f.rule, f.file) for f in findings)
    seen: Counter[tuple[str, str]] = Counter()
    out: list[Finding] = []
    for finding in findings:
        key = (finding.rule, finding.file)
        seen[key] += 1
        if seen[key] <= SHOWN_PER_RULE:
            out.append(finding)
        if seen[key] == SHOWN_PER_RULE and sizes[key] > SHOWN_PER_RULE:
            out.append(Finding(finding.severity, finding.rule, finding.file,
                               f"{sizes[key] - SHOWN_PER_RULE:,} more like the above"))
    return out


@dataclass
class Report:
    """The outcome of a check: what was read and what was found."""

    target: str
    files: list[str] = field(default_factory=list)  # sitemap files read, in order
    url_count: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    def shown(self) -> list[Finding]:
        """The findings as people read them (see ``summed_up``)."""
        return summed_up(self.findings)

    def status(self, strict: bool = False) -> int:
        """0 when nothing is wrong, 1 when an error (or, if ``strict``, a warning) was found."""
        return 1 if self.errors or (strict and self.warnings) else 0

    def as_dict(self, strict: bool = False) -> dict[str, object]:
        return {
            "target": self.target,
            "files": list(self.files),
            "urls": self.url_count,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "status": self.status(strict),
            "findings": [f.as_dict() for f in self.findings],
        }


class Ticker:
    """Says how far a step has got, at most every ``every`` seconds (from its creation)."""

    def __init__(self, say: Callable[[str], None], every: float) -> None:
        self.say, self.every = say, every
        self.due = time.monotonic() + every

    def tick(self, message: Callable[[], str]) -> None:
        """Say ``message()`` if the last line (or the start) is ``every`` seconds old."""
        now = time.monotonic()
        if now >= self.due:
            self.due = now + self.every
            self.say(message())
