"""The layers' arrows run one way: cli -> plugin -> core, and the core knows no MkDocs."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest

from tests.support import REPO

PACKAGE = REPO / "mkdocs_sitemap_pro"
# What each layer may not import.
FORBIDDEN = {
    "core": ("mkdocs", "properdocs", "mkdocs_sitemap_pro.plugin", "mkdocs_sitemap_pro.cli"),
    "plugin": ("mkdocs_sitemap_pro.cli",),
}


def imports_of(path: object) -> set[str]:
    tree = ast.parse(open(path, encoding="utf-8").read())  # type: ignore[call-overload]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_run_one_way(layer: str) -> None:
    modules = sorted((PACKAGE / layer).rglob("*.py"))
    assert modules
    bad = {
        str(path.relative_to(PACKAGE)): sorted(
            name for name in imports_of(path)
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer])
        )
        for path in modules
    }
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_public_api_loads_no_mkdocs() -> None:
    code = (
        "import sys, mkdocs_sitemap_pro, mkdocs_sitemap_pro.core.git, mkdocs_sitemap_pro.core.robots;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mkdocs', 'properdocs')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_plugin_loads_no_reader() -> None:
    # A build writes sitemaps and reads none: lxml (31 M instructions to import) and the
    # checker load only where a command or an option reads a sitemap.
    code = (
        "import sys, mkdocs_sitemap_pro.plugin.plugin;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lxml'"
        " or m.startswith(('mkdocs_sitemap_pro.core.reader', 'mkdocs_sitemap_pro.core.check'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_contributing_names_every_module_with_its_job() -> None:
    """docs/pages/contributing.md's module map is the package's: every module named,
    with a job; no module named that is not there."""
    page = (REPO / "docs/pages/contributing.md").read_text(encoding="utf-8")
    section = page.split("\n## Modules\n", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([\w/]+\.py)` \| (.*?) \|$", section, re.MULTILINE))
    modules = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    assert sorted(modules - rows.keys()) == [], "modules missing from contributing.md"
    assert sorted(rows.keys() - modules) == [], "contributing.md names modules that are gone"
    assert [name for name, job in rows.items() if len(job.strip()) < 10] == []


# Names of other projects' objects that no public API offers: each is read in one module,
# the one that says which versions it was checked against.
REACHES = {
    "plugin/mkdocs_internals.py": {"events", "_event_origins"},  # MkDocs' PluginCollection
    # static-i18n's plugin instance and the attributes it sets on MkDocs' files.
    "plugin/integrations/i18n.py": {"building", "locale_alternate_of", "norm_src_uri"},
}


def _names_used(path: object) -> set[str]:
    """The attributes a module reads or sets: ``x.name`` and ``getattr(x, "name")``."""
    tree = ast.parse(open(path, encoding="utf-8").read())  # type: ignore[call-overload]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)):
            names.add(str(node.args[1].value))
    return names


def test_others_internals_are_reached_in_one_module_each() -> None:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        used = _names_used(path)
        for home, names in REACHES.items():
            if module != home and used & names:
                found.setdefault(module, []).extend(sorted(used & names))
    assert found == {}
    for home in REACHES:
        assert "Checked against" in ast.get_docstring(
            ast.parse((PACKAGE / home).read_text(encoding="utf-8"))) or ""


def test_no_cache_is_kept_on_mkdocs_objects() -> None:
    """What the plugin remembers of a build is the build's, not set on MkDocs' ``Files``."""
    kept = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "setattr" and node.args
                    and ast.unparse(node.args[0]).split(".")[-1] == "files"):
                kept.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert kept == []
