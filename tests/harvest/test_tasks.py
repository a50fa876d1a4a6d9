"""The scheduled tasks: on the beat schedule, and quiet when there is no network: each run ends in a
recorded error and the task returns, so the next scheduled run simply tries again."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings

from devserver.localservices import free_port
from harvest.models import HarvestRun
from harvest.tasks import (
    enrich_openalex,
    enrich_semantic_scholar,
    harvest_arxiv_daily,
    refresh_researcher_metrics,
)
from tests.factories import make_paper, make_researcher
from tests.harvest.upstream_corpus import clean_slate


def test_the_beat_schedule_runs_every_harvest():
    tasks = {entry["task"] for entry in django_settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "harvest.tasks.harvest_arxiv_daily",
        "harvest.tasks.enrich_openalex",
        "harvest.tasks.enrich_semantic_scholar",
        "harvest.tasks.refresh_researcher_metrics",
        "papers.tasks.embed_missing_papers",
    } <= tasks
    assert django_settings.CELERY_TASK_ROUTES["harvest.tasks.*"] == {"queue": "harvest"}


def test_harvest_tasks_are_acknowledged_late():
    for task in (harvest_arxiv_daily, enrich_openalex, enrich_semantic_scholar, refresh_researcher_metrics):
        assert task.acks_late


@pytest.mark.django_db
def test_without_a_network_every_scheduled_run_fails_quietly_into_a_recorded_error(settings):
    nowhere = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    settings.ARXIV_OAI_URL = f"{nowhere}/oai"
    settings.OPENALEX_API_URL = f"{nowhere}/openalex"
    settings.S2_API_URL = f"{nowhere}/s2"
    settings.HARVEST_MAX_ATTEMPTS = 2
    clean_slate()
    make_paper()
    make_researcher("Jason Priem", openalex_id="A5023888391", s2_id="2262347")

    results = [
        *harvest_arxiv_daily(),
        enrich_openalex(),
        enrich_semantic_scholar(),
        *refresh_researcher_metrics(),
    ]

    assert [result["state"] for result in results] == ["failed"] * 5
    runs = HarvestRun.objects.recent()[:5]
    assert {run.source for run in runs} == {"arxiv-oai", "openalex", "s2"}
    for run in runs:
        assert run.state == "failed" and run.finished_at is not None
        assert "gave up after 2 attempts: connection failed" in run.errors[-1]["message"]
