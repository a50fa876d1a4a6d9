"""A pytest plugin (`-p tests.services`, see pyproject.toml) that gives the session real services.

It starts PostgreSQL with pgvector and Redis, from their wheels, in a temporary directory before
pytest-django loads the settings, so DATABASE_URL and REDIS_URL point at them. A DATABASE_URL or REDIS_URL
already in the environment is used instead (pytest-django then creates and drops `test_<name>` there).
Run the suite with `python -m pytest` (or `make test`) so that this module is importable.

Under pytest-xdist (`-n 2`, as `make test` runs) each worker starts its own servers, so workers share no
database and no Redis (each test empties Redis); the controller, which runs no test, starts none.
"""

import atexit
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.env import redis_database_url
from devserver.localservices import EmbeddedPostgres, EmbeddedRedis, free_port

_session_dir = Path(tempfile.mkdtemp(prefix="wovepaper-tests-"))
_postgres: EmbeddedPostgres | None = None
_redis: EmbeddedRedis | None = None


def _start_services() -> None:
    global _postgres, _redis
    if "DATABASE_URL" not in os.environ:
        _postgres = EmbeddedPostgres(_session_dir / "postgres", free_port())
        _postgres.start()
        _postgres.create_database("wovepaper")
        os.environ["DATABASE_URL"] = _postgres.url("wovepaper")
    if "REDIS_URL" not in os.environ:
        _redis = EmbeddedRedis(_session_dir / "redis", free_port(), persist=False)
        _redis.start()
        os.environ["REDIS_URL"] = _redis.url()
    elif worker := os.environ.get("PYTEST_XDIST_WORKER"):
        # One Redis server given for every worker (pytest-django already gives each its own test
        # database): each worker takes two numbered databases of it, its broker's and its cache's.
        number = int(worker.removeprefix("gw"))
        os.environ["REDIS_URL"] = redis_database_url(os.environ["REDIS_URL"], 2 * number)
        os.environ["CACHE_REDIS_URL"] = redis_database_url(os.environ["REDIS_URL"], 2 * number + 1)


def _configure_environment() -> None:
    os.environ.setdefault("SECRET_KEY", "test-secret-key-" + "x" * 48)
    os.environ.setdefault("HTTPS", "false")
    os.environ["STATIC_ROOT"] = str(_session_dir / "static")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # No keyword index unless a test builds one (keyword search then ranks with PostgreSQL); never the
    # developer's index under var/, which holds other papers.
    os.environ["SEARCH_KEYWORD_INDEX_DIR"] = str(_session_dir / "keyword-index")
    # A loaded test machine (two cores, several sessions) answers Redis in more than production's 100 ms at
    # times: the cache then counted as down and limits that fail closed answered 503. The outage tests set
    # 100 ms themselves.
    os.environ.setdefault("REDIS_CACHE_TIMEOUT_MS", "2000")


def _stop_services() -> None:
    if _redis is not None:
        _redis.stop()
    if _postgres is not None:
        _postgres.stop()
    import shutil

    shutil.rmtree(_session_dir, ignore_errors=True)


def _distributes(early_config: pytest.Config) -> bool:
    """Whether this process is an xdist controller that hands the tests to workers."""
    return "PYTEST_XDIST_WORKER" not in os.environ and bool(
        getattr(early_config.known_args_namespace, "numprocesses", None)
    )


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    _configure_environment()
    if not _distributes(early_config):
        _start_services()
    atexit.register(_stop_services)


@pytest.fixture(scope="session", autouse=True)
def collected_static_files() -> None:
    """Pages render through the same hashed, compressed static files production serves."""
    from django.core.management import call_command

    call_command("collectstatic", "--noinput", verbosity=0)


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Each test starts with an empty Redis: the cache's database (rate-limit counters, cached query
    vectors) and the broker's (queued tasks, harvest politeness), as when both were one."""
    import redis
    from django.conf import settings
    from django.core.cache import caches

    for url in (settings.CACHE_REDIS_URL, settings.REDIS_URL):  # directly: a paused cache would not clear
        database = redis.Redis.from_url(url)
        database.flushdb()
        database.close()
    for alias in ("default", "ratelimits"):
        caches[alias]._paused_until = 0.0  # a pause left by an earlier test's outage ends with it


def _server_url(database: str) -> str:
    from django.conf import settings

    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{database}"


@pytest.fixture
def scratch_database() -> Iterator[str]:
    """A new, empty database on the test server (its DATABASE_URL), dropped afterwards."""
    import uuid

    import psycopg
    from psycopg import sql

    name = f"scratch_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_server_url("postgres"), autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield _server_url(name)
    with psycopg.connect(_server_url("postgres"), autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
