"""What a page shows besides its source, and how that dates it.

``tracker`` puts together what each page of a build showed: the files it read
(``core.reads`` observes them), mkdocstrings' objects and a blog's listed posts;
``cache`` keeps it for pages ``--dirty`` does not render, ``dates`` dates a page by the
newest of it all.
"""
