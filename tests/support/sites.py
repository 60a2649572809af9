"""Real MkDocs sites in real git repositories, built with MkDocs' own build."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config

from tests.support.git import GitRepo, git_env
from tests.support.schemas import NS, parse_sitemap

SITE_URL = "https://example.com/docs/"


@dataclass
class Built:
    """What one build left: its site folder, its log records and the exception, if any."""

    site_dir: Path
    records: list[logging.LogRecord] = field(default_factory=list)
    error: BaseException | None = None

    def messages(self, level: int = logging.WARNING) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno >= level]

    def infos(self) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno == logging.INFO]

    def sitemap(self, name: str = "sitemap.xml") -> dict[str, dict[str, str]]:
        """The URLs of a written urlset, validated, as ``{loc: {field: text}}``."""
        root = parse_sitemap(self.site_dir / name)
        assert root.tag == f"{{{NS}}}urlset", f"{name} is not a urlset"
        out = {}
        for url in root:
            fields = {child.tag.split("}")[1]: child.text or "" for child in url}
            out[fields["loc"]] = fields
        return out


class Site:
    """An MkDocs project (mkdocs.yml + docs/) inside a git repository in ``root``."""

    def __init__(self, root: Path, *, options: dict[str, Any] | None = None, **config: Any) -> None:
        self.repo = GitRepo(root)
        self.root = root
        self.config: dict[str, Any] = {
            "site_name": "Test",
            "site_url": SITE_URL,
            "plugins": [{"sitemap-pro": options or {}}],
        }
        self.config.update(config)
        self.write_config()

    @classmethod
    def checkout(cls, root: Path, like: "Site") -> "Site":
        """The same project in a checkout git made itself (a clone or worktree): no init."""
        site = cls.__new__(cls)
        site.root, site.repo, site.config = root, like.repo, dict(like.config)
        return site

    def set_options(self, **options: Any) -> None:
        """Set the plugin's options (replacing the plugin list) and write mkdocs.yml."""
        self.config["plugins"] = [{"sitemap-pro": options}]
        self.write_config()

    def write_config(self) -> None:
        (self.root / "mkdocs.yml").write_text(yaml.safe_dump(self.config, allow_unicode=True), encoding="utf-8")

    def page(self, rel: str, text: str = "# Page\n") -> Path:
        """Write ``docs/<rel>``."""
        return self.repo.write(f"docs/{rel}", text)

    def commit(self, message: str, date: str, **kwargs: Any) -> str:
        return self.repo.commit(message, date, **kwargs)

    def build(
        self,
        *,
        strict: bool = False,
        dirty: bool = False,
        env: dict[str, str] | None = None,
        serve_url: str | None = None,
    ) -> Built:
        """Build with MkDocs' Python API, capturing every log record of ``mkdocs.*``.

        ``serve_url`` builds as ``mkdocs serve`` does (site_url replaced, drafts built).
        """
        site_dir = self.root / "site"
        built = Built(site_dir)
        handler = _ListHandler(built.records)
        logger = logging.getLogger("mkdocs")
        old_level = logger.level
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        try:
            with _environ(git_env(env)), _cwd(self.root):
                cfg = load_config(str(self.root / "mkdocs.yml"), strict=strict)
                if serve_url:
                    cfg.site_url = serve_url  # as `mkdocs serve` does
                cfg.plugins.on_startup(command="serve" if serve_url else "build", dirty=dirty)
                try:
                    build(cfg, dirty=dirty, serve_url=serve_url)
                finally:
                    cfg.plugins.on_shutdown()
        except BaseException as error:  # noqa: BLE001 - the test inspects it
            built.error = error
        finally:
            logger.removeHandler(handler)
            logger.setLevel(old_level)
        return built

    def cli(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run the real ``mkdocs`` command line in the project folder."""
        return subprocess.run(
            [sys.executable, "-m", "mkdocs", *args],
            cwd=self.root,
            env=git_env(env),
            capture_output=True,
            text=True,
        )


class _ListHandler(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.DEBUG)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def _environ(env: dict[str, str]) -> Iterator[None]:
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(old)


@contextmanager
def _cwd(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)
