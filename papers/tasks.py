from celery import current_app, shared_task
from celery.signals import worker_process_init
from django.conf import settings

from core.queues import queue_length
from papers.embedding import load_model
from papers.models import Paper
from papers.services import papers_embed
from papers.signals import papers_embedded


@shared_task(acks_late=True)
def embed_papers(paper_ids: list[int]) -> int:
    embedded = papers_embed(paper_ids=paper_ids)
    if embedded:
        papers_embedded.send(sender=Paper, paper_ids=paper_ids)
    return embedded


@shared_task(acks_late=True)
def embed_missing_papers(limit: int = 5000) -> int:
    """Sweep: queue papers without vectors in batches (new harvests, the demo corpus). Skipped while
    earlier batches are still waiting, so a long backlog is not queued twice."""
    if queue_length("embed"):
        return 0
    ids = list(Paper.objects.without_embedding().order_by("-published").values_list("pk", flat=True)[:limit])
    batch = settings.EMBEDDING_BATCH_SIZE * 4
    for start in range(0, len(ids), batch):
        embed_papers.delay(ids[start : start + batch])
    return len(ids)


@worker_process_init.connect
def load_the_model_in_an_embed_worker(**_kwargs: object) -> None:
    """Each child of a worker that consumes the embed queue loads the model as it starts, not in its first
    task; workers for the other queues never hold it (hundreds of megabytes each). consume_from is the
    worker's --queues (None: every queue)."""
    consumed = current_app.amqp.queues.consume_from
    if consumed is None or "embed" in consumed:
        load_model()
