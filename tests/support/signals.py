"""Children that meet SIGINT and SIGTERM as a terminal's process would.

A job a shell starts in the background (``pytest ... &``) ignores SIGINT, and a child
inherits that: its Python then installs no KeyboardInterrupt handler, the plugin leaves an
ignored signal alone (as it should), and a test that sends SIGINT would wait for nothing.
"""

from __future__ import annotations

import signal


def default_signals() -> None:
    """A ``preexec_fn``: SIGINT and SIGTERM at their defaults in the child."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
