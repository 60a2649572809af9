"""``python -m mkdocs_sitemap_pro``: the command line."""

from mkdocs_sitemap_pro.cli.main import main

raise SystemExit(main())
