"""What /readyz reports: whether each service the site depends on answers, checked separately, each
within half a second, so the report comes back even while one of them stalls."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import DatabaseError, connections

CHECK_TIMEOUT_SECONDS = 0.5


def _database(alias: str) -> bool:
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False


def _redis(url: str) -> bool:
    client = redis.Redis.from_url(
        url, socket_timeout=CHECK_TIMEOUT_SECONDS, socket_connect_timeout=CHECK_TIMEOUT_SECONDS
    )
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def dependencies() -> dict[str, bool]:
    """The database, each read replica (DATABASE_REPLICA_URLS: pages read from them, so one that is down
    is a page that fails), the cache's Redis and the broker's Redis (one server or two, see settings)."""
    return {
        "database": _database("default"),
        **{replica: _database(replica) for replica in settings.DATABASE_REPLICAS},
        "cache": _redis(settings.CACHE_REDIS_URL),
        "broker": _redis(settings.CELERY_BROKER_URL),
    }
