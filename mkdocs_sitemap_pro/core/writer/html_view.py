"""The HTML view: a twin page for people beside every sitemap file (``html_view``).

``sitemap.xml`` gets ``sitemap.html``, ``sitemap-2.xml`` gets ``sitemap-2.html``. A
urlset's page is a table of its URLs, made from the very texts written into the XML for
each (its escaped loc, its lastmod text and the elements after them: its languages and
images too), so the page shows exactly what crawlers get, its URL shown percent-decoded
for people (the link is the written URL) and, when the caller knows it, the page's title
beside it (the title is the view's only: it is never written into the XML); an index's
page lists its files, linked to their pages. Each page is self-contained (inline style,
an optional inline script), says
``noindex``, and carries a generator mark: the writer replaces or removes only pages
that carry it, so a site's own ``sitemap.html`` is never touched. When the Atom feed
(``feed``) is written beside them, every page links to it, for people and for readers.

Its lastmod cells and its inline style and script are here too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from html import escape, unescape
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from mkdocs_sitemap_pro.core.atomic import StagedFiles
from mkdocs_sitemap_pro.core.entry import Alternate
from mkdocs_sitemap_pro.core.protocol import text_instant
from mkdocs_sitemap_pro.core.urls import xml_escape
from mkdocs_sitemap_pro.core.words import counted
from mkdocs_sitemap_pro.core.writer.items import ALTERNATES, IMAGES, Item

__all__ = [
    "GENERATOR", "ViewFile", "index_page", "is_ours", "is_ours_text", "remove_stale_views",
    "stage_views", "view_name", "date_cell", "day_text", "readable", "SCRIPT", "STYLE",
]


STYLE = """
:root{--bg:#f6f7f9;--card:#fff;--fg:#1d2330;--muted:#5d6778;--line:#e3e6eb;
--accent:#3b5bdb;--accent-bg:#edf1ff;--row:#fafbfc;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#14171c;--card:#1c2027;--fg:#e6e9ef;
--muted:#9aa3b2;--line:#2c323c;--accent:#8ea6ff;--accent-bg:#232b45;--row:#20252d}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);line-height:1.45;
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.wrap{max-width:1180px;margin:0 auto;padding:28px 20px 40px}
header{margin-bottom:18px}
.eyebrow{margin:0;font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:var(--muted)}
h1{margin:4px 0 6px;font-size:26px;line-height:1.2;font-weight:650}
.summary{margin:0;color:var(--muted)}
.summary strong{color:var(--fg)}
.crumb{display:inline-block;margin-bottom:10px;font-size:14px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;overflow:hidden;
box-shadow:0 1px 2px rgba(16,24,40,.04)}
.tools{display:flex;gap:12px;align-items:center;padding:12px 14px;border-bottom:1px solid var(--line)}
.tools[hidden]{display:none}
.tools input{flex:1;min-width:0;font:inherit;padding:8px 12px;border:1px solid var(--line);
border-radius:8px;background:var(--bg);color:var(--fg)}
.tools input:focus{outline:2px solid var(--accent);outline-offset:-1px}
.tools output{color:var(--muted);font-size:13px;white-space:nowrap}
table{width:100%;border-collapse:collapse}
th,td{padding:9px 14px;text-align:left;vertical-align:top;border-bottom:1px solid var(--line)}
tbody tr:last-child td{border-bottom:0}
tbody tr:nth-child(even){background:var(--row)}
th{position:sticky;top:0;background:var(--card);font-size:12px;font-weight:600;
text-transform:uppercase;letter-spacing:.05em;color:var(--muted);white-space:nowrap;z-index:1}
th button{all:unset;cursor:pointer}th button:hover{color:var(--fg)}
th button:focus-visible{outline:2px solid var(--accent);outline-offset:2px;border-radius:3px;
color:var(--fg)}
th[aria-sort=ascending] button::after{content:" \\25B2"}
th[aria-sort=descending] button::after{content:" \\25BC"}
td.url{word-break:break-all;width:100%}
td.url .base{color:var(--muted)}
td.title{min-width:7em;max-width:20em}
td.num,th.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.date{white-space:nowrap;font-variant-numeric:tabular-nums}
.lang{display:inline-block;margin:0 4px 4px 0;padding:1px 8px;border-radius:999px;
background:var(--accent-bg);font-size:12px;font-weight:600}
.none{color:var(--muted)}
td.langs{min-width:13em}
td.images a{display:block;text-align:left;font-size:13px;word-break:break-all}
td.raw{white-space:nowrap}
td.raw a{color:var(--muted);font-size:13px}
footer{margin-top:18px;color:var(--muted);font-size:13px}
@media (max-width:640px){
.wrap{padding:18px 12px 28px}h1{font-size:21px}
thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table,tbody,tr,td{display:block;width:100%}
tbody tr{padding:10px 14px;border-bottom:1px solid var(--line)}
tbody tr:last-child{border-bottom:0}
td{padding:2px 0;border:0;text-align:left!important}
td.empty{display:none}
td[data-label]:not(.url)::before{content:attr(data-label) ": ";color:var(--muted);font-size:13px}
td.url{font-weight:500;padding-bottom:4px}
}
"""

SCRIPT = """
(function(){
var table=document.querySelector("table"),body=table.tBodies[0],
rows=Array.prototype.slice.call(body.rows),tools=document.querySelector(".tools"),
input=tools.querySelector("input"),out=tools.querySelector("output");
tools.hidden=false;
function key(row,i){var c=row.cells[i];
return c.hasAttribute("data-value")?c.getAttribute("data-value"):c.textContent.trim()}
rows.forEach(function(r){var t=r.textContent;
Array.prototype.forEach.call(r.querySelectorAll("time"),function(d){t+=" "+d.getAttribute("datetime")});
r.words=t.toLowerCase()});
function shown(){var n=0;rows.forEach(function(r){if(!r.hidden)n++});
out.textContent=n===rows.length?"":n+" of "+rows.length+" shown"}
input.addEventListener("input",function(){var q=input.value.trim().toLowerCase();
rows.forEach(function(r){r.hidden=q!==""&&r.words.indexOf(q)<0});shown()});
Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,i){
var b=document.createElement("button");b.type="button";b.textContent=th.textContent;
th.textContent="";th.appendChild(b);
b.addEventListener("click",function(){
var now=th.getAttribute("aria-sort"),num=th.classList.contains("num");
var up=now?now!=="ascending":th.getAttribute("data-first")!=="descending";
Array.prototype.forEach.call(th.parentNode.cells,function(o){o.removeAttribute("aria-sort")});
th.setAttribute("aria-sort",up?"ascending":"descending");
rows.sort(function(a,b){var x=key(a,i),y=key(b,i);
var d=num?(parseFloat(x)||0)-(parseFloat(y)||0):(x<y?-1:x>y?1:0);return up?d:-d});
rows.forEach(function(r){body.appendChild(r)})})})})();
"""


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_text(text: str) -> str:
    """``29 Feb 2024`` from the ``YYYY-MM-DD`` that ``text`` starts with."""
    day, year = text[8:10].lstrip("0"), text[:4].lstrip("0")
    return f"{day} {_MONTHS[int(text[5:7]) - 1]} {year}"


def readable(text: str | None) -> tuple[str, str]:
    """(text for people, sortable key) of a lastmod text: ``29 Feb 2024, 13:05 UTC``."""
    if not text:
        return "", ""
    shown = f"{day_text(text)}, {text[11:16]} UTC" if len(text) > 10 else day_text(text)
    return shown, text_instant(text)


@lru_cache(maxsize=8192)  # pages of one site share dates: each is read once
def date_cell(text: str | None) -> str:
    """The ``<td>`` of a lastmod as written (``None``: a marked empty cell). The texts
    hold no character to escape."""
    shown, key = readable(text)
    if not shown:
        return '<td class="date none" data-label="Last modified" data-value="">–</td>'
    return (f'<td class="date" data-label="Last modified" data-value="{key}">'
            f'<time datetime="{text}" title="{text}">{shown}</time></td>')

GENERATOR = "mkdocs-sitemap-pro html_view"
_MARK = f'<meta name="generator" content="{GENERATOR}">'.encode("ascii")


class ViewFile(NamedTuple):
    """One sitemap file to give a page: the items written into it, its name, count and
    newest lastmod."""

    items: Sequence[Item]
    xml_name: str
    url_count: int
    newest: str | None


class _Row(NamedTuple):
    """One URL as its ``<url>`` element says it: the texts of its fields, ``loc_xml`` as
    written (its five special characters escaped: the same text is valid HTML)."""

    loc: str
    loc_xml: str
    lastmod: str | None
    changefreq: str | None
    priority: str | None
    alternates: tuple[Alternate, ...]
    images: tuple[str, ...]  # as written (escaped: the same text is valid HTML)


# The elements the writer puts after ``</loc>`` (see ``items.collect``), exactly as written.
_FIELD = re.compile(r"<(changefreq|priority)>([^<]*)</")
_ALTERNATE = re.compile(r'<xhtml:link rel="alternate" hreflang="([^"]*)" href="([^"]*)"/>')
_IMAGE = re.compile(r"<image:loc>([^<]*)</image:loc>")
# At most this many rows on one page (~2 MB): a bigger file's table is paged.
VIEW_ROWS = 5_000
# Rows made and encoded at a time, within a page.
_ROW_BLOCK = 500


def _row(item: Item) -> _Row:
    """The fields of one written ``<url>`` element: its lastmod text as the item carries
    it, the others read from the elements written after it."""
    rest = item.rest
    if not rest:  # a lastmod alone, the usual case
        return _Row(item.loc, item.loc_xml, item.lastmod, None, None, (), ())
    fields = dict(_FIELD.findall(rest))
    alternates = tuple(
        Alternate(unescape(lang), unescape(href)) for lang, href in _ALTERNATE.findall(rest)
    ) if item.extensions & ALTERNATES else ()
    images = tuple(_IMAGE.findall(rest)) if item.extensions & IMAGES else ()
    return _Row(item.loc, item.loc_xml, item.lastmod, fields.get("changefreq"),
                fields.get("priority"), alternates, images)


def view_name(xml_name: str, page: int = 1) -> str:
    """``sitemap-2.xml`` -> ``sitemap-2.html``; its page 3 ``sitemap-2-page-3.html``."""
    stem = xml_name.removesuffix(".xml")
    return f"{stem}.html" if page == 1 else f"{stem}-page-{page}.html"


def is_ours(path: Path) -> bool:
    """Whether the file at ``path`` is a view page this writer wrote (its generator mark)."""
    try:
        with open(path, "rb") as handle:
            return is_ours_text(handle.read(4096))
    except OSError:
        return False


def is_ours_text(data: bytes) -> bool:
    """Whether ``data`` (a file's first bytes, or all of it) is a view page of ours."""
    return _MARK in data[:4096]


def _frame(title: str, heading: str, summary: str, head_row: str, xml_name: str,
           crumb: str = "", feed: str | None = None, pager: str = "") -> tuple[str, str]:
    """A page's text before its rows, and after them (the rows go between, one a line)."""
    feed_head = feed_foot = ""
    if feed is not None:
        feed_head = (f'<link rel="alternate" type="application/atom+xml" '
                     f'title="Recently updated pages" href="{escape(feed)}">\n')
        feed_foot = f' Recently updated pages: <a href="{escape(feed)}">{escape(feed)}</a>.'
    before = "".join([
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        '<meta name="robots" content="noindex">\n', _MARK.decode("ascii"), "\n",
        f"<title>{escape(title)}</title>\n", feed_head,
        f"<style>{STYLE}</style>\n</head>\n<body>\n",
        '<div class="wrap">\n<header>\n', crumb,
        f'<p class="eyebrow">Sitemap</p>\n<h1>{escape(heading)}</h1>\n',
        f'<p class="summary">{summary}</p>\n{pager}</header>\n<main class="card">\n',
        '<div class="tools" hidden><input type="search" placeholder="Filter" '
        'aria-label="Filter the table"><output></output></div>\n',
        f"<table>\n<thead>{head_row}</thead>\n<tbody>\n",
    ])
    after = "".join([
        "\n</tbody>\n</table>\n</main>\n",
        f'<footer>For search engines: <a href="{escape(xml_name)}">{escape(xml_name)}</a>. '
        "This page is for people: it is not listed in the sitemap and asks not to be "
        f"indexed.{feed_foot}</footer>\n</div>\n",
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n",
    ])
    return before, after


# Characters a decoded URL never shows as themselves: controls, format characters (a
# right-to-left override would reorder what is shown) and separators other than a space.
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp"))


def decoded(text: str) -> str:
    """A URL's part as people read it: its percent-escapes decoded as UTF-8 (``déjà-vu/``
    for ``d%C3%A9j%C3%A0-vu/``); as written when that is not UTF-8 or would show a
    character that hides or reorders others. Not HTML-escaped."""
    if "%" not in text:
        return text
    try:
        shown = unquote(text, errors="strict")
    except UnicodeDecodeError:
        return text
    if any(unicodedata.category(ch) in _HIDDEN or (ch.isspace() and ch != " ")
           for ch in shown if not ch.isascii() or not ch.isprintable()):
        return text
    return shown


def _cell(css: str, label: str, content: str) -> str:
    """A table cell; an empty one is marked, so a phone's card layout can leave it out."""
    classes = " ".join(c for c in (css, "" if content else "empty") if c)
    css_attr = f' class="{classes}"' if classes else ""
    return f'<td{css_attr} data-label="{label}">{content}</td>'


def _url_row(entry: _Row, base: str, base_xml: str, columns: tuple[bool, bool, bool, bool],
             title: str | None = None) -> str:
    """One table row; ``base_xml`` is ``base`` escaped as the writer escapes (once per page).

    The written, escaped loc is the link; the text shown is the loc percent-decoded
    (``decoded``), after the site's base in muted text. ``title``: the page's title, in
    a column of its own (None: the page has no title column)."""
    loc, href = entry.loc, entry.loc_xml
    under = loc != base and loc.startswith(base)
    # The written text is shown as it is unless it holds an escape (the usual URL).
    rest = href[len(base_xml):] if under else href
    if "%" in rest:
        rest = escape(decoded(loc[len(base):] if under else loc), False)
    shown = f'<span class="base">{base_xml}</span>{rest}' if under else rest
    row = (f'<tr><td class="url" data-label="URL"><a href="{href}">{shown}</a></td>'
           + ("" if title is None else _cell("title", "Title", escape(title, False)))
           + date_cell(entry.lastmod))
    has_freq, has_priority, has_langs, has_images = columns
    if not (has_freq or has_priority or has_langs or has_images):
        return row + "</tr>"
    cells = [row]
    if has_freq:
        cells.append(_cell("", "Change frequency", escape(entry.changefreq or "")))
    if has_priority:
        cells.append(_cell("num", "Priority", escape(entry.priority or "")))
    if has_langs:
        links = "".join(
            f'<a class="lang" href="{escape(alt.href)}" hreflang="{escape(alt.hreflang)}" '
            f'title="{escape(alt.href)}">{escape(alt.hreflang)}</a>'
            for alt in entry.alternates
        )
        cells.append(_cell("langs", "Languages", links))
    if has_images:
        cells.append(_images_cell(entry.images))
    return "".join(cells) + "</tr>"


def _images_cell(images: tuple[str, ...]) -> str:
    """How many images a URL lists, opening to a link to each (named by its file)."""
    if not images:
        return '<td class="num images empty" data-label="Images" data-value="0"></td>'
    links = "".join(
        f'<a href="{href}" title="{href}">{href.rstrip("/").rsplit("/", 1)[-1] or href}</a>'
        for href in images)
    return (f'<td class="num images" data-label="Images" data-value="{len(images)}">'
            f"<details><summary>{len(images):,}</summary>{links}</details></td>")


def urlset_page(items: Sequence[Item], title: str, xml_name: str, base: str,
                back: str | None, feed: str | None = None, page: int = 1,
                total: int | None = None, titles: Mapping[str, str] | None = None
                ) -> Iterator[bytes]:
    """A page of one urlset, in UTF-8 pieces to write one after the other: its URLs
    (``VIEW_ROWS`` of its ``total`` from row ``(page - 1) * VIEW_ROWS`` on), with only
    the columns some URL has a value for. ``titles``: the pages' titles by their loc as
    given (a Title column when some URL of the page has one).

    The rows are made and encoded ``_ROW_BLOCK`` at a time: a page made whole (its rows,
    their join, its encoding, the page) held ~8 MB at its peak for ~2 MB written.
    """
    base_xml = xml_escape(base)
    entries = [_row(item) for item in items]
    columns = (any(e.changefreq for e in entries), any(e.priority for e in entries),
               any(e.alternates for e in entries), any(e.images for e in entries))
    named = [titles.get(item.given) or "" for item in items] if titles else []
    if not any(named):
        named = []
    head = ['<th scope="col">URL</th>', *(['<th scope="col">Title</th>'] if named else []),
            '<th scope="col" class="date" data-first="descending">Last modified</th>']
    head += [h for h, on in zip(('<th scope="col">Change frequency</th>',
                                 '<th scope="col" class="num">Priority</th>',
                                 '<th scope="col">Languages</th>',
                                 '<th scope="col" class="num">Images</th>'), columns) if on]
    count = total if total is not None else len(items)
    summary = f'<strong class="count">{count:,}</strong> URL{"" if count == 1 else "s"} in ' \
              f'<a href="{escape(xml_name)}">{escape(xml_name)}</a>'
    crumb = f'<a class="crumb" href="{escape(back)}">← All sitemap files</a>\n' if back else ""
    before, after = _frame(f"{title} · sitemap ({xml_name})", title, summary,
                           "<tr>" + "".join(head) + "</tr>", xml_name, crumb, feed,
                           _pager(xml_name, page, count, len(items)))
    yield before.encode("utf-8")
    for start in range(0, len(entries), _ROW_BLOCK):
        rows = [_url_row(entry, base, base_xml, columns, named[start + n] if named else None)
                for n, entry in enumerate(entries[start:start + _ROW_BLOCK])]
        yield (("\n" if start else "") + "\n".join(rows)).encode("utf-8")
    yield after.encode("utf-8")


def _pager(xml_name: str, page: int, total: int, shown: int) -> str:
    """The line that links a paged table's pages (nothing for a table on one page)."""
    pages = -(-total // VIEW_ROWS)
    if pages <= 1:
        return ""
    first = (page - 1) * VIEW_ROWS
    links = " ".join(f"<strong>{k}</strong>" if k == page else
                     f'<a href="{escape(view_name(xml_name, k))}">{k}</a>'
                     for k in range(1, pages + 1))
    return (f'<p class="summary">URLs {first + 1:,}–{first + shown:,}, page {page} of '
            f'{pages}: {links}</p>\n')


def _urlset_pages(shard: ViewFile, title: str, base: str, back: str | None,
                  feed: str | None, titles: Mapping[str, str] | None
                  ) -> Iterator[tuple[str, Iterable[bytes]]]:
    """The pages of one urlset, made one at a time (each written before the next)."""
    items = shard.items
    for page, start in enumerate(range(0, max(1, len(items)), VIEW_ROWS), 1):
        yield (view_name(shard.xml_name, page),
               urlset_page(items[start:start + VIEW_ROWS], title, shard.xml_name, base, back,
                           feed, page, len(items), titles))


def index_page(files: list[ViewFile], title: str, xml_name: str,
               feed: str | None = None) -> str:
    """The page of an index: each file, linked to its page, with its URL count and lastmod."""
    total = sum(f.url_count for f in files)
    rows = [
        f'<tr><td class="url" data-label="File"><a href="{escape(view_name(f.xml_name))}">'
        f'{escape(view_name(f.xml_name))}</a></td>'
        f'<td class="num" data-label="URLs" data-value="{f.url_count}">{f.url_count:,}</td>'
        f'{date_cell(f.newest)}<td class="raw" data-label="XML">'
        f'<a href="{escape(f.xml_name)}">{escape(f.xml_name)}</a></td></tr>'
        for f in files
    ]
    head = ('<tr><th scope="col">File</th><th scope="col" class="num">URLs</th>'
            '<th scope="col" class="date" data-first="descending">Last modified</th>'
            '<th scope="col">XML</th></tr>')
    summary = (f'<strong class="count">{total:,}</strong> URL{"" if total == 1 else "s"} '
               f'in {counted(len(files), "file")}, '
               f'listed by <a href="{escape(xml_name)}">{escape(xml_name)}</a>')
    before, after = _frame(f"{title} · sitemap index", title, summary, head, xml_name, "", feed)
    return before + "\n".join(rows) + after


def stage_views(folder: Path, staged: StagedFiles, shards: list[ViewFile],
                index_name: str | None, title: str, base: str, feed: str | None = None,
                titles: Mapping[str, str] | None = None
                ) -> tuple[list[tuple[Path, str]], list[str], list[str]]:
    """Stage the page of every shard (and of the index); return (renames, names, refused).

    ``feed``: the name of the Atom feed written beside them, which every page links to.
    ``titles``: the pages' titles, by loc as given, shown beside their URLs.

    A name already taken by a file that is not one of our pages is refused: it is the
    site's own page, and is left as it is.
    """
    back = view_name(index_name) if index_name else None

    def pages() -> Iterator[tuple[str, Iterable[bytes]]]:
        if index_name is not None:
            page = index_page(shards, title, index_name, feed)
            yield view_name(index_name), [page.encode("utf-8")]
        for shard in shards:
            yield from _urlset_pages(shard, title, base, back, feed, titles)

    renames, names, refused = [], [], []
    for name, pieces in pages():
        target = folder / name
        if target.exists() and not is_ours(target):
            refused.append(name)
            continue
        temp, handle = staged.new(name)
        with handle:
            for piece in pieces:
                handle.write(piece)
        renames.append((temp, name))
        names.append(name)
    return renames, names, refused


def remove_stale_views(folder: Path, stem: str, keep: set[str]) -> list[str]:
    """Remove our pages ``<stem>.html`` and ``<stem>-<n>.html`` not in ``keep``."""
    pattern = re.compile(re.escape(stem) + r"(?:-[1-9][0-9]*)?(?:-page-[1-9][0-9]*)?\.html")
    removed: list[str] = []
    try:
        names = sorted(p.name for p in folder.iterdir())
    except OSError:
        return removed
    for name in names:
        if name in keep or not pattern.fullmatch(name) or not is_ours(folder / name):
            continue
        try:
            (folder / name).unlink()
        except OSError:
            continue
        removed.append(name)
    return removed
