"""Chat's background work: the sentence vectors of newly embedded papers, on the embed queue after the
papers' own vectors (which search needs first)."""

from celery import shared_task
from django.conf import settings

from chat.sentences import paper_sentences_encode, papers_without_sentences
from core.queues import queue_length


@shared_task(acks_late=True)
def encode_sentences(paper_ids: list[int]) -> int:
    return paper_sentences_encode(paper_ids=paper_ids)


@shared_task(acks_late=True)
def encode_missing_sentences(limit: int = 5000) -> int:
    """Sweep: queue embedded papers whose sentences are not stored yet, in batches. Skipped while the embed
    queue has work (papers waiting for their own vectors come first, and a backlog is not queued twice)."""
    if queue_length("embed"):
        return 0
    ids = list(papers_without_sentences().values_list("pk", flat=True)[:limit])
    batch = settings.EMBEDDING_BATCH_SIZE
    for start in range(0, len(ids), batch):
        encode_sentences.delay(ids[start : start + batch])
    return len(ids)
