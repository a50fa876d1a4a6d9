"""Read replicas (DATABASE_REPLICA_URLS): the pages' and searches' reads of the corpus go to one replica
per request; everything else stays on the primary.

On a replica: reads of the corpus apps (REPLICA_APPS) during a GET or HEAD that `reads_from_replicas`
let through. On the primary: every write, every read inside a transaction on the primary, every read of
accounts, sessions, auth, chat and harvest (the signed-in user's own data, and what the harvest decides
from), everything Celery and the commands do (no request lets them onto a replica), and for
DATABASE_REPLICA_PIN_SECONDS after a request that may have written (any other method) the same browser's
requests whole, so a reader sees their own change at once whatever the replicas' lag.

A replica that cannot be connected to is left alone by this process for REPLICA_RETRY_SECONDS: its reads
go to another replica, or to the primary, so pages slow down rather than fail (/readyz reports it)."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.db import OperationalError, connections
from django.db.models import Model
from django.http import HttpRequest, HttpResponse

REPLICA_APPS = frozenset({"papers", "researchers", "institutions", "analysis"})
PIN_COOKIE = "wp_primary"  # set after a request that may have written: reads stay on the primary a while
SAFE_METHODS = frozenset({"GET", "HEAD"})
REPLICA_RETRY_SECONDS = 30

logger = logging.getLogger(__name__)
_replica: ContextVar[str | None] = ContextVar("replica", default=None)
_down_until: dict[str, float] = {}  # per process: a replica that refused us, and until when it is skipped


def reachable_replica() -> str | None:
    """A replica to read from, at random among those not known to be down, connected to before any
    query needs it; None when none answers (the request then reads the primary)."""
    now = time.monotonic()
    candidates = [alias for alias in settings.DATABASE_REPLICAS if _down_until.get(alias, 0.0) <= now]
    random.shuffle(candidates)
    for alias in candidates:
        try:
            connections[alias].ensure_connection()
        except OperationalError as error:
            _down_until[alias] = now + REPLICA_RETRY_SECONDS
            logger.warning(
                "read replica %s is unreachable, skipped for %d s: %s", alias, REPLICA_RETRY_SECONDS, error
            )
            continue
        _down_until.pop(alias, None)
        return alias
    return None


class ReplicaRouter:
    def db_for_read(self, model: type[Model], **hints: object) -> str:
        replica = _replica.get()
        if replica is None or model._meta.app_label not in REPLICA_APPS:
            return "default"
        if connections["default"].in_atomic_block:
            return "default"  # a transaction reads what it may write, and sees its own writes
        return replica

    def db_for_write(self, model: type[Model], **hints: object) -> str:
        return "default"

    def allow_relation(self, first: Model, second: Model, **hints: object) -> bool:
        return True  # the replicas are copies of the primary: the same rows

    def allow_migrate(self, db: str, app_label: str, **hints: object) -> bool:
        return db == "default"


def reads_from_replicas(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable:
    def middleware(request: HttpRequest) -> HttpResponse:
        replica = None
        if request.method in SAFE_METHODS and PIN_COOKIE not in request.COOKIES:
            replica = reachable_replica()
        if replica is None:
            response = get_response(request)
        else:
            token = _replica.set(replica)
            try:
                response = get_response(request)  # renders a TemplateResponse too
            finally:
                _replica.reset(token)
        if request.method not in SAFE_METHODS:
            response.set_cookie(
                PIN_COOKIE,
                "1",
                max_age=settings.DATABASE_REPLICA_PIN_SECONDS,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response

    return middleware
