"""Limits on the forms that guess passwords or send e-mail: per client address and per account.

"Per account" counts by the e-mail address typed, whether or not an account has it, so a limit reached
says nothing about which addresses have accounts. Counters live in the Redis cache (django-ratelimit).

A per-account limit must stop guessing, not the account's owner: anyone can fail to sign in as someone
else from many addresses. So a browser that has signed in to an account before carries a signed cookie
naming it (a "device cookie"), and its attempts for that account are counted apart, under its own limit;
and past the account's limits the pages say what still works (a browser that signed in before, the links
already e-mailed, a reset link, which signs in).
"""

from __future__ import annotations

import math
import secrets

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest, HttpResponse

from accounts.forms import normalise_email
from core.ratelimits import Key, too_many_requests, wait_seconds

DEVICE_COOKIE = "wovepaper_device"
DEVICE_SALT = "accounts.device"
DEVICE_MAX_AGE = 60 * 60 * 24 * 365


def typed_email(request: HttpRequest) -> str:
    """The address typed into a sign-in, reset or sign-up form (the admin's sign-in calls it username)."""
    return normalise_email(request.POST.get("email") or request.POST.get("username") or "")


def _account_key(group: str, request: HttpRequest) -> str:
    email = typed_email(request)
    device = known_device(request, email)
    return f"device:{device}" if device else email


KEYS: dict[str, Key] = {"ip": "ip", "account": _account_key}


def over_limit(request: HttpRequest, action: str) -> HttpResponse | None:
    """Counts this POST against `action`'s limits (ACCOUNT_RATE_LIMITS "<action>-ip" and "-account");
    past either, the 429 page saying how long to wait and, past the account's, what works meanwhile."""
    limits = settings.ACCOUNT_RATE_LIMITS
    waits = {  # both counters count every attempt, whichever is over
        scope: wait_seconds(
            request, group=f"accounts.{action}.{scope}", rate=limits[f"{action}-{scope}"], key=key
        )
        for scope, key in KEYS.items()
    }
    wait = max(waits.values())
    if not wait:
        return None
    context = {
        "retry_minutes": math.ceil(wait / 60),
        "action": action,
        "account_paused": not waits["ip"],  # only the address typed is over its limit
    }
    return too_many_requests(request, wait, template="accounts/too_many_attempts.html", context=context)


def known_device(request: HttpRequest, email: str) -> str | None:
    """The id of this browser if it has signed in to the account of `email` before; else None."""
    value = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    device, _, device_email = value.partition(":")
    return device if device and email and device_email == email else None


def remember_device(response: HttpResponse, user: AbstractBaseUser) -> HttpResponse:
    """Marks this browser as one that has signed in to `user`'s account (see the module's docstring)."""
    response.set_signed_cookie(
        DEVICE_COOKIE,
        f"{secrets.token_urlsafe(16)}:{normalise_email(user.get_username())}",
        salt=DEVICE_SALT,
        max_age=DEVICE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response
