"""Session-wide fixtures shared by every app's tests.

One test database serves the whole session. Per-test data lives in a transaction that is rolled back;
the fixtures below commit what they create (the demo corpus) and run real processes against the same
database (gunicorn, a Celery worker), which see only committed rows. Do not use pytest-django's
`transactional_db` or `live_server`: their flush would wipe the shared demo corpus. Use `live_site` and
`celery_worker` instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from devserver.localservices import free_port, port_is_open
from tests.harvest.replay import ReplayServer

# These machines have slow hours (everything two to five times slower): a property test judges its
# inputs, not how fast they were drawn or checked.
hypothesis_settings.register_profile("wovepaper", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("wovepaper")

BASE_DIR = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
DEMO_LISTING_LIMIT = 1500  # + 200 Kaggle + 92 API papers: enough to rank against, quick to embed


@pytest.fixture(scope="session")
def django_db_setup(
    django_test_environment: None,
    django_db_blocker: pytest.FixtureRequest,
    django_db_modify_db_settings: None,
) -> Iterator[None]:
    """The test database, always: session fixtures (demo corpus, worker, live site) need it even when no
    collected test is marked django_db. Nothing is serialized: no test uses serialized rollback."""
    from django.test.utils import setup_databases, teardown_databases

    with django_db_blocker.unblock():
        config = setup_databases(
            verbosity=0, interactive=False, aliases={"default"}, serialized_aliases=set()
        )
    yield
    with django_db_blocker.unblock():
        _end_other_sessions()
        teardown_databases(config, verbosity=0)


def _end_other_sessions() -> None:
    """End every other session on the test database, so that it can be dropped.

    While the session's Chromium runs, Playwright marks an asyncio loop as running in this thread between
    its calls, and Django then keeps this thread's database connection in a context variable instead of
    the thread-local: a test using the database after the first browser test gets a second connection,
    which nothing closes. Ending the leftovers here (and any a stopped server left behind) lets the test
    database be dropped instead of failing the session at its very end.
    """
    from django.db import connection

    with connection._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [connection.settings_dict["NAME"]],
        )


@dataclass(frozen=True)
class DemoCorpus:
    paper_count: int


@pytest.hookimpl(trylast=True)  # after pytest-django's own order (database tests first)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The demo corpus is committed once a session and stays: the tests that use it (directly or through
    the live site) run last, so every other test starts from an empty database whatever its file's name."""
    items.sort(key=lambda item: "demo_corpus" in getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session")
def demo_corpus(django_db_setup: None, django_db_blocker: pytest.FixtureRequest) -> DemoCorpus:
    """The real demo corpus (a slice of the listing, all else), committed and embedded, once a session."""
    from django.core.management import call_command

    from papers.models import Paper
    from papers.services import papers_embed

    with django_db_blocker.unblock():
        call_command("load_demo", "--limit", str(DEMO_LISTING_LIMIT), "--no-embed", verbosity=0)
        missing = list(Paper.objects.without_embedding().values_list("pk", flat=True))
        for start in range(0, len(missing), 256):
            papers_embed(paper_ids=missing[start : start + 256])
        return DemoCorpus(paper_count=Paper.objects.count())


def _process_env() -> dict[str, str]:
    """The environment of a process that must use this session's test database."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return os.environ | {
        "DATABASE_URL": f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "DJANGO_SETTINGS_MODULE": "wovepaper.settings",
    }


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


# Every request of a session's browsers and HTTP clients comes from 127.0.0.1, so the live site allows
# twice the API's and ten times the search's limits per address (schemathesis alone sends about 650
# requests); the limits themselves are tested through the test client.
LIVE_SITE_ENV = {
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "API_RATE_LIMIT": "1200/m",
    "SEARCH_RATE_LIMIT": "600/m",
}


def _answers(port: int) -> bool:
    if not port_is_open(port):
        return False
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="session")
def live_site(demo_corpus: DemoCorpus) -> Iterator[str]:
    """gunicorn serving the test database on a free port, for browsers and HTTP clients: its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"],
        cwd=BASE_DIR,
        env=_process_env() | LIVE_SITE_ENV,
    )  # fmt: skip
    # The port opens when gunicorn binds; its workers answer once they have loaded Django and the
    # embedding model (seconds, or a minute on a loaded machine), and a test's client must not time out
    # waiting for that.
    deadline = time.monotonic() + 180
    while not _answers(port):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail("gunicorn did not start for the live site")
        time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    _stop(process)


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None) -> Iterator[subprocess.Popen]:
    """A real Celery worker on the session's Redis and test database, consuming every queue (its main
    process, whose children run the tasks)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "wovepaper", "worker", "--queues", "default,harvest,embed",
         "--concurrency", "1", "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
        cwd=BASE_DIR,
        env=_process_env(),
    )  # fmt: skip
    from wovepaper.celery import app

    deadline = time.monotonic() + 90
    while not app.control.ping(timeout=1):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail("the Celery worker did not start")
    yield process
    _stop(process)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright, one per session."""
    if shutil.which("chromium") is None and not Path(CHROMIUM).exists():
        pytest.skip(
            "browser tests need Debian's chromium (apt-get install chromium); `make test` installs it"
        )
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still sync.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )  # fmt: skip
        yield instance
        # While Playwright's loop runs, Django keeps this thread's database connections apart (asgiref's
        # Local acts as a context variable under a running loop); close those now, while they can still be
        # reached, or the test database cannot be dropped at the end of the session.
        from django.db import connections

        connections.close_all()
        instance.close()


@pytest.fixture
def committed(django_db_blocker: pytest.FixtureRequest) -> Callable[[], AbstractContextManager[None]]:
    """`with committed(): …` writes (or reads) outside any test transaction, for the live site to see, and
    closes this thread's connections after: while a browser test runs, Django keeps them apart from the
    ones the session closes (see _end_other_sessions), and the session's database cannot be dropped while
    one stays open. Whatever a fixture commits it deletes again the same way."""

    @contextmanager
    def outside_the_test_transaction() -> Iterator[None]:
        from django.db import connections

        with django_db_blocker.unblock():
            try:
                yield
            finally:
                connections.close_all()

    return outside_the_test_transaction


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    """A fresh browser page (own cookies) for one test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    yield tab
    context.close()


LLM_SERVER = ReplayServer().start()


@pytest.fixture
def llm_server(settings: object) -> Iterator[ReplayServer]:
    """A chat-completions server on 127.0.0.1 (the replay server, answering with tests/fixtures/llm/'s
    recorded bodies as each test scripts it), and this process's LLM settings pointing at it."""
    settings.LLM_BASE_URL = f"{LLM_SERVER.url}/v1"
    settings.LLM_API_KEY = "test-llm-key"
    settings.LLM_MODEL = "test-model"
    settings.LLM_TIMEOUT_SECONDS = 1
    LLM_SERVER.reset()
    yield LLM_SERVER
    LLM_SERVER.reset()
