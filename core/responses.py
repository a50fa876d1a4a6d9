"""Answers every page view gives the same way: the canonical redirect and the htmx fragment test."""

from django.db.models import Model
from django.http import HttpRequest, HttpResponsePermanentRedirect


def canonical_redirect(request: HttpRequest, target: Model) -> HttpResponsePermanentRedirect:
    """301 to the object's canonical path on this site (never elsewhere), keeping the query string."""
    path = target.get_absolute_url()
    query = request.GET.urlencode()
    return HttpResponsePermanentRedirect(f"{path}?{query}" if query else path)


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx request swapping part of a page. htmx restoring history after a cache miss also says
    HX-Request, but needs the whole page."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request
