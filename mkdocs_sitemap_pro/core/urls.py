"""URLs: RFC 3986 normalisation of a page URL into a ``<loc>``, XML escaping, and the
site URL every other URL is built from.

``SiteUrl`` is the one place a site URL is checked and joined: every URL the product
writes or prints (sitemap files, the index's children, the robots.txt line, messages)
comes from ``SiteUrl.join``, so a site URL without its trailing slash can never give
``https://example.com/1.0robots.txt``.

Which characters stay raw in a normalised URL:

- everywhere after the authority (path, query, fragment): the unreserved characters
  ``A-Z a-z 0-9 - . _ ~``, the sub-delims ``! $ & ' ( ) * + , ; =``, and ``: @ / ?``,
  plus ``%`` when it starts a valid escape ``%XX`` (kept exactly as given, case too);
- in the authority, also ``[`` and ``]`` (an IPv6 literal);
- the first ``#`` as the fragment delimiter; any later ``#`` becomes ``%23``.

Everything else is percent-escaped as its UTF-8 bytes (``%C3%A9``): non-ASCII, space,
control characters, ``" < > \\ ^ ` { | }``, ``[ ]`` outside the authority, and a ``%``
that does not start a valid escape (``%zz`` -> ``%25zz``). Text is never
Unicode-normalised: NFC and NFD spellings of a name are different files, so the bytes
are kept as given. A lone surrogate made by Python's ``surrogateescape`` (an undecodable
file-name byte) is written as that byte. A non-ASCII host is encoded with Python's
built-in ``idna`` codec (IDNA 2003). ``'`` and ``&`` stay raw in the URL (they are
sub-delims) and are entity-escaped only when written into XML.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit

__all__ = ["SiteUrl", "normalise_loc", "redact_credentials", "xml_escape"]

_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCHAR_PLUS = _UNRESERVED + _SUB_DELIMS + r":@/?"  # path, query and fragment
_USERINFO = _UNRESERVED + _SUB_DELIMS + r":"
_REG_NAME = _UNRESERVED + _SUB_DELIMS
_IP_LITERAL = _UNRESERVED + _SUB_DELIMS + r":\[\]"
_HEX2 = r"%[0-9A-Fa-f]{2}"

# Fast path: a URL made only of allowed ASCII characters and valid escapes, with at most
# one '#', is already normalised (MkDocs gives such URLs) and is returned unchanged.
# The first pattern (no '%', no '#') is the common case and is about twice as fast.
_PART = rf"[{_PCHAR_PLUS}]*(?:{_HEX2}[{_PCHAR_PLUS}]*)*"
_PLAIN = re.compile(rf"[{_PCHAR_PLUS}]*")
# The patterns below serve URLs that need escaping, which MkDocs seldom gives: kept as
# text, compiled (by ``re``, once) when first used, not by every build at import.
_ALREADY_NORMAL = rf"{_PART}(?:#{_PART})?"

_SCHEME_AUTHORITY = r"([A-Za-z][A-Za-z0-9+.\-]*:)(?://([^/?]*))?"


def _unsafe(allowed: str) -> str:
    """Runs of characters outside ``allowed``, and any ``%`` not starting an escape."""
    return rf"%(?![0-9A-Fa-f]{{2}})|[^{allowed}%]+"


_UNSAFE_PCHAR = _unsafe(_PCHAR_PLUS)
_UNSAFE_USERINFO = _unsafe(_USERINFO)
_UNSAFE_REG_NAME = _unsafe(_REG_NAME)
_UNSAFE_IP_LITERAL = _unsafe(_IP_LITERAL)


def _escape_match(match: re.Match[str]) -> str:
    data = match.group().encode("utf-8", "surrogateescape")
    return "".join([f"%{byte:02X}" for byte in data])


def _quote(text: str, unsafe: str) -> str:
    try:
        return re.sub(unsafe, _escape_match, text)
    except UnicodeEncodeError:
        raise ValueError(f"URL {text!r} holds a lone surrogate character") from None


def _authority(authority: str) -> str:
    """Escape ``userinfo@host:port``; a non-ASCII host becomes IDNA."""
    userinfo, at, hostport = authority.rpartition("@")
    if hostport.startswith("["):
        host, sep, port = hostport.partition("]")
        host, sep = host + sep, ""
        if port.startswith(":"):
            sep, port = ":", port[1:]
        host = _quote(host, _UNSAFE_IP_LITERAL)
    else:
        host, sep, port = hostport.partition(":")
        if not host.isascii():
            try:
                host = host.encode("idna").decode("ascii")
            except UnicodeError as exc:
                raise ValueError(f"host {host!r} cannot be encoded as IDNA: {exc}") from None
        host = _quote(host, _UNSAFE_REG_NAME)
    userinfo = _quote(userinfo, _UNSAFE_USERINFO) if at else ""
    return f"{userinfo}{at}{host}{sep}{_quote(port, _UNSAFE_REG_NAME)}"


def normalise_loc(url: str) -> str:
    """Percent-escape ``url`` per RFC 3986 (see the module docstring for the rules).

    Idempotent: a normalised URL is returned unchanged, through a fast path that only
    checks it. Raises ``ValueError`` for a host that IDNA cannot encode or a lone
    surrogate that is not an escaped byte.
    """
    if url.isascii() and (_PLAIN.fullmatch(url) or re.fullmatch(_ALREADY_NORMAL, url)):
        return url
    head, hash_sign, fragment = url.partition("#")
    m = re.match(_SCHEME_AUTHORITY, head)
    if m:
        scheme, authority = m.group(1), m.group(2)
        rest = head[m.end() :]
        out = scheme if authority is None else f"{scheme}//{_authority(authority)}"
        out += _quote(rest, _UNSAFE_PCHAR)
    else:
        out = _quote(head, _UNSAFE_PCHAR)
    if hash_sign:
        out += "#" + _quote(fragment, _UNSAFE_PCHAR)
    return out


def xml_escape(text: str) -> str:
    """Escape all five XML special characters: ``& ' " > <``."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "'" in text:
        text = text.replace("'", "&apos;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    return text


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(parts: SplitResult) -> tuple[str, str | None, str, int] | None:
    """(scheme, userinfo, host, port) with defaults filled in; None if not http(s)."""
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        return None
    userinfo = parts.netloc.rpartition("@")[0] if "@" in parts.netloc else None
    return scheme, userinfo, parts.hostname or "", parts.port or _DEFAULT_PORTS[scheme]


#: A URL's scheme and authority up to its user information's ``@`` (the last one before
#: the path: a password may hold ``@``), anywhere in a text.
_CREDENTIALS = re.compile(r"\b([A-Za-z][A-Za-z0-9+.\-]*://)([^/?#@\s'\"]*?)(:[^/?#\s'\"]*)?@"
                          r"(?=[^/?#\s'\"@]*(?:[/?#\s'\"]|$))")


def redact_credentials(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***`` (the user name
    kept, to know which account was meant), or a lone token by ``***``: the one rule by
    which no message prints credentials."""
    return _CREDENTIALS.sub(_hidden, text)


def _hidden(match: re.Match[str]) -> str:
    scheme, user, password = match.groups()
    return f"{scheme}{user}:***@" if password else f"{scheme}***@"


class SiteUrl:
    """A site's base URL, checked and normalised, and the rule for "a URL under it".

    ``ValueError`` (naming the URL and what is wrong) for anything that cannot be the
    base of a sitemap's absolute URLs: not http(s), no host, whitespace, a query or a
    fragment. ``url`` always ends in ``/``.
    """

    def __init__(self, site_url: str) -> None:
        if not isinstance(site_url, str) or not site_url:
            raise ValueError("no site URL given: sitemaps hold absolute URLs")
        shown = redact_credentials(site_url)  # what a message may say of it
        if any(ch.isspace() for ch in site_url):
            raise ValueError(f"{shown!r} holds whitespace")
        try:
            norm = normalise_loc(site_url)
            parts = urlsplit(norm)
            origin = _origin(parts)
        except ValueError as exc:
            raise ValueError(f"{shown!r} is not a valid URL: {redact_credentials(str(exc))}") from None
        if origin is None or not parts.hostname:
            raise ValueError(f"{shown!r} is not an absolute http(s) URL")
        if origin[1] is not None:
            raise ValueError(
                f"{shown!r} holds user information (a user name or "
                "password before '@'), which every <loc> and robots.txt would publish: "
                "remove it")
        if parts.query or parts.fragment or "?" in norm or "#" in norm:
            raise ValueError(f"{shown!r} has a query or a fragment")
        self.url = norm if norm.endswith("/") else norm + "/"
        self.origin = origin
        self.path = parts.path if parts.path.endswith("/") else parts.path + "/"

    def __repr__(self) -> str:
        return f"SiteUrl({self.url!r})"

    @property
    def at_host_root(self) -> bool:
        """Whether the site lives at the root of its host (where robots.txt is read)."""
        return self.path == "/"

    def join(self, relative: str) -> str:
        """The normalised absolute URL of ``relative`` (a path below the site, no leading
        ``/``): ``SiteUrl("https://example.com/1.0").join("robots.txt")`` is
        ``https://example.com/1.0/robots.txt``."""
        return normalise_loc(self.url + relative.lstrip("/"))

    def reject_reason(self, loc: str) -> str | None:
        """Why a normalised loc is not under this URL, or None if it is."""
        if loc.startswith(self.url):
            return None
        try:
            parts = urlsplit(loc)
            origin = _origin(parts)
        except ValueError:
            return "not a valid URL"
        if origin is None:
            return "not an absolute http(s) URL"
        path = parts.path
        if origin != self.origin or not (path.startswith(self.path) or path + "/" == self.path):
            return f"not under the base URL {self.url}"
        return None
