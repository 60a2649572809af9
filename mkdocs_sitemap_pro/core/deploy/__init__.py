"""Deploy tools: the manifest carried between deploys, what changed between two sitemap
trees, IndexNow, and the index over a versioned site's versions."""
