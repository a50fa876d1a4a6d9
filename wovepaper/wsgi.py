"""The WSGI application gunicorn serves (`gunicorn wovepaper.wsgi`)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wovepaper.settings")

application = get_wsgi_application()


def freeze_start_up() -> None:
    """What start-up loaded (Django, every app's models, the URLconf and its views) lives as long as the
    worker. Frozen out of the cyclic garbage collector's sight, it is no longer walked on every collection:
    a page allocating thousands of objects triggers several, and those walks were a seventh of a profile
    page's time."""
    get_resolver().url_patterns  # noqa: B018 - imports the URLconf and every view before the freeze
    gc.collect()
    gc.freeze()


freeze_start_up()
