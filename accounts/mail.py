"""E-mail goes out through Celery: a request that sends one (a sign-up, a password reset, an error report
to ADMINS) only queues it, and a worker hands it to the SMTP server, with retries. This backend is
settings.EMAIL_BACKEND; the one the worker delivers with is EMAIL_DELIVERY_BACKEND (SMTP, or the console
without EMAIL_HOST). Were the broker unreachable, the message is delivered at once instead of lost."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from accounts.tasks import deliver_email, send_email

logger = logging.getLogger(__name__)


def message_fields(message: EmailMessage) -> dict[str, Any]:
    """What a worker needs to rebuild the message: plain, JSON-serialisable fields."""
    alternatives = getattr(message, "alternatives", [])
    return {
        "subject": str(message.subject),
        "body": str(message.body),
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers),
        "alternatives": [[str(content), mimetype] for content, mimetype in alternatives],
    }


class QueuedEmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = 0
        for message in email_messages:
            if message.attachments:  # none of ours has any; such a message is not queued but sent now
                sent += get_connection(settings.EMAIL_DELIVERY_BACKEND).send_messages([message])
                continue
            fields = message_fields(message)
            try:
                send_email.apply_async(args=[fields], retry=False)
            except (OperationalError, RedisError) as error:
                logger.warning("the broker did not take an e-mail (%s); sending it now", error)
                try:
                    deliver_email(fields)
                except Exception:
                    if not self.fail_silently:
                        raise
                    continue
            sent += 1
        return sent
