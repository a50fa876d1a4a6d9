"""Helpers for tests whose rows must be committed (a subprocess or the Celery worker has to see them):
they start from, and leave behind, a database without the recorded papers they harvest."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from harvest.models import HarvestRun
from papers.models import Authorship, Paper
from researchers.models import Researcher


def forget_papers(arxiv_ids: Iterable[str], *, run_sources: Iterable[str] = ()) -> None:
    arxiv_ids = list(arxiv_ids)
    researcher_ids = set(
        Authorship.objects.filter(paper__arxiv_id__in=arxiv_ids, researcher__isnull=False).values_list(
            "researcher_id", flat=True
        )
    )
    with transaction.atomic():
        # Locked first: the session's Celery worker may be embedding these papers (the harvest queued
        # them), and a row it commits for one between the delete's collection and its commit would fail
        # ours on the foreign key; locked, the worker's write waits for the delete and fails instead.
        list(Paper.objects.select_for_update().filter(arxiv_id__in=arxiv_ids).values_list("pk", flat=True))
        Paper.objects.filter(arxiv_id__in=arxiv_ids).delete()
    Researcher.objects.filter(pk__in=researcher_ids, authorships__isnull=True).delete()
    for source in run_sources:
        for run in HarvestRun.objects.filter(source=source):
            if (
                set(run.parameters.get("ids", [])) & set(arxiv_ids)
                or run.parameters.get("from") == "2017-12-14"
            ):
                run.delete()
