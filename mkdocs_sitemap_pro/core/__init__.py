"""The core: the sitemaps.org protocol and git history, knowing nothing of MkDocs.

``protocol`` (every limit and rule), ``urls`` (escaping and the site URL), ``entry`` (the
values), ``git`` (the history map and line dates), ``page`` (what a page says and shows),
``dating`` (the dating rule: each page's lastmod by what it shows), ``deploy`` (between two
deploys: manifest, changes, IndexNow, versions), ``writer`` (entries -> files), ``reader``
(files -> values), ``check`` (the checker); beside them ``atomic`` (all-or-nothing output),
``store`` (the versioned cache files, every value checked), ``regular`` (reading only
regular files), ``robots`` (robots.txt), ``web`` (HTTP), ``words`` (counts as a user reads
them). Nothing here imports ``mkdocs``.
"""
