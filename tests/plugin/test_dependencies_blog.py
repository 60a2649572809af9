"""Material's blog: every listing page is dated by the newest of the posts it shows.

Five posts whose front-matter dates order them p5, p4, p3, p2, p1 on the listing pages,
committed so that git dates them in another order; two posts a page. Each listing page
(index and its pagination, archive, categories, their pagination) must carry the newest
git date of exactly the posts it shows, read back from the built HTML of that page.
"""

from __future__ import annotations

import re

import pytest

from tests.support.dates import day, utc
from tests.support.git import git_date
from tests.support.sites import SITE_URL, Site

# post -> (front-matter date, category, commit day)
POSTS = {
    "p1": ("2020-01-01", "odd", 9),
    "p2": ("2020-02-01", "even", 3),
    "p3": ("2020-03-01", "odd", 7),
    "p4": ("2020-04-01", "even", 5),
    "p5": ("2020-05-01", "odd", 2),
}
LISTINGS = ["blog/", "blog/page/2/", "blog/page/3/", "blog/archive/2020/",
            "blog/archive/2020/page/2/", "blog/archive/2020/page/3/", "blog/category/odd/",
            "blog/category/odd/page/2/", "blog/category/even/"]


@pytest.mark.parametrize("history", ["first-parent", "all"])
def test_listing_pages_carry_their_own_posts_newest_date(site: Site, history: str) -> None:
    site.page("index.md", "# Home\n")
    site.page("blog/index.md", "# Blog\n")
    for name, (date, category, _) in POSTS.items():
        site.page(f"blog/posts/{name}.md",
                  f"---\ndate: {date}\ncategories: [{category}]\n---\n# Post {name}\n\nText.\n")
    site.config["theme"] = {"name": "material"}
    site.config["plugins"] = [{"blog": {"pagination_per_page": 2}},
                              {"sitemap-pro": {"git_history": history}}]
    site.write_config()
    site.commit("blog", day(1))
    for name, (_, _, when) in sorted(POSTS.items(), key=lambda kv: kv[1][2]):
        path = site.root / f"docs/blog/posts/{name}.md"
        path.write_text(path.read_text() + f"\nEdited on day {when}.\n")
        site.commit(f"edit {name}", day(when))
    built = site.build(strict=True)
    assert built.error is None, built.messages()
    urls = built.sitemap()
    post_dates = {name: git_date(site.root, f"docs/blog/posts/{name}.md", history) for name in POSTS}
    seen = set()
    for url in LISTINGS:
        html = (built.site_dir / url / "index.html").read_text()
        shown = set(re.findall(r"<h2[^>]*>\s*<a [^>]*>Post (p\d)</a>", html))
        assert shown, url
        seen |= {url}
        assert urls[SITE_URL + url]["lastmod"] == max(post_dates[p] for p in shown), (url, shown)
    # The pages differ: each carries its own posts' date, not the blog's newest.
    assert urls[SITE_URL + "blog/page/3/"]["lastmod"] == post_dates["p1"] == utc(day(9))
    assert urls[SITE_URL + "blog/"]["lastmod"] == max(post_dates["p5"], post_dates["p4"]) == utc(day(5))
    assert urls[SITE_URL + "blog/category/even/"]["lastmod"] == utc(day(5))
    summary = [m for m in built.infos() if "URLs in" in m][0]
    assert f"({len(LISTINGS)} by listed posts)" in summary
