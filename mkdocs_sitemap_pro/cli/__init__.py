"""The command line: parses arguments and calls the other layers; owns no rule.

The help's examples, printed as written (argparse would wrap them), live here: every
subcommand uses them.
"""

from __future__ import annotations

import argparse


class WithExamples(argparse.HelpFormatter):
    """Wraps the description as usual; keeps an ``example...`` epilog's lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("example"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)
