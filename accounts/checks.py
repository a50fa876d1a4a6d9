"""A deployment that would print its e-mails instead of sending them says so: in `manage.py check
--deploy` (a warning) and in the log of every process at start-up."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.checks import Warning as CheckWarning

logger = logging.getLogger("accounts")

CONSOLE = "django.core.mail.backends.console.EmailBackend"
EMAILS_ONLY_PRINTED = (
    "E-mails (sign-up confirmations, password resets, digests) are printed to the log, not sent: "
    "set EMAIL_HOST (and EMAIL_HOST_USER, EMAIL_HOST_PASSWORD) to send them."
)


def emails_only_printed() -> bool:
    return not settings.DEBUG and CONSOLE in (settings.EMAIL_BACKEND, settings.EMAIL_DELIVERY_BACKEND)


def email_delivery_check(app_configs: Any = None, **kwargs: Any) -> list[CheckWarning]:
    if emails_only_printed():
        return [CheckWarning(EMAILS_ONLY_PRINTED, id="accounts.W001")]
    return []


def warn_at_start_up() -> None:
    if emails_only_printed():
        logger.warning(EMAILS_ONLY_PRINTED)
