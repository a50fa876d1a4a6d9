"""Inbound rate limits, counted in one place: per client address or any other key, in fixed windows kept
in the Redis cache (django-ratelimit's counters). Views decide what to answer past a limit (an HTML page,
the API's error object); the wait they announce in Retry-After is always the time until the window that
counted them starts over."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

Key = str | Callable[[str, HttpRequest], str]


def client_ip(request: HttpRequest) -> str:
    """The client's address. Behind our proxy, the last X-Forwarded-For entry is the one the proxy saw;
    earlier entries are whatever the client claimed."""
    if settings.SECURE_PROXY_SSL_HEADER:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "") or "0.0.0.0"  # noqa: S104


def wait_seconds(request: HttpRequest, *, group: str, rate: str, key: Key = "ip") -> int:
    """Counts this request in `group` under `key` (the client's address by default); past `rate`, the
    seconds until the count starts over, else 0."""
    usage = get_usage(request, group=group, key=key, rate=rate, increment=True)
    if usage is None or not usage["should_limit"]:
        return 0
    return max(int(usage["time_left"]), 1)


def too_many_requests(
    request: HttpRequest, wait: int, *, template: str = "429.html", context: dict | None = None
) -> HttpResponse:
    """The 429 page (or `template`) saying how long to wait, with Retry-After."""
    response = render(request, template, {"retry_after": wait, **(context or {})}, status=429)
    response["Retry-After"] = str(wait)
    return response
