"""Shared pieces of rate limiting: who the client is, and the answer once they are over the limit.

Views declare their own limits with django-ratelimit, e.g. `@ratelimit(key="ip", rate=SEARCH_RATE)`.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

RETRY_AFTER_SECONDS = 60


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind our proxy, the last X-Forwarded-For entry is the one the proxy saw;
    earlier entries are whatever the client claimed."""
    if settings.SECURE_PROXY_SSL_HEADER:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "") or "0.0.0.0"  # noqa: S104


def too_many_requests(request: HttpRequest, exception: Exception) -> HttpResponse:
    response = render(request, "429.html", {"retry_after": RETRY_AFTER_SECONDS}, status=429)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
