"""The help's examples: argparse wraps a description into paragraphs, which would run
an example's command line into its explanation; an epilog that starts with
``example`` is printed as written."""

from __future__ import annotations

import argparse


class WithExamples(argparse.HelpFormatter):
    """Wraps the description as usual; keeps an ``example...`` epilog's lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("example"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)
