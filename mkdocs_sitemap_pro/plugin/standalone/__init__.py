"""``mkdocs-sitemap-pro build``: the plugin's sitemap for a site another builder wrote.

``config`` reads mkdocs.yml's or zensical.toml's URL settings and the plugin's options,
``built_site`` turns site_dir into MkDocs pages (posts a blog moved found by their title;
``core.page.html`` the posts a listing page shows), ``api_objects`` resolves mkdocstrings
blocks, ``run`` dates them and calls the plugin's pipeline; ``versioned`` gives a build
under mike its version's site_url, ``languages`` finds the languages built one at a time in
site_dir, ``builder_sitemap`` keeps the builder's sitemap unless ours is at least as
complete, ``rebuild`` is ``versions --rebuild``.
"""
