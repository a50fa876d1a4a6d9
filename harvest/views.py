import redis
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from core.queues import queue_length
from harvest.models import HarvestRun
from papers.models import Paper

QUEUES = ("harvest", "embed", "default")
RECENT_RUNS = 30


@require_GET
@staff_member_required
def harvest_status(request: HttpRequest) -> HttpResponse:
    """For staff: the latest runs of every harvester and what waits in the task queues."""
    runs = HarvestRun.objects.recent().defer("checkpoint", "parameters")[:RECENT_RUNS]
    try:
        queues = {name: queue_length(name) for name in QUEUES}
    except redis.RedisError:
        queues = None  # the page still shows the runs when the broker is down
    context = {
        "runs": runs,
        "queues": queues,
        "waiting_for_embedding": Paper.objects.without_embedding().count(),
    }
    return render(request, "harvest/status.html", context)
