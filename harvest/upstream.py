"""HTTP to upstream sources: polite (shared rate limits, a User-Agent naming us), patient (retries with
exponential back-off and jitter on 429, 5xx, timeouts, dropped connections and bodies cut short so that
they are not well-formed, Retry-After honoured) and clear when it gives up (UpstreamError names the
source, the request and what went wrong)."""

from __future__ import annotations

import datetime
import email.utils
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import urlencode

import httpx
from django.conf import settings

from harvest.ratelimit import RateLimiter, SourceBusy
from harvest.records import MalformedResponse, UnreadableBody

logger = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
SECRET_PARAMS = frozenset({"api_key"})
Parsed = TypeVar("Parsed")


class UpstreamError(Exception):
    """A request that failed for good: after its retries, or at once for an answer that retrying cannot
    change (a 4xx, a malformed body)."""

    def __init__(self, source: str, request: str, message: str) -> None:
        super().__init__(f"{source}: {request}: {message}")
        self.source = source
        self.request = request
        self.message = message


@dataclass(frozen=True)
class Fetched(Generic[Parsed]):
    page: Parsed
    source: str
    request: str  # what was asked, secrets left out: for error messages and the run's record


def user_agent() -> str:
    return f"{settings.SITE_NAME}/1.0 (+{settings.SITE_URL}; mailto:{settings.CONTACT_EMAIL})"


def retry_after_seconds(value: str | None) -> float | None:
    """Retry-After as seconds: either a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return max(0.0, (when - datetime.datetime.now(datetime.UTC)).total_seconds())


def backoff_seconds(attempt: int) -> float:
    """Exponential back-off with jitter: about base, 2×base, 4×base… capped, each between half and all
    of it, so workers that failed together do not retry together."""
    ceiling = min(settings.HARVEST_BACKOFF_MAX_MS, settings.HARVEST_BACKOFF_MS * 2 ** (attempt - 1))
    return random.uniform(ceiling / 2, ceiling) / 1000


class UpstreamClient:
    def __init__(
        self,
        *,
        source: str,
        base_url: str,
        limiter: RateLimiter,
        params: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.source = source
        self.base_url = base_url.rstrip("/")
        self.limiter = limiter
        self.params = {name: value for name, value in (params or {}).items() if value}
        self.timeout = settings.HTTP_TIMEOUT_SECONDS
        self.http = httpx.Client(
            timeout=httpx.Timeout(self.timeout),
            headers={"User-Agent": user_agent(), **(headers or {})},
            follow_redirects=True,
        )

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> UpstreamClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def describe(self, method: str, path: str, params: dict[str, Any], body: Any = None) -> str:
        shown = {name: ("<secret>" if name in SECRET_PARAMS else value) for name, value in params.items()}
        url = f"{self.base_url}{path}" + (f"?{urlencode(shown)}" if shown else "")
        if isinstance(body, dict) and isinstance(body.get("ids"), list):
            return f"{method} {url} ({len(body['ids'])} ids)"
        return f"{method} {url}"

    def fetch(
        self,
        parse: Callable[[bytes], Parsed],
        *,
        method: str = "GET",
        path: str = "",
        params: dict[str, Any] | None = None,
        json: Any = None,
    ) -> Fetched[Parsed]:
        all_params = self.params | (params or {})
        request = self.describe(method, path, all_params, json)
        page = self._send(parse, method, f"{self.base_url}{path}", all_params, json, request)
        return Fetched(page, self.source, request)

    def _send(
        self,
        parse: Callable[[bytes], Parsed],
        method: str,
        url: str,
        params: dict[str, Any],
        body: Any,
        request: str,
    ) -> Parsed:
        attempts = settings.HARVEST_MAX_ATTEMPTS
        for attempt in range(1, attempts + 1):
            retry_after = None
            try:
                with self.limiter.slot():
                    response = self.http.request(method, url, params=params, json=body)
            except httpx.TimeoutException:
                problem = f"no answer within {self.timeout} s"
            except httpx.TransportError as error:
                problem = f"connection failed: {error or type(error).__name__}"
            except SourceBusy as error:
                raise UpstreamError(self.source, request, str(error)) from None
            else:
                if response.is_success:
                    try:
                        return parse(response.content)
                    except UnreadableBody as error:  # cut short in transit, most often: ask again
                        problem = str(error)
                    except MalformedResponse as error:
                        raise UpstreamError(self.source, request, str(error)) from None
                else:
                    excerpt = " ".join(response.text[:300].split())
                    problem = f"HTTP {response.status_code}" + (f": {excerpt}" if excerpt else "")
                    if response.status_code not in RETRY_STATUSES:
                        raise UpstreamError(self.source, request, problem)
                    retry_after = retry_after_seconds(response.headers.get("Retry-After"))
            if attempt == attempts:
                raise UpstreamError(self.source, request, f"gave up after {attempts} attempts: {problem}")
            if retry_after is not None:
                if retry_after > settings.HARVEST_RETRY_AFTER_MAX_SECONDS:
                    raise UpstreamError(
                        self.source, request, f"{problem}; asked to come back in {retry_after:.0f} s"
                    )
                self.limiter.defer(retry_after)  # every worker waits, not only this one
                delay = retry_after
            else:
                delay = backoff_seconds(attempt)
            logger.warning("%s: %s: %s; retrying in %.2f s", self.source, request, problem, delay)
            time.sleep(delay)
        raise AssertionError("unreachable: the last attempt returns or raises")
