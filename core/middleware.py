"""The site's own middleware: requests refused before any view, and headers every response carries."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

Middleware = Callable[[HttpRequest], HttpResponse]


def refuse_nul_bytes(get_response: Middleware) -> Middleware:
    """An address with a NUL byte in its path or query is a 400 (the site's or the API's error page).
    PostgreSQL text cannot hold NUL, so such a value would otherwise fail in SQL wherever a view looks it
    up: an institution's name, a feed's token, a search."""

    def middleware(request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "\x00" in query or "%00" in query:
            raise BadRequest("The address holds a NUL byte.")
        return get_response(request)

    return middleware
