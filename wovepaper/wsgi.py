"""The WSGI application gunicorn serves (`gunicorn wovepaper.wsgi`)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wovepaper.settings")

application = get_wsgi_application()

# Imported after Django is set up: the settings put HF_HUB_OFFLINE in the environment, which
# sentence-transformers reads when it is imported. gunicorn imports this module in each worker
# before the worker accepts a connection, so the model is loaded (and frozen with the rest, below) before
# any reader's search: loading it in the first search made that reader wait about 7 s. A worker that is
# still loading takes no connections; its siblings serve meanwhile.
from papers.embedding import load_model  # noqa: E402

load_model()


def freeze_start_up() -> None:
    """What start-up loaded (Django, every app's models, the URLconf and its views) lives as long as the
    worker. Frozen out of the cyclic garbage collector's sight, it is no longer walked on every collection:
    a page allocating thousands of objects triggers several, and those walks were a seventh of a profile
    page's time."""
    get_resolver().url_patterns  # noqa: B018 - imports the URLconf and every view before the freeze
    gc.collect()
    gc.freeze()


freeze_start_up()
