"""Read replicas (DATABASE_REPLICA_URLS): the pages' and searches' reads of the corpus go to one replica
per request; everything else stays on the primary.

On a replica: reads of the corpus apps (REPLICA_APPS) during a GET or HEAD that `reads_from_replicas`
let through. On the primary: every write, every read inside a transaction on the primary, every read of
accounts, sessions, auth, chat and harvest (the signed-in user's own data, and what the harvest decides
from), everything Celery and the commands do (no request lets them onto a replica), and for
DATABASE_REPLICA_PIN_SECONDS after a request that may have written (any other method) the same browser's
requests whole, so a reader sees their own change at once whatever the replicas' lag."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.db import connections
from django.db.models import Model
from django.http import HttpRequest, HttpResponse

REPLICA_APPS = frozenset({"papers", "researchers", "institutions", "analysis"})
PIN_COOKIE = "wp_primary"  # set after a request that may have written: reads stay on the primary a while
SAFE_METHODS = frozenset({"GET", "HEAD"})

_replica: ContextVar[str | None] = ContextVar("replica", default=None)


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
        if request.method not in SAFE_METHODS or PIN_COOKIE in request.COOKIES:
            response = get_response(request)
        else:
            token = _replica.set(random.choice(settings.DATABASE_REPLICAS))
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
