"""Celery tasks of the accounts app: thin, taking ids, safe to run twice (see digests.digest_send)."""

import smtplib
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection

from accounts.digests import digest_send, due_digest_account_ids


@shared_task(acks_late=True)
def send_due_digests() -> int:
    """Celery beat, every morning: one task per account whose digest is due. Returns how many."""
    account_ids = due_digest_account_ids()
    for user_id in account_ids:
        send_digest.delay(user_id)
    return len(account_ids)


@shared_task(acks_late=True)
def send_digest(user_id: int) -> int:
    """One account's digest, if still due. Returns how many papers it listed (0: nothing sent)."""
    return digest_send(user_id=user_id)


@shared_task(
    acks_late=True,
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=30,
    retry_backoff_max=60 * 30,
    max_retries=8,
)
def send_email(fields: dict[str, Any]) -> None:
    """One e-mail queued by accounts.mail.QueuedEmailBackend, handed to EMAIL_DELIVERY_BACKEND. An SMTP
    server that refuses or cannot be reached is tried again, waiting longer each time (about a day in all)."""
    deliver_email(fields)


def deliver_email(fields: dict[str, Any]) -> int:
    message = EmailMultiAlternatives(
        subject=fields["subject"],
        body=fields["body"],
        from_email=fields["from_email"],
        to=fields["to"],
        cc=fields["cc"],
        bcc=fields["bcc"],
        reply_to=fields["reply_to"],
        headers=fields["headers"],
        alternatives=[(content, mimetype) for content, mimetype in fields["alternatives"]],
        connection=get_connection(settings.EMAIL_DELIVERY_BACKEND),
    )
    return message.send()
