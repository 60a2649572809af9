"""The core: the sitemaps.org protocol and git history, knowing nothing of MkDocs.

``protocol`` (every limit and rule), ``urls`` (escaping and the site URL), ``entry``
(the values), ``writer`` (entries -> files), ``reader`` (files -> values), ``atomic``
(all-or-nothing output), ``robots`` (the robots.txt line), ``git`` (one pass over
history). Nothing here imports ``mkdocs``.
"""
