"""Inbound rate limits, counted in one place: per client address or any other key, in fixed windows kept
in the Redis cache (django-ratelimit's counters). Views decide what to answer past a limit (an HTML page,
the API's error object); the wait they announce in Retry-After is always the time until the window that
counted them starts over."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

Key = str | Callable[[str, HttpRequest], str]


def client_ip(request: HttpRequest) -> str:
    """The client's address: the peer's, unless the peer is one of TRUSTED_PROXIES. Then X-Forwarded-For
    is read from the right, where each proxy appended the address it saw: with TRUSTED_PROXY_HOPS proxies
    in front, the entry that many places from the end is the client; entries before it are whatever the
    client claimed. A header that does not hold an address there counts as the proxy itself."""
    peer = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"  # noqa: S104
    if not _trusted_proxy(peer, tuple(settings.TRUSTED_PROXIES)):
        return peer
    forwarded = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [entry for entry in forwarded if entry]
    if not forwarded:
        return peer
    claimed = forwarded[-min(settings.TRUSTED_PROXY_HOPS, len(forwarded))]
    try:
        return str(ipaddress.ip_address(claimed))
    except ValueError:
        return peer


@functools.lru_cache(maxsize=64)
def _trusted_proxy(peer: str, proxies: tuple[str, ...]) -> bool:
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(network, strict=False) for network in proxies)


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
