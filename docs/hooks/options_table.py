"""An MkDocs hook of the documentation site: the options table and the changelog page.

The table is made from ``SitemapProConfig`` (every option's name, type and default, as
the plugin declares them) and ``option_descriptions.yml`` beside this file (what each
option means, kept in one place). It is written into ``pages/options.md`` itself, so
that the page reads right in the repository too: ``python docs/hooks/options_table.py``
rewrites it. An option without a description, a description of no option, or a table
in the page that is not the one the code makes stops the build: the page cannot drift
from the code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError

from mkdocs_sitemap_pro.plugin import config as plugin_config
from mkdocs_sitemap_pro.plugin.config import SitemapProConfig

HERE = Path(__file__).resolve().parent
DESCRIPTIONS = HERE / "option_descriptions.yml"
CHANGELOG = HERE.parent.parent / "CHANGELOG.md"
OPTIONS_PAGE = HERE.parent / "pages" / "options.md"
TABLE_START = ("<!-- options-table: made from SitemapProConfig and option_descriptions.yml; "
               "`python docs/hooks/options_table.py` rewrites it -->")
TABLE_END = "<!-- /options-table -->"
CHANGELOG_MARK = "<!-- changelog -->"

#: The values a protocol check accepts, by the check's name.
_CHECKED = {
    "check_changefreq": "`always` \\| `hourly` \\| `daily` \\| `weekly` \\| `monthly` \\| `yearly` \\| `never`",
    "check_priority": "number, 0.0..1.0",
    "check_indexnow_key": "string, 8..128 of `a-z A-Z 0-9 -`",
}


def options() -> list[tuple[str, Any]]:
    """Every option of the plugin, in the order the configuration declares them."""
    return list(SitemapProConfig._schema)


def descriptions() -> dict[str, str]:
    """What each option means, from option_descriptions.yml."""
    data = yaml.safe_load(DESCRIPTIONS.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise PluginError(f"{DESCRIPTIONS}: expected a mapping of option -> description")
    return {str(k): " ".join(v.split()) for k, v in data.items()}


def type_of(option: Any) -> str:
    """An option's type as the table shows it, from its declaration."""
    if isinstance(option, c.Optional):
        return type_of(option.option)
    if isinstance(option, c.Choice):
        return " \\| ".join(f"`{choice}`" for choice in option.choices)
    if isinstance(option, c.Type):
        return {bool: "boolean", str: "string", int: "integer"}[option._type]
    if isinstance(option, plugin_config._BoundedInt):
        return f"integer, {option.low:,}..{option.high:,}"
    if isinstance(option, plugin_config._Filename):
        return "file name, `*.xml`"
    if isinstance(option, plugin_config._IgnoreCommits):
        return "list of commit SHAs, or a file's path"
    if isinstance(option, plugin_config._Exclude):
        return "list of gitignore-style patterns"
    if isinstance(option, plugin_config._Dependencies):
        return "`lines` \\| `files` \\| `false`"
    if isinstance(option, plugin_config._Previous):
        return "`auto`, an http(s) URL, or a path"
    if isinstance(option, plugin_config._ProtocolValue):
        return _CHECKED[option._check.__name__]
    raise PluginError(f"the options table does not know the option type {type(option).__name__}")


def default_of(option: Any) -> str:
    """An option's default as written in mkdocs.yml (unset: nothing is written)."""
    value = option.default
    if value is None:
        return "unset"
    return f"`{json.dumps(value)}`" if not isinstance(value, str) else f"`{value}`"


def table() -> str:
    """The options table in Markdown; ``PluginError`` when it would be incomplete."""
    meaning = descriptions()
    names = [name for name, _ in options()]
    missing = [name for name in names if not meaning.get(name, "").strip()]
    extra = sorted(set(meaning) - set(names))
    if missing or extra:
        raise PluginError(
            f"{DESCRIPTIONS.name}: options without a description: {missing or 'none'}; "
            f"descriptions of no option: {extra or 'none'}"
        )
    rows = ["| option | type | default | meaning |", "|---|---|---|---|"]
    for name, option in options():
        rows.append(f"| `{name}` | {type_of(option)} | {default_of(option)} | "
                    f"{meaning[name]} |")
    return "\n".join(rows) + "\n"


def table_in(markdown: str) -> str | None:
    """The table between the marks of a page, or None if it has no marks."""
    if TABLE_START not in markdown:
        return None
    return markdown.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip("\n") + "\n"


def with_table(markdown: str) -> str:
    """``markdown`` with the table between its marks made anew."""
    before, rest = markdown.split(TABLE_START, 1)
    after = rest.split(TABLE_END, 1)[1]
    return f"{before}{TABLE_START}\n\n{table()}\n{TABLE_END}{after}"


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    written = table_in(markdown)
    if written is not None and written != table():
        raise PluginError(
            f"{page.file.src_uri}: the options table is not the one SitemapProConfig and "
            f"{DESCRIPTIONS.name} make; run `python docs/hooks/options_table.py`")
    if written is not None:  # the marks are for the file, not for the built page
        markdown = markdown.replace(TABLE_START, "").replace(TABLE_END, "")
    if CHANGELOG_MARK in markdown:
        markdown = markdown.replace(CHANGELOG_MARK, CHANGELOG.read_text(encoding="utf-8"))
    return markdown


if __name__ == "__main__":  # rewrite the table in pages/options.md
    OPTIONS_PAGE.write_text(with_table(OPTIONS_PAGE.read_text(encoding="utf-8")),
                            encoding="utf-8")
