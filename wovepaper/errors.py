"""Error reports to Sentry, when SENTRY_DSN is set: unhandled errors of requests (Django) and of tasks
(Celery), without the people's data a request carries. Without it Django e-mails them to ADMINS."""

from __future__ import annotations

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration


def error_reports_to_sentry(dsn: str, *, site_url: str) -> None:
    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,  # no addresses, cookies or user ids
        traces_sample_rate=0.0,  # errors only
        environment=site_url,
        # gzip, whatever else is installed: sentry-sdk picks brotli when the module is importable, and it
        # arrives with unrelated packages (locust's HTTP client), so what is sent would depend on them.
        _experiments={"transport_compression_algo": "gzip"},
    )
