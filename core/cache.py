"""The Redis cache, for a site that must keep answering when Redis does not.

With Django's own RedisCache, a stopped Redis made the researcher, institution, search, API and sign-in
pages answer 500, and a stalled one made them wait five seconds first. Here every call has a short socket
timeout (REDIS_CACHE_TIMEOUT_MS, 100 ms), and a failed call pauses the cache for two seconds, so a page
that touches it several times pays the timeout once, not at every call.

Two ways to fail, chosen per cache alias (settings.CACHES):
- `fail_silently` (the default cache): a failure is a miss. Figures are computed instead of read, a
  session comes from the database (cached_db), nothing is written. Pages are slower, never broken.
- strict (the counters of rate limits, alias "ratelimits"): a failure raises CacheUnavailable, so each
  limit decides what an outage means for it (core.ratelimits: fail open or closed).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

PAUSE_AFTER_FAILURE_SECONDS = 2.0
_RAISE = object()


class CacheUnavailable(RedisError):
    """Redis did not answer in time (or is paused after failing to): the value is not known."""


class ResilientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        self.fail_silently = bool(options.pop("fail_silently", True))
        super().__init__(server, {**params, "OPTIONS": options})
        self._paused_until = 0.0

    def _call(self, on_failure: Any, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < self._paused_until:
            return self._failed(on_failure, None)
        try:
            return method(*args, **kwargs)
        except RedisError as error:
            self._paused_until = time.monotonic() + PAUSE_AFTER_FAILURE_SECONDS
            logger.warning(
                "the Redis cache did not answer (%s: %s); going without it for %s s",
                type(error).__name__,
                error,
                PAUSE_AFTER_FAILURE_SECONDS,
            )
            return self._failed(on_failure, error)

    def _failed(self, on_failure: Any, error: RedisError | None) -> Any:
        if not self.fail_silently:
            raise CacheUnavailable("the Redis cache is unavailable") from error
        if on_failure is _RAISE:  # incr of a key the cache does not have, as Django's caches say it
            raise ValueError("the cache is unavailable, so the key is not there")
        return on_failure

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._call(default, super().get, key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        return self._call(None, super().set, key, value, timeout, version)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._call(False, super().add, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._call(False, super().touch, key, timeout, version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._call(False, super().delete, key, version)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._call({}, super().get_many, keys, version)

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._call(False, super().has_key, key, version)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return self._call(_RAISE, super().incr, key, delta, version)

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._call(list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        return self._call(None, super().delete_many, keys, version)

    def clear(self) -> bool:
        return self._call(False, super().clear)
