"""The cache degrades instead of failing (core.cache): against a port where no Redis listens, reads are
misses, writes are dropped, and the strict alias of the rate limits raises so each limit can decide."""

from __future__ import annotations

import time

import pytest
from django.core.cache import caches

from core.cache import CacheUnavailable
from core.env import redis_database_url
from devserver.localservices import free_port


@pytest.fixture
def no_redis(settings):
    url = f"redis://127.0.0.1:{free_port()}/1"
    options = {"socket_timeout": 0.1, "socket_connect_timeout": 0.1}
    backend = {"BACKEND": "core.cache.ResilientRedisCache", "LOCATION": url, "OPTIONS": options}
    settings.CACHES = {
        "default": backend,
        "ratelimits": backend | {"OPTIONS": options | {"fail_silently": False}},
    }


def test_it_computes_what_it_cannot_read_and_drops_what_it_cannot_write(no_redis):
    cache = caches["default"]
    assert cache.get("figures", "computed") == "computed"
    assert cache.get_or_set("figures", lambda: {"fields": 3}) == {"fields": 3}
    assert cache.add("claim", True) is False
    assert cache.set("key", 1) is None
    assert cache.get_many(["a", "b"]) == {}
    assert cache.delete("key") is False
    with pytest.raises(ValueError):  # as for a key the cache does not have
        cache.incr("counter")


def test_after_a_failure_it_stops_asking_for_a_moment(no_redis):
    cache = caches["default"]
    cache.get("first")
    started = time.monotonic()
    for _ in range(50):
        cache.get("again")
    assert time.monotonic() - started < 0.05  # no connection tried: fifty timeouts would be seconds


def test_the_rate_limit_counters_say_they_cannot_count(no_redis):
    with pytest.raises(CacheUnavailable):
        caches["ratelimits"].add("counter", 0)
    with pytest.raises(CacheUnavailable):  # paused, and still saying so
        caches["ratelimits"].incr("counter")


def test_the_cache_and_the_broker_live_in_different_redis_databases(settings):
    assert settings.CACHES["default"]["LOCATION"].endswith("/1")
    assert settings.CELERY_BROKER_URL.endswith("/0")
    assert redis_database_url("rediss://:secret@cache:6380/0?ssl_cert_reqs=required", 1) == (
        "rediss://:secret@cache:6380/1?ssl_cert_reqs=required"
    )
