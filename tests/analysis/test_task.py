"""The analysis follows the embedding in a real Celery worker: the embed task's batch is queued for
analysis on the embed queue as soon as its vectors are stored."""

import time

from django.conf import settings

from papers.models import Paper
from papers.tasks import embed_papers
from tests.factories import make_paper


def test_the_analysis_task_runs_on_the_embed_queue():
    assert settings.CELERY_TASK_ROUTES["analysis.tasks.*"] == {"queue": "embed"}


def test_an_embedded_paper_is_analysed_by_the_worker(celery_worker, django_db_blocker):
    with django_db_blocker.unblock():
        paper = make_paper(
            title="A survey of woven graph networks",
            abstract="We review graph networks for weaving. Many looms were studied over the decades.",
            primary_category="cs.LG",
        )
        try:
            embed_papers.delay([paper.pk])
            deadline = time.monotonic() + 240
            while not Paper.objects.filter(pk=paper.pk, analysis__isnull=False).exists():
                assert time.monotonic() < deadline, "the paper was not embedded and analysed within 240 s"
                time.sleep(0.5)
            paper.refresh_from_db()
            assert paper.embedding is not None
            assert (paper.analysis.paper_type, paper.analysis.research_field) == (
                "survey",
                "Machine Learning (cs.LG), Computer Science",
            )
            assert paper.analysis.summary in {
                "We review graph networks for weaving.",
                "Many looms were studied over the decades.",
            }
        finally:
            paper.delete()
