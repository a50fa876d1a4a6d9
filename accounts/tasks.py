"""Celery tasks of the accounts app: thin, taking ids, safe to run twice (see digests.digest_send)."""

from celery import shared_task

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
