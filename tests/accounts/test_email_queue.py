"""E-mail goes out through Celery (accounts.mail): a request only queues it, so a stalled SMTP server
never holds a page, and a real worker delivers it with EMAIL_DELIVERY_BACKEND."""

from __future__ import annotations

import base64
import json
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection

# The session's Celery worker (started after collection) delivers into files the test can read.
MAILBOX = Path(tempfile.mkdtemp(prefix="wovepaper-mailbox-"))
os.environ["EMAIL_DELIVERY_BACKEND"] = "django.core.mail.backends.filebased.EmailBackend"
os.environ["EMAIL_FILE_PATH"] = str(MAILBOX)


@pytest.fixture
def stalled_smtp_server() -> Iterator[int]:
    """Accepts connections and never says a word: an SMTP server that hangs."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


def _queued(queue: str = "default") -> list[dict]:
    """The e-mails waiting in a Celery queue, as the worker will read them."""
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    found = []
    for raw in broker.lrange(queue, 0, -1):
        envelope = json.loads(raw)
        if envelope["headers"]["task"] == "accounts.tasks.send_email":
            args, _kwargs, _embed = json.loads(base64.b64decode(envelope["body"]))
            found.append(args[0])
    return found


@pytest.mark.django_db
def test_a_sign_up_queues_its_email_instead_of_waiting_for_smtp(client, settings, stalled_smtp_server):
    settings.EMAIL_BACKEND = "accounts.mail.QueuedEmailBackend"  # as deployed (the tests' default: locmem)
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", stalled_smtp_server, 30
    settings.EMAIL_USE_TLS = False

    started = time.monotonic()
    response = client.post(
        "/accounts/sign-up", {"email": "queued.reader@example.org", "password": "woven-papers-9931"}
    )
    assert response.status_code == 302
    assert time.monotonic() - started < 5  # the SMTP server would have held it for 30 s

    [queued] = _queued()
    assert queued["to"] == ["queued.reader@example.org"]
    assert queued["subject"] == "wovepaper: confirm your e-mail address"
    assert f"{settings.SITE_URL}/accounts/confirm/" in queued["body"]


def test_a_worker_delivers_a_queued_email(celery_worker):
    subject = f"wovepaper: delivered by the worker {time.time_ns()}"
    message = EmailMultiAlternatives(
        subject=subject,
        body="Plain text.",
        to=["reader@example.org"],
        headers={"List-Unsubscribe": "<https://wovepaper.org/account/unsubscribe/x>"},
        connection=get_connection("accounts.mail.QueuedEmailBackend"),
    )
    message.attach_alternative("<p>HTML</p>", "text/html")
    assert message.send() == 1

    deadline = time.monotonic() + 60
    while not (delivered := [p for p in MAILBOX.glob("*.log") if subject in p.read_text()]):
        assert time.monotonic() < deadline, "the worker did not deliver the e-mail"
        time.sleep(0.2)
    text = delivered[0].read_text()
    assert "To: reader@example.org" in text
    assert "List-Unsubscribe: <https://wovepaper.org/account/unsubscribe/x>" in text
    assert "<p>HTML</p>" in text
