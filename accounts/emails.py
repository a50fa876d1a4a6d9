"""The e-mails accounts send: plain text (and HTML for the digest) from templates under
templates/accounts/email/, with absolute links to SITE_URL."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.tokens import confirmation_path
from core.links import absolute_url


def send(
    *,
    to: str,
    subject: str,
    template: str,
    context: dict[str, Any],
    html_template: str | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    context = {"SITE_NAME": settings.SITE_NAME, "SITE_URL": settings.SITE_URL} | context
    message = EmailMultiAlternatives(
        subject=f"{settings.SITE_NAME}: {subject}",
        body=render_to_string(template, context),
        to=[to],
        headers=headers,
    )
    if html_template:
        message.attach_alternative(render_to_string(html_template, context), "text/html")
    message.send()


def send_sign_up_confirmation(user: AbstractBaseUser) -> None:
    send(
        to=user.email,
        subject="confirm your e-mail address",
        template="accounts/email/confirm_sign_up.txt",
        context={"confirm_url": absolute_url(confirmation_path(user))},
    )


def send_already_registered(user: AbstractBaseUser) -> None:
    """What a sign-up with an address that has an account sends instead: the page answered as for a new
    one, so only the address's owner learns that the account exists."""
    send(
        to=user.email,
        subject="you already have an account",
        template="accounts/email/already_registered.txt",
        context={
            "sign_in_url": absolute_url(reverse("accounts:sign-in")),
            "reset_url": absolute_url(reverse("accounts:password-reset")),
        },
    )
