"""Inbound rate limits, counted in one place: per client address or any other key, in fixed windows kept
in the Redis cache (django-ratelimit's counters). Views decide what to answer past a limit (an HTML page,
the API's error object); the wait they announce in Retry-After is always the time until the window that
counted them starts over.

When Redis cannot count (down, or stalled past the cache's timeout), each limit says what that means:
fail open (the request goes ahead uncounted) where a flood costs only load, as for searches and the API;
fail closed (RateLimitUnavailable, which RateLimitUnavailableMiddleware answers with a 503 page) where
the limit is what stands between an attacker and a password or a mailbox: sign-in, password resets and
sign-ups. Closed is the default, so a new limit is safe until someone decides otherwise."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

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


class RateLimitUnavailable(Exception):
    """A limit that fails closed could not count this request: Redis did not answer."""


def wait_seconds(
    request: HttpRequest, *, group: str, rate: str, key: Key = "ip", fail_open: bool = False
) -> int:
    """Counts this request in `group` under `key` (the client's address by default); past `rate`, the
    seconds until the count starts over, else 0. If the count cannot be kept, 0 when `fail_open`, else
    RateLimitUnavailable."""
    try:
        usage = get_usage(request, group=group, key=key, rate=rate, increment=True)
    except RedisError:
        if fail_open:
            return 0
        raise RateLimitUnavailable(group) from None
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


RETRY_AFTER_OUTAGE_SECONDS = 30


def service_unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 page of a limit that fails closed while Redis is away: try again in a moment."""
    response = render(request, "503.html", {"retry_after": RETRY_AFTER_OUTAGE_SECONDS}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_OUTAGE_SECONDS)
    return response


class RateLimitUnavailableMiddleware:
    """Answers RateLimitUnavailable, from whichever view raised it, with the 503 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RateLimitUnavailable):
            return service_unavailable(request)
        return None
