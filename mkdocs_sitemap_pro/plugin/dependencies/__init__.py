"""What a page shows besides its source, and how that dates it.

``observer`` sees the files read while a page converts, ``tracker`` puts together what
each page of a build showed (with mkdocstrings' objects and a blog's listed posts),
``cache`` keeps it for pages ``--dirty`` does not render, ``dates`` dates a page by the
newest of it all, ``written`` reads includes from a source's text (for
``mkdocs-sitemap-pro build``, which observes no rendering).
"""
