"""What every harvester shares: the run guard, storing a page of arXiv records, progress reporting."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction

from harvest.models import HarvestRun
from harvest.parsers.arxiv import SkippedEntry
from harvest.parsers.jsonbody import Skipped
from harvest.records import PaperRecord
from harvest.runs import LeaseLost, RunRecorder, Summary, source_lock
from harvest.services.papers import papers_upsert
from papers.models import Paper
from papers.tasks import embed_papers

logger = logging.getLogger(__name__)


def locked(name: str, *, dry_run: bool) -> Any:
    """One writing run per harvester (a context giving its Lease); a dry run writes nothing and needs
    none (None)."""
    return nullcontext() if dry_run else source_lock(name)


@contextmanager
def guarded(recorder: RunRecorder, source: str) -> Iterator[None]:
    """A run that stops for any reason is recorded as failed with the reason, its checkpoint kept. The
    time limit of a task is an expected stop; anything else is a bug and is raised again."""
    try:
        yield
    except LeaseLost:
        raise  # the run's record is the new lease holder's now: nothing more is written here
    except SoftTimeLimitExceeded:
        recorder.fail(
            source=source,
            request="",
            position="",
            message="stopped at the task's time limit; the next run continues from the checkpoint",
        )
    except Exception as error:
        logger.exception("%s harvest failed", source)
        recorder.fail(source=source, request="", position="", message=f"{type(error).__name__}: {error}")
        raise


def record_skipped(
    recorder: RunRecorder, source: str, request: str, where: str, skipped: Sequence[Skipped | SkippedEntry]
) -> None:
    for entry in skipped:
        if getattr(entry, "is_error", True):
            recorder.error(
                source=source,
                request=request,
                position=f"{where}, record {entry.position}",
                message=entry.reason,
            )
    recorder.count(skipped=len(skipped))


def store_papers(
    recorder: RunRecorder, records: Sequence[PaperRecord], checkpoint: dict[str, Any]
) -> list[int]:
    """Upsert one page of arXiv records with its checkpoint, in one transaction; group the new authors
    by name (strong evidence) and queue the changed papers for embedding once it commits, after which
    their names are grouped again on all the evidence. Returns the changed paper ids."""
    if recorder.dry_run:
        known = set(
            Paper.objects.filter(arxiv_id__in=[r.arxiv_id for r in records]).values_list(
                "arxiv_id", flat=True
            )
        )
        recorder.count(created=len({r.arxiv_id for r in records} - known), unchanged=len(known))
        return []
    with transaction.atomic():
        # Grouped on the strong evidence only (a shared co-author, a printed affiliation): the weaker is
        # weighed once the papers are embedded (regroup_researchers_of), when their meaning is known;
        # weighing it here too, without it, re-read most of the corpus's co-authors every page.
        counts, touched = papers_upsert(records=records, group_authors=True)
        recorder.count(created=counts.created, updated=counts.updated, unchanged=counts.unchanged)
        # Odd author strings never fail a page: the summary says how many names were mended or left out.
        for what, count in (
            ("author names repaired", sum(r.names_repaired for r in records)),
            ("author entries dropped", sum(r.names_dropped for r in records)),
        ):
            if count:
                recorder.summary.extra[what] += count
        recorder.save(checkpoint)
        if touched:
            # robust: a broker hiccup must not undo a stored page; the embedding sweep catches up.
            transaction.on_commit(lambda: _queue_embedding(touched), robust=True)
    return touched


def _queue_embedding(paper_ids: list[int]) -> None:
    embed_papers.delay(paper_ids)


def finished(recorder: RunRecorder, checkpoint: dict[str, Any] | None = None) -> Summary:
    return recorder.finish(HarvestRun.State.SUCCEEDED, checkpoint)
