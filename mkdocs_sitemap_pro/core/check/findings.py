"""What the checker found: findings (error or warning, a rule id, the file, a message)
and the report that holds them, with its exit status and its JSON form."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["CheckError", "Finding", "Findings", "Report", "Severity"]

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

    def as_dict(self) -> dict[str, str]:
        return {"severity": self.severity, "rule": self.rule, "file": self.file,
                "message": self.message}


class Findings:
    """Collects findings; past ``SHOWN_PER_RULE`` of one rule in one file, only counts.

    A sitemap with 40,000 badly escaped URLs gives five findings naming URLs and one
    saying how many more there are, not 40,000 lines.
    """

    def __init__(self) -> None:
        self.items: list[Finding] = []
        self._seen: Counter[tuple[str, str]] = Counter()
        self._severity: dict[tuple[str, str], Severity] = {}

    def add(self, severity: Severity, rule: str, file: str, message: str) -> None:
        key = (rule, file)
        self._seen[key] += 1
        self._severity.setdefault(key, severity)
        if self._seen[key] <= SHOWN_PER_RULE:
            self.items.append(Finding(severity, rule, file, message))

    def error(self, rule: str, file: str, message: str) -> None:
        self.add("error", rule, file, message)

    def warning(self, rule: str, file: str, message: str) -> None:
        self.add("warning", rule, file, message)

    def finish(self) -> list[Finding]:
        """Every finding kept, plus one per (rule, file) counting those not shown."""
        out = list(self.items)
        for key, count in self._seen.items():
            if count > SHOWN_PER_RULE:
                rule, file = key
                out.append(Finding(self._severity[key], rule, file,
                                   f"{count - SHOWN_PER_RULE:,} more like the above"))
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
