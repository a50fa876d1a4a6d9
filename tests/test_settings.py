import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.env import env_bool, env_email, env_int, env_list, env_url

BASE_DIR = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "SECRET_KEY": "Zq8r0Yt3nLwP5vXk2Hs9Jd4Fb7Gc1Mx6Ne0Ua3Ri8Oy5Tw2Qz7Lp4Kv9Hj6Bf1Dg3Sm",
    "ALLOWED_HOSTS": "wovepaper.org",
    "SITE_URL": "https://wovepaper.org",
    "DEBUG": "false",
    "EMAIL_HOST": "smtp.wovepaper.org",  # without it, check --deploy warns that e-mails are only printed
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    unset = {"DEBUG", "HTTPS", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}  # what a deployment would not have
    environment = {k: v for k, v in os.environ.items() if k not in unset} | env
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=environment, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("reader", "value", "message"),
    [
        (lambda: env_bool("FLAG", False), "False-ish", "FLAG must be true or false"),
        (lambda: env_int("FLAG", 1), "ten", "FLAG must be a whole number"),
        (lambda: env_int("FLAG", 1, minimum=1), "0", "FLAG must be at least 1"),
        (lambda: env_int("FLAG", 1, maximum=1000), "1001", "FLAG must be at most 1000"),
        (lambda: env_url("FLAG", "http://x"), "ftp://example.org", "FLAG must be a URL"),
        (lambda: env_email("FLAG", "a@b.org"), "not-an-address", "FLAG must be an e-mail address"),
        (lambda: env_list("FLAG", ["a"]), " , ", "FLAG must list at least one value"),
    ],
)
def test_each_reader_refuses_a_bad_value_naming_the_variable(monkeypatch, reader, value, message):
    monkeypatch.setenv("FLAG", value)
    with pytest.raises(ImproperlyConfigured, match=message):
        reader()


def test_the_string_false_is_false(monkeypatch):
    monkeypatch.setenv("FLAG", "False")
    assert env_bool("FLAG", True) is False


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DEBUG", "maybe", "DEBUG must be true or false, got 'maybe'"),
        ("DATABASE_URL", "mysql://db/wovepaper", "DATABASE_URL must be a URL starting with postgres://"),
        ("REDIS_URL", "localhost:6379", "REDIS_URL must be a URL starting with redis://"),
        ("CONTACT_EMAIL", "nobody", "CONTACT_EMAIL must be an e-mail address"),
        ("SITE_URL", "wovepaper.org", "SITE_URL must be a URL starting with http://"),
        ("SEARCH_HNSW_EF_SEARCH", "2000", "SEARCH_HNSW_EF_SEARCH must be at most 1000, got 2000"),
    ],
)
def test_start_up_stops_with_one_line_naming_a_bad_variable(variable, value, message):
    result = manage("check", **(PRODUCTION | {variable: value}))
    assert result.returncode != 0
    assert result.stderr.strip().startswith(f"wovepaper: configuration error: {message}")
    assert len(result.stderr.strip().splitlines()) == 1


def test_start_up_refuses_to_run_without_a_secret_key_when_debug_is_off():
    result = manage("check", **{k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"})
    assert result.returncode != 0
    assert (
        result.stderr.strip() == "wovepaper: configuration error: SECRET_KEY must be set when DEBUG is false"
    )


def test_production_settings_pass_the_deployment_checklist():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_a_gunicorn_worker_freezes_what_start_up_loaded_out_of_the_garbage_collectors_sight():
    # Importing the WSGI module is what gunicorn does in each worker.
    script = "import gc, sys, wovepaper.wsgi; print(gc.get_freeze_count(), 'wovepaper.urls' in sys.modules)"
    unset = {"DEBUG", "HTTPS", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}
    environment = {k: v for k, v in os.environ.items() if k not in unset} | PRODUCTION
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=BASE_DIR, env=environment, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    frozen, urlconf_loaded = result.stdout.split()
    assert int(frozen) > 50_000  # Django, the apps and the views: far more than a bare interpreter's
    assert urlconf_loaded == "True"


def test_trusted_proxies_must_be_addresses_or_networks():
    """Finding 3 of issue 15: the proxies whose X-Forwarded-For is believed are named strictly."""
    result = manage("check", **(PRODUCTION | {"BEHIND_PROXY": "true", "TRUSTED_PROXIES": "proxy.internal"}))
    assert result.stderr.strip() == (
        "wovepaper: configuration error: TRUSTED_PROXIES must list IP addresses or networks such as "
        "10.0.0.2 or 172.16.0.0/12, got 'proxy.internal'"
    )


def test_the_log_level_is_read_in_any_case_and_a_bad_one_is_one_line():
    """Issue 15: LOG_LEVEL=info stopped start-up with a traceback."""
    assert manage("check", **(PRODUCTION | {"LOG_LEVEL": "info"})).returncode == 0
    result = manage("check", **(PRODUCTION | {"LOG_LEVEL": "loud"}))
    assert result.stderr.strip() == (
        "wovepaper: configuration error: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, "
        "got 'loud'"
    )


def test_each_replica_url_becomes_a_database_behind_the_router():
    shown = (
        "from django.conf import settings as s; print(s.DATABASE_REPLICAS, s.DATABASES['replica2']['HOST'])"
    )
    result = manage(
        "shell",
        "-c",
        shown,
        **PRODUCTION,
        DATABASE_REPLICA_URLS="postgres://u@r1:5432/w, postgres://u@r2:5432/w",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "['replica1', 'replica2'] r2"


def test_a_replica_url_that_is_not_postgresql_stops_start_up_naming_it():
    result = manage("check", **PRODUCTION, DATABASE_REPLICA_URLS="postgres://u@r1/w,mysql://u@r2/w")
    assert result.returncode != 0
    assert "DATABASE_REPLICA_URLS: replica 2 is not a postgres:// URL" in result.stderr
