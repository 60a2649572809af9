"""The core: the sitemaps.org protocol and git history, knowing nothing of MkDocs.

``protocol`` (every limit and rule), ``urls`` (escaping and the site URL), ``entry``
(the values), ``writer`` (entries -> files), ``reader`` (files -> values), ``atomic``
(all-or-nothing output), ``robots`` (the robots.txt line), ``stamps`` (whether a file is
still the one seen), ``store`` (the versioned cache files), ``git`` (one pass over
history), ``dating`` (the dating rule: each page's lastmod by what it shows), ``page`` (what a page says and shows: ``html_head`` what a rendered head says,
``page_settings`` what front matter says, ``reads`` the files a conversion reads,
``includes`` the files a source's text includes, ``shown`` a page's date by what it
shows), ``check`` (the checker), ``deploy`` (between two deploys). Nothing here imports
``mkdocs``.
"""
