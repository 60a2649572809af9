"""The configuration as ``build`` reads it: every shape of markdown_extensions that MkDocs
and Zensical take, INHERIT merged as Zensical merges it, the files looked for in order."""

from __future__ import annotations

import textwrap

import pytest

from mkdocs_sitemap_pro.plugin.standalone.config import ConfigError, load_site_config
from mkdocs_sitemap_pro.plugin.standalone.config import read_extensions

BUILTINS = ["toc", "tables", "fenced_code"]


@pytest.mark.parametrize("value, names, configs", [
    (None, [], {}),
    (["abbr", {"toc": {"permalink": True}}, {"admonition": None}],
     ["abbr", "admonition"], {"toc": {"permalink": True}, "abbr": {}, "admonition": {}}),
    ({"pymdownx": {"snippets": {"base_path": ["s"]}, "blocks": {"tab": {"x": 1}}},
      "zensical": {"extensions": {"preview": {}}}, "attr_list": {}},
     ["pymdownx.snippets", "pymdownx.blocks.tab", "zensical.extensions.preview", "attr_list"],
     {"pymdownx.snippets": {"base_path": ["s"]}, "pymdownx.blocks.tab": {"x": 1},
      "zensical.extensions.preview": {}, "attr_list": {}}),
    (["materialx.emoji", {"material.extensions.preview": {"a": 1}}, {"abbr": {"x": 1}}, "abbr"],
     ["zensical.extensions.emoji", "zensical.extensions.preview", "abbr"],
     {"zensical.extensions.emoji": {}, "zensical.extensions.preview": {"a": 1}, "abbr": {"x": 1}}),
])
def test_every_shape(value, names, configs):
    read = read_extensions(value)
    assert read.names == BUILTINS + names
    assert read.configs == configs
    assert read.warnings == []


def test_what_cannot_be_an_extension_is_named():
    read = read_extensions(["abbr", {"a": 1, "b": 2}, 7, {"toc": "yes"}])
    assert read.names == BUILTINS + ["abbr"]  # toc is a builtin already
    assert len(read.warnings) == 3
    assert all(w.startswith("Config value 'markdown_extensions': ") for w in read.warnings)
    assert "'toc'" in read.warnings[2]
    assert read_extensions("abbr").warnings[0].endswith("not str: ignored")


def test_inherit_merged_as_zensical_merges(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "base.yml").write_text(textwrap.dedent("""\
        site_name: Base
        site_url: https://base.example.org/
        use_directory_urls: false
        markdown_extensions: [abbr]
        plugins: {search: {lang: en}, sitemap-pro: {changefreq: daily, priority: 0.3}}
        """), encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent("""\
        INHERIT: conf/base.yml
        site_url: !ENV [NOT_SET_HERE, https://child.example.org/]
        use_directory_urls: !ENV SITEMAP_TEST_DIRS
        markdown_extensions: [admonition]
        plugins: {sitemap-pro: {changefreq: weekly}}
        """), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NOT_SET_HERE", raising=False)
    monkeypatch.setenv("SITEMAP_TEST_DIRS", "true")
    site = load_site_config(None)
    assert site.mkdocs.site_url == "https://child.example.org/"
    assert site.mkdocs.use_directory_urls is True  # "true" read as YAML reads it
    assert site.mkdocs.markdown_extensions == BUILTINS + ["admonition"]  # a list replaced
    assert site.options.changefreq == "weekly" and site.options.priority == 0.3  # maps merged
    assert site.plugin_options["search"] == {"lang": "en"}


def test_files_looked_for_and_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="none of zensical.toml, mkdocs.yml, mkdocs.yaml"):
        load_site_config(None)
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yaml").write_text("site_name: Y\nsite_url: https://y.example.org/\n")
    assert load_site_config(None).mkdocs.site_url == "https://y.example.org/"
    (tmp_path / "zensical.toml").write_text('[project]\nsite_name = "T"\nsite_url = "https://t.example.org/"\n')
    assert load_site_config(None).mkdocs.site_url == "https://t.example.org/"
    (tmp_path / "other.toml").write_text('site_name = "O"\nsite_url = "https://o.example.org/"\n')
    assert load_site_config("other.toml").mkdocs.site_url == "https://o.example.org/"  # no [project]
    (tmp_path / "loop.yml").write_text("INHERIT: loop.yml\nsite_name: L\n")
    with pytest.raises(ConfigError, match="loop"):
        load_site_config("loop.yml")
    (tmp_path / "bad.toml").write_text("[project\n")
    with pytest.raises(ConfigError, match="could not read .*bad.toml"):
        load_site_config("bad.toml")
