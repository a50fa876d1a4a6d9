"""The secrets accounts hand out: sign-up confirmation links, unsubscribe links, and the follow a signed-out
reader asked for, kept in their session until they sign in."""

from __future__ import annotations

import time

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import signing
from django.http import HttpRequest
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

UNSUBSCRIBE_SALT = "accounts.unsubscribe"
FOLLOW_INTENT_KEY = "accounts.follow_after_sign_in"
FOLLOW_INTENT_MAX_AGE = 30 * 60  # a follow asked for and abandoned does not happen at a sign-in days later
SIGNED_UP_KEY = "accounts.signed_up"


class SignUpTokenGenerator(PasswordResetTokenGenerator):
    """Like a password reset token (bound to the password hash, last sign-in and e-mail, expiring after
    PASSWORD_RESET_TIMEOUT), and also to the account being inactive: a link confirms once."""

    key_salt = "accounts.SignUpTokenGenerator"

    def _make_hash_value(self, user: AbstractBaseUser, timestamp: int) -> str:
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"


sign_up_tokens = SignUpTokenGenerator()


def confirmation_path(user: AbstractBaseUser) -> str:
    """The path of the link that confirms a new account's e-mail address."""
    return reverse(
        "accounts:confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": sign_up_tokens.make_token(user),
        },
    )


def unsubscribe_path(user: AbstractBaseUser) -> str:
    """The digest's unsubscribe link: works without signing in, for as long as the account exists."""
    token = signing.dumps({"user": user.pk}, salt=UNSUBSCRIBE_SALT, compress=True)
    return reverse("accounts:unsubscribe", kwargs={"token": token})


def unsubscribe_user_id(token: str) -> int | None:
    try:
        payload = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    user_id = payload.get("user") if isinstance(payload, dict) else None
    return user_id if isinstance(user_id, int) else None


def remember_signed_up(request: HttpRequest, user: AbstractBaseUser) -> None:
    """This browser signed up as `user` knowing its password: confirming the address here signs it in.

    Bound to the password hash (through the session auth hash), so that if someone else signed up with
    this address first, with a password of their own, confirming never signs this browser in to it."""
    request.session[SIGNED_UP_KEY] = {"user": user.pk, "hash": user.get_session_auth_hash()}


def signed_up_here(request: HttpRequest, user: AbstractBaseUser) -> bool:
    marker = request.session.get(SIGNED_UP_KEY) or {}
    return marker.get("user") == user.pk and marker.get("hash") == user.get_session_auth_hash()


def remember_follow_intent(request: HttpRequest, researcher_id: int) -> None:
    """A signed-out reader asked to follow: kept in their own session (nobody else can put it there, unlike
    a link's parameter) and carried out when they sign in."""
    request.session[FOLLOW_INTENT_KEY] = {"researcher": researcher_id, "at": int(time.time())}


def pop_follow_intent(request: HttpRequest) -> int | None:
    """The researcher a signed-out reader asked to follow, if they asked recently; forgets it either way."""
    intent = request.session.pop(FOLLOW_INTENT_KEY, None) or {}
    researcher_id, asked_at = intent.get("researcher"), intent.get("at")
    if not isinstance(researcher_id, int) or not isinstance(asked_at, int):
        return None
    return researcher_id if time.time() - asked_at <= FOLLOW_INTENT_MAX_AGE else None


def peek_follow_intent(request: HttpRequest) -> int | None:
    intent = request.session.get(FOLLOW_INTENT_KEY) or {}
    researcher_id = intent.get("researcher")
    return researcher_id if isinstance(researcher_id, int) else None
