"""What a self-hoster relies on at start-up: a warning when e-mails would only be printed, errors reported
to Sentry (SENTRY_DSN) or e-mailed to ADMINS, and torch imported only by a process that embeds, kept to
TORCH_THREADS threads there."""

from __future__ import annotations

import gzip
import http.server
import os
import runpy
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from accounts.checks import EMAILS_ONLY_PRINTED
from core.env import env_addresses
from papers.embedding import open_encoder
from tests.test_settings import PRODUCTION
from wovepaper.celery import app as celery_app

BASE_DIR = Path(__file__).resolve().parent.parent


def _run(*args: str, **env: str) -> subprocess.CompletedProcess:
    """A process started as a deployment would start it (the session's e-mail test settings left out)."""
    unset = {"DEBUG", "HTTPS", "SECRET_KEY", "EMAIL_HOST", "EMAIL_DELIVERY_BACKEND", "EMAIL_FILE_PATH"}
    environment = {k: v for k, v in os.environ.items() if k not in unset} | env
    return subprocess.run(
        [sys.executable, *args], cwd=BASE_DIR, env=environment, capture_output=True, text=True
    )


def _python(script: str, **env: str) -> subprocess.CompletedProcess:
    return _run("-c", script, **env)


def test_a_deployment_without_smtp_is_told_that_emails_are_only_printed():
    without_smtp = {k: v for k, v in PRODUCTION.items() if k != "EMAIL_HOST"}
    checked = _run("manage.py", "check", "--deploy", **without_smtp)
    assert "accounts.W001" in checked.stderr + checked.stdout
    assert EMAILS_ONLY_PRINTED in checked.stderr + checked.stdout
    # And every process says so when it starts (gunicorn imports the WSGI module; workers set Django up).
    started = _python("import wovepaper.wsgi", **without_smtp, DJANGO_SETTINGS_MODULE="wovepaper.settings")
    assert started.returncode == 0, started.stderr
    assert f"WARNING accounts: {EMAILS_ONLY_PRINTED}" in started.stderr
    with_smtp = _python("import wovepaper.wsgi", **PRODUCTION, DJANGO_SETTINGS_MODULE="wovepaper.settings")
    assert EMAILS_ONLY_PRINTED not in with_smtp.stderr


def test_admins_are_read_as_names_and_addresses(monkeypatch):
    monkeypatch.setenv("ADMINS", "Ada Lovelace <ada@example.org>, ops@example.org")
    assert env_addresses("ADMINS") == [
        ("Ada Lovelace", "ada@example.org"),
        ("ops@example.org", "ops@example.org"),
    ]
    monkeypatch.setenv("ADMINS", "Ada <not an address>")
    with pytest.raises(ImproperlyConfigured, match="ADMINS must list e-mail addresses"):
        env_addresses("ADMINS")


@pytest.mark.django_db
def test_without_sentry_an_error_is_mailed_to_the_admins(settings):
    settings.ADMINS = [("Ops", "ops@example.org")]
    settings.ROOT_URLCONF = "tests.urls_with_a_broken_page"
    response = Client(raise_request_exception=False).get("/broken")
    assert response.status_code == 500
    [report] = mail.outbox
    assert report.to == ["ops@example.org"]
    assert "RuntimeError" in report.subject + report.body and "broken on purpose" in report.body


class _SentryIngest(http.server.BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 - the standard library's name
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        compressed = self.headers.get("Content-Encoding") == "gzip"
        self.received.append(gzip.decompress(body) if compressed else body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_with_sentry_an_error_is_sent_there_without_personal_data():
    """A real sentry-sdk, in its own process, sending to a stand-in for Sentry's ingest on loopback."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SentryIngest)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    dsn = f"http://publickey@127.0.0.1:{server.server_address[1]}/42"
    script = (
        "import django, sentry_sdk; django.setup()\n"
        "from django.conf import settings; settings.ROOT_URLCONF = 'tests.urls_with_a_broken_page'\n"
        "from django.test import Client\n"
        "client = Client(raise_request_exception=False, HTTP_HOST='wovepaper.org')\n"
        "status = client.get('/broken', secure=True).status_code\n"
        "sentry_sdk.flush(5)\n"
        "from django.conf import settings\n"
        "print(status, settings.ADMINS)\n"
    )
    result = _python(
        script,
        **PRODUCTION,
        SENTRY_DSN=dsn,
        ADMINS="ops@example.org",
        DJANGO_SETTINGS_MODULE="wovepaper.settings",
    )
    server.shutdown()
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["500", "[]"]  # reported to Sentry, so nobody is e-mailed as well
    sent = b"".join(_SentryIngest.received)
    assert b"broken on purpose" in sent and b"RuntimeError" in sent
    assert b'"environment":"https://wovepaper.org"' in sent.replace(b" ", b"")


def test_torch_is_imported_only_to_export_the_model_or_to_run_the_fallback():
    # Importing torch and sentence-transformers costs seconds and hundreds of megabytes: migrate, beat and
    # every manage.py command load the URLconf, the admin and the tasks, and none of them embeds; a web
    # worker runs the exported model with ONNX Runtime alone.
    open_encoder("onnx")  # exported here, if no earlier process of this checkout has
    heavy = "sorted({'torch', 'sentence_transformers', 'transformers'} & set(sys.modules))"
    script = (
        "import sys, django; django.setup()\n"
        "from django.urls import get_resolver; get_resolver().url_patterns\n"
        "import wovepaper.celery, harvest.tasks, papers.tasks, chat.tasks, analysis.tasks\n"
        f"print({heavy}, 'onnxruntime' in sys.modules)\n"
        "from papers.embedding import embed_texts; embed_texts(['a query'])\n"
        f"print({heavy}, 'onnxruntime' in sys.modules)\n"
    )
    result = _python(script, **PRODUCTION, DJANGO_SETTINGS_MODULE="wovepaper.settings")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["[] False", "[] True"]


def test_torch_keeps_to_its_threads_in_each_process():
    script = (
        "import django, torch; django.setup()\n"
        "from papers.embedding import get_model; get_model(); print(torch.get_num_threads())\n"
    )
    result = _python(
        script,
        **PRODUCTION,
        DJANGO_SETTINGS_MODULE="wovepaper.settings",
        TORCH_THREADS="1",
        EMBEDDING_BACKEND="torch",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"


def test_gunicorn_replaces_its_workers_with_jitter_and_reads_requests_whole(monkeypatch):
    monkeypatch.setenv("GUNICORN_MAX_REQUESTS", "2000")
    config = runpy.run_path(str(BASE_DIR / "gunicorn.conf.py"))
    assert config["worker_class"] == "wovepaper.gunicorn_worker.BufferingThreadWorker"  # slow clients
    assert (config["workers"], config["threads"], config["timeout"]) == (2, 4, 30)
    assert config["max_requests"] == 2000 and config["max_requests_jitter"] == 200  # not all at once


def test_workers_keep_no_results_and_are_replaced_past_their_memory():
    assert celery_app.conf.task_ignore_result is True  # nothing reads them; the broker is not a store
    assert celery_app.conf.worker_max_memory_per_child == settings.CELERY_WORKER_MAX_MEMORY_PER_CHILD
    assert settings.CELERY_WORKER_MAX_MEMORY_PER_CHILD == 1_500_000  # kilobytes, WORKER_MAX_MEMORY_PER_CHILD
