"""One module per other plugin whose pages or output change what the sitemap lists.

Each reads the other plugin's configuration or objects only when that plugin is in use,
and imports nothing of it at module level, so it is never a dependency.
"""
