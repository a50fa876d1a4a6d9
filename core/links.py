"""Links to this site: the absolute URL of one of its paths, and where to send someone after a form (only
ever a path on this site); and the only links to elsewhere a page may show (http and https)."""

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def absolute_url(path: str) -> str:
    """This site's canonical absolute URL of one of its paths (under SITE_URL, whatever host was asked)."""
    return f"{settings.SITE_URL}{path}"


def own_path(target: str) -> bool:
    """A path on this site: no scheme or host (not even ours, nor `//elsewhere` or `/\\elsewhere`, which
    browsers read as hosts), and no control characters."""
    return (
        target.startswith("/")
        and url_has_allowed_host_and_scheme(target, allowed_hosts=set())
        and not target.startswith(("//", "/\\"))
        and target.isprintable()
    )


def next_path(request: HttpRequest, fallback: str) -> str:
    """The `next` the request carries (form field first, then query string) if it is one of our paths."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    return target if own_path(target) else fallback


def web_url(value: object) -> str:
    """`value` if it is an absolute http(s) URL, else "": harvested links (homepages, licences) may be
    `javascript:` or `data:` URLs, which a page must never make clickable. Checked where a harvest parses
    them and again wherever one is shown."""
    text = str(value or "").strip()
    if not text.isprintable() or any(character.isspace() for character in text):
        return ""
    try:
        parts = urlsplit(text)
    except ValueError:
        return ""
    return text if parts.scheme.lower() in ("http", "https") and parts.netloc else ""
