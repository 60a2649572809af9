"""Shared test helpers, one module per job; nothing here is mocked.

``dates`` (fixed commit dates), ``git`` (real repositories), ``sites`` (real MkDocs sites
built with MkDocs' own build), ``schemas`` (validation against the official XSDs),
``files`` (reading a written tree back), ``faults`` (files that fail like a full disk),
``build_marker`` (which tests run a build, git or a process), ``venvs`` (cached
virtual environments with this project installed apart), ``shared`` (a project made once
a run by real deploys or builds, copied into each test that starts from it).
"""

from pathlib import Path

#: The repository's root folder (the tests run from a clone of it).
REPO = Path(__file__).resolve().parents[2]
