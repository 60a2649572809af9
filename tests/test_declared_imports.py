"""What the package imports at module level it declares (issue 41): a dependency that
MkDocs happens to bring (Markdown, PyYAML) is still named in pyproject.toml, so a
change in MkDocs' own requirements cannot break an install. Imports inside functions
are the integrations' (imported only when the plugin they serve is in use)."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions

from tests.support import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _module_level_imports() -> dict[str, str]:
    """Top-level import name -> the first module that imports it at module level."""
    found: dict[str, str] = {}
    for path in sorted((REPO / "mkdocs_sitemap_pro").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # module level only (a try: at module level counts too)
            nodes = [node] + (list(ast.walk(node)) if isinstance(node, ast.Try) else [])
            for each in nodes:
                if isinstance(each, ast.Import):
                    names = [alias.name for alias in each.names]
                elif isinstance(each, ast.ImportFrom) and each.level == 0 and each.module:
                    names = [each.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.split(".")[0], str(path.relative_to(REPO)))
    return found


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_module_level_import_is_a_declared_dependency() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {_normal(re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0])
                for req in project["dependencies"]}
    distributions = packages_distributions()
    missing = []
    for name, where in _module_level_imports().items():
        if name in sys.stdlib_module_names or name in ("mkdocs_sitemap_pro", "tomli"):
            continue
        owners = {_normal(d) for d in distributions.get(name, [name])}
        if not owners & declared:
            missing.append(f"{name} ({where})")
    assert not missing, f"imported at module level but not declared: {missing}"


def test_the_plugin_is_registered_for_mkdocs_and_for_properdocs() -> None:
    points = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["entry-points"]
    target = "mkdocs_sitemap_pro.plugin.plugin:SitemapProPlugin"
    assert points["mkdocs.plugins"]["sitemap-pro"] == target
    assert points["properdocs.plugins"]["sitemap-pro"] == target
