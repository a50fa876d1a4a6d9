import os

from celery import Celery
from celery.signals import worker_process_init
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wovepaper.settings")

app = Celery("wovepaper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def yield_the_cores_to_readers(**_kwargs: object) -> None:
    """Each child runs at WORKER_NICENESS (or lower still, if the worker was started niced), so embedding
    and harvests take the CPU the web processes leave."""
    current = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, max(current, settings.WORKER_NICENESS))
