"""Politeness towards upstream sources, counted in Redis so that every worker on every machine shares it.

Each source has a minimum gap between two requests: a caller reserves the next free slot atomically and
sleeps until it comes. arXiv also wants one connection at a time, so its callers hold a lock while their
request is open. A Retry-After from a source pushes the next slot back for everyone.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

import redis
from django.conf import settings

_KEY_PREFIX = "wovepaper:harvest"

# Reserve the next slot: it starts at the later of now and the previous reservation's end. Returns how
# many milliseconds the caller must wait. Redis's own clock, so machines with skewed clocks agree.
_RESERVE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local next_free = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now_ms, next_free)
local interval = tonumber(ARGV[1])
redis.call('SET', KEYS[1], slot + interval, 'PX', slot - now_ms + interval + 60000)
return slot - now_ms
"""

# Push the next free slot to at least now + ARGV[1] milliseconds.
_DEFER = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local until_ms = now_ms + tonumber(ARGV[1])
local next_free = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ms > next_free then
  redis.call('SET', KEYS[1], until_ms, 'PX', tonumber(ARGV[1]) + 60000)
end
return until_ms
"""

# Release the connection lock only if we still hold it (it may have expired and been taken since).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class SourceBusy(RuntimeError):
    """Another worker held the source's only connection for longer than we are willing to wait."""


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


class RateLimiter:
    def __init__(self, name: str, *, interval_ms: int, single_connection: bool = False) -> None:
        self.name = name
        self.interval_ms = interval_ms
        self.single_connection = single_connection
        self.redis = _client(settings.REDIS_URL)
        self._slot_key = f"{_KEY_PREFIX}:next-slot:{name}"
        self._lock_key = f"{_KEY_PREFIX}:connection:{name}"

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Wait for this source's next free slot (and its connection, if it allows only one)."""
        token = self._acquire_connection() if self.single_connection else None
        try:
            wait_ms = int(self.redis.eval(_RESERVE, 1, self._slot_key, self.interval_ms))
            if wait_ms > 0:
                time.sleep(wait_ms / 1000)
            yield
        finally:
            if token is not None:
                self.redis.eval(_RELEASE, 1, self._lock_key, token)

    def defer(self, seconds: float) -> None:
        """The source asked us to wait (Retry-After): nobody sends before then."""
        self.redis.eval(_DEFER, 1, self._slot_key, int(seconds * 1000))

    def _acquire_connection(self) -> str:
        token = uuid.uuid4().hex
        # A request ends (answered or timed out) well within three timeouts; a holder that dies without
        # releasing the lock loses it by then.
        hold_ms = settings.HTTP_TIMEOUT_SECONDS * 3 * 1000
        deadline = time.monotonic() + settings.HTTP_TIMEOUT_SECONDS * 4 + 60
        while not self.redis.set(self._lock_key, token, nx=True, px=hold_ms):
            if time.monotonic() > deadline:
                raise SourceBusy(f"another worker kept the {self.name} connection busy")
            time.sleep(0.05)
        return token
