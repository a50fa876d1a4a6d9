"""The shared session fixtures work end to end: a real worker embeds, a real browser reads the site."""

import os

import httpx
import psutil
import pytest
from django.conf import settings
from pgvector.django import CosineDistance

from papers.models import Paper
from papers.tasks import embed_papers
from tests.factories import make_paper


def test_a_celery_worker_embeds_a_committed_paper(celery_worker, django_db_blocker):
    with django_db_blocker.unblock():  # committed, so the worker process can see it
        paper = make_paper(title="Self-supervised pretraining of protein language models")
        result = embed_papers.apply_async([[paper.pk]], ignore_result=False)  # results are not kept otherwise
        assert result.get(timeout=120) == 1
        paper.refresh_from_db()
        assert paper.embedding is not None and len(paper.embedding) == 384
        nearest = Paper.objects.exclude(embedding=None).order_by(CosineDistance("embedding", paper.embedding))
        assert nearest.first() == paper
        paper.delete()


def test_the_workers_children_yield_the_cores_to_the_web_processes(celery_worker):
    assert settings.WORKER_NICENESS == 10
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    worker = psutil.Process(celery_worker.pid)
    children = worker.children()
    assert children, "the worker has no pool process"
    assert {child.nice() for child in children} == {max(ours, settings.WORKER_NICENESS)}
    assert worker.nice() == ours  # the main process only hands out tasks, at the priority it was given


def test_the_live_site_answers_over_http(live_site, demo_corpus):
    response = httpx.get(f"{live_site}/", timeout=30)
    assert response.status_code == 200
    assert "Latest papers" in response.text


@pytest.mark.browser
def test_a_reader_opens_a_paper_from_the_home_page(live_site, page):
    page.goto(f"{live_site}/")
    first = page.locator(".paper-item h3 a").first
    title = first.inner_text()
    first.click()
    page.wait_for_url("**/papers/**")
    assert page.locator("h1").inner_text() == title
