"""Limits on the forms that guess passwords or send e-mail: per client address and per account.

"Per account" counts by the e-mail address typed, whether or not an account has it, so a limit reached
says nothing about which addresses have accounts. Counters live in the Redis cache (django-ratelimit).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

from wovepaper.accounts.forms import normalise_email


def _typed_email(group: str, request: HttpRequest) -> str:
    return normalise_email(request.POST.get("email", ""))


KEYS: dict[str, str | Callable[[str, HttpRequest], str]] = {"ip": "ip", "account": _typed_email}


def over_limit(request: HttpRequest, action: str) -> HttpResponse | None:
    """Counts this POST against `action`'s limits (ACCOUNT_RATE_LIMITS "<action>-ip" and "-account");
    past either, the 429 page with Retry-After: the seconds until that counter's window starts over."""
    wait = 0
    for scope, key in KEYS.items():
        rate = settings.ACCOUNT_RATE_LIMITS[f"{action}-{scope}"]
        usage = get_usage(request, group=f"accounts.{action}.{scope}", key=key, rate=rate, increment=True)
        if usage is not None and usage["should_limit"]:
            wait = max(wait, usage["time_left"], 1)
    if not wait:
        return None
    context = {"retry_after": wait, "retry_minutes": math.ceil(wait / 60)}
    response = render(request, "accounts/too_many_attempts.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response
