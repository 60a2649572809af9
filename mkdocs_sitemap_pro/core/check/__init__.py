"""The checker: follows any sitemap tree (a site folder, a file or a URL) and reports
every rule of the protocol and of Google's guidance it breaks. Knows nothing of MkDocs."""

from mkdocs_sitemap_pro.core.check.findings import CheckError, Finding, Report
from mkdocs_sitemap_pro.core.check.run import CheckOptions, check

__all__ = ["CheckError", "CheckOptions", "Finding", "Report", "check"]
