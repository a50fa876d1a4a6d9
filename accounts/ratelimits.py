"""Limits on the forms that guess passwords or send e-mail: per client address and per account.

"Per account" counts by the e-mail address typed, whether or not an account has it, so a limit reached
says nothing about which addresses have accounts. Counters live in the Redis cache (django-ratelimit).
"""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from accounts.forms import normalise_email
from core.ratelimits import Key, too_many_requests, wait_seconds


def _typed_email(group: str, request: HttpRequest) -> str:
    return normalise_email(request.POST.get("email", ""))


KEYS: dict[str, Key] = {"ip": "ip", "account": _typed_email}


def over_limit(request: HttpRequest, action: str) -> HttpResponse | None:
    """Counts this POST against `action`'s limits (ACCOUNT_RATE_LIMITS "<action>-ip" and "-account");
    past either, the 429 page saying how long to wait."""
    limits = settings.ACCOUNT_RATE_LIMITS
    wait = max(  # both counters count every attempt, whichever is over
        wait_seconds(request, group=f"accounts.{action}.{scope}", rate=limits[f"{action}-{scope}"], key=key)
        for scope, key in KEYS.items()
    )
    if not wait:
        return None
    context = {"retry_minutes": math.ceil(wait / 60)}
    return too_many_requests(request, wait, template="accounts/too_many_attempts.html", context=context)
