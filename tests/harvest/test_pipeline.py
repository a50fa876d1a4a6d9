"""End to end with a real Celery worker on the session's Redis: a reader asks for a paper we do not have,
the worker harvests it from the arXiv API, stores it, embeds it, and the HNSW index finds it nearest to
its own vector."""

from __future__ import annotations

import time

from django.db import connection, transaction
from pgvector.django import CosineDistance

from harvest.on_demand import paper_fetch_request
from papers.models import Authorship, Paper
from tests.harvest.committed import forget_papers
from tests.harvest.replay import fixture, xml

ARXIV_ID = "2104.12255"


def wait_for_embedding(arxiv_id: str, timeout: float = 240) -> Paper:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        paper = Paper.objects.filter(arxiv_id=arxiv_id, embedding__isnull=False).first()
        if paper is not None:
            return paper
        time.sleep(0.5)
    raise AssertionError(f"{arxiv_id} was not harvested and embedded within {timeout} s")


def test_a_paper_asked_for_is_harvested_embedded_and_its_own_nearest_neighbour(
    celery_worker, django_db_blocker, replay
):
    replay.route(
        "/api/query", xml(fixture("arxiv/api_atom/2026_id_2104.12255v1_s0_m100.xml")), id_list=ARXIV_ID
    )
    with django_db_blocker.unblock():
        forget_papers([ARXIV_ID], run_sources=["arxiv-api"])
        try:
            paper_fetch_request(arxiv_id=ARXIV_ID)
            paper_fetch_request(arxiv_id=ARXIV_ID)  # asked again within the hour: not queued again

            paper = wait_for_embedding(ARXIV_ID)

            assert len(replay.seen("/api/query")) == 1
            assert paper.title and len(paper.embedding) == 384
            assert not Authorship.objects.filter(paper=paper, researcher__isnull=True).exists()
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL enable_seqscan = off")  # a small table would not need the index
                nearest = Paper.objects.order_by(CosineDistance("embedding", paper.embedding))[:1]
                assert "paper_embedding_hnsw" in nearest.explain()
                assert list(nearest) == [paper]
        finally:
            forget_papers([ARXIV_ID], run_sources=["arxiv-api"])
