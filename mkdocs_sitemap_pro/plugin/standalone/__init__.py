"""``mkdocs-sitemap-pro build``: the plugin's sitemap for a site another builder wrote.

``config`` reads mkdocs.yml's URL settings and the plugin's options, ``built_site`` turns
site_dir into MkDocs pages (``moved_pages`` finds posts a blog moved; ``core.page.html_listing``
the posts a listing page shows), ``run`` dates them and calls the plugin's pipeline;
``versioned`` gives a build under mike its version's site_url, ``languages`` finds the
languages built one at a time in site_dir, ``builder_sitemap`` keeps the builder's
sitemap unless ours is at least as complete.
"""
