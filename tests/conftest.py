"""Pytest configuration shared by every test module."""

from __future__ import annotations

import os

from hypothesis import settings

# Property tests have no deadline (machines are noisy) and are derandomized in CI, so a
# red CI run can be reproduced from its log.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Material for MkDocs prints a banner about MkDocs 2.0 unless told not to.
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
