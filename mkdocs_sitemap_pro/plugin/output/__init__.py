"""What a build puts out besides the sitemap files, and its look at what it wrote.

``pipeline`` calls each: ``site_hooks`` (the site's own ``sitemap_entries``),
``date_on_page`` (the sitemap's date on the page itself), ``theme`` (what the theme
does with sitemaps), ``feed`` (the Atom feed), ``key_file`` (the IndexNow key file),
``validate`` (the checker run on the written sitemap).
"""
