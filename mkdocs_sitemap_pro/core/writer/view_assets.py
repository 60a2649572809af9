"""The inline style and script of the HTML view pages (``html_view``).

Kept apart from the markup so each stays readable. The script only adds sorting (click
a column head; a head marked ``data-first="descending"``, the dates, sorts newest first
on its first click) and filtering (a search box it reveals, matching what a row shows
and its dates as written, so ``2024-05`` finds what ``May 2024`` finds); the page is
complete without it. The sort buttons show where the keyboard is (``:focus-visible``).
"""

from __future__ import annotations

__all__ = ["SCRIPT", "STYLE"]

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
