"""The site's own middleware: requests refused before any view, and headers every response carries."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers

from core.api import error_response

Middleware = Callable[[HttpRequest], HttpResponse]

NUL_BYTE_MESSAGE = "The address holds a NUL byte (%00), which no page or parameter accepts."


def refuse_nul_bytes(get_response: Middleware) -> Middleware:
    """An address with a NUL byte in its path or query is a 400 (the site's or the API's error page).
    PostgreSQL text cannot hold NUL, so such a value would otherwise fail in SQL wherever a view looks it
    up: an institution's name, a feed's token, a search."""

    def middleware(request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "\x00" in query or "%00" in query:
            if request.path_info.startswith("/api/"):
                return error_response(400, NUL_BYTE_MESSAGE)
            raise BadRequest(NUL_BYTE_MESSAGE)
        return get_response(request)

    return middleware


def security_headers(get_response: Middleware) -> Middleware:
    """Permissions-Policy on every response (settings.PERMISSIONS_POLICY), and pages answered to someone
    signed in are never stored: not by a shared cache, not in the browser's history cache (their e-mail
    address, follows and private feed addresses are on them)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        response.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        # Only a request with a session cookie can be signed in: asking the others would load an empty
        # session and add "Vary: Cookie" to every anonymous answer.
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            add_never_cache_headers(response)
        return response

    return middleware
