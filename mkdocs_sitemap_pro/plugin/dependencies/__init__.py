"""What each page of an MkDocs build shows besides its source.

``tracker`` puts it together: the files a page read (``core.page.reads`` observes them),
mkdocstrings' objects and a blog's listed posts; ``copies`` dates copied sources by what
they copy; ``rewriters`` finds the site's own code that rewrites pages; ``cache`` keeps it
for pages ``--dirty`` does not render. ``core.page.shown`` dates a page by the newest of it
all.
"""
