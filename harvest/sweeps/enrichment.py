"""OpenAlex and Semantic Scholar for the papers of the corpus: upstream ids and counts, authors (linked to
researchers by position), references (citation edges), then author profiles and institution details.

A sweep takes what is due (never asked, or asked long ago), newest papers first, in batches; each page
of answers is written in one transaction with the checkpoint (the batch and the OpenAlex cursor)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from core.progress import Progress, no_progress
from harvest.clients import (
    OPENALEX_BATCH,
    S2_AUTHOR_BATCH,
    S2_PAPER_BATCH,
    OpenAlexClient,
    SemanticScholarClient,
)
from harvest.models import HarvestRun, UpstreamCheck
from harvest.parsers.jsonbody import UpstreamPage
from harvest.records import UpstreamWork
from harvest.runs import RunRecorder, Summary
from harvest.services.authors import authors_apply
from harvest.services.checks import checks_record
from harvest.services.institutions import institutions_upsert
from harvest.services.works import works_apply
from harvest.sweeps.common import finished, guarded, locked, record_skipped
from harvest.upstream import Fetched, UpstreamError
from institutions.models import Institution
from papers.models import Paper
from researchers.models import Researcher

OPENALEX = HarvestRun.Source.OPENALEX
S2 = HarvestRun.Source.SEMANTIC_SCHOLAR
OPENALEX_STAGES = ("works", "authors", "institutions")
S2_STAGES = ("papers", "authors")


class PageFailed(Exception):
    def __init__(self, error: UpstreamError, position: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.position = position


def _chunks(items: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


def _naming(kind: str, ids: Sequence[str]) -> str:
    """Where in a sweep: "works of 2007.14454 and 49 more"."""
    return f"{kind} of {ids[0]}" + (f" and {len(ids) - 1} more" if len(ids) > 1 else "")


def _fetch(call: Any, position: str) -> Any:
    try:
        return call()
    except UpstreamError as error:
        raise PageFailed(error, position) from None


def _due_papers(source: str, limit: int, exclude: Sequence[int] = ()) -> list[tuple[int, str]]:
    due = UpstreamCheck.objects.due_among(
        Paper.objects.exclude(pk__in=exclude), UpstreamCheck.Subject.PAPER, source
    )
    return [tuple(row) for row in due.order_by("-published", "-id").values_list("pk", "arxiv_id")[:limit]]


def _store_works(
    recorder: RunRecorder,
    fetched: Fetched[UpstreamPage[UpstreamWork]],
    where: str,
    checkpoint: dict[str, Any],
) -> None:
    works = fetched.page.items
    if recorder.dry_run:
        matched = Paper.objects.filter(arxiv_id__in=[w.arxiv_id for w in works]).count()
        recorder.count(created=matched, skipped=len(works) - matched)
        return
    with transaction.atomic():
        applied = works_apply(works=works)
        recorder.count(
            created=applied.identified,
            updated=applied.refreshed,
            unchanged=applied.unchanged,
            skipped=len(applied.not_in_corpus) + len(applied.conflicts),
        )
        for conflict in applied.conflicts:
            recorder.error(source=fetched.source, request=fetched.request, position=where, message=conflict)
        recorder.summary.extra["citations added"] += applied.citations_added
        recorder.summary.extra["researchers linked"] += len(applied.researchers)
        recorder.save(checkpoint)


def _close_batch(
    recorder: RunRecorder, subject: str, batch: Sequence[int], found: set[int], stage: str
) -> None:
    if recorder.dry_run:
        return
    with transaction.atomic():
        source = recorder.run.source
        checks_record(
            subject=subject, source=source, found=found, missing=[pk for pk in batch if pk not in found]
        )
        recorder.save({"stage": stage})


def _openalex_works(recorder: RunRecorder, client: OpenAlexClient, limit: int, progress: Progress) -> None:
    resumed = [tuple(row) for row in recorder.checkpoint.get("batch") or []]
    cursor = recorder.checkpoint.get("cursor") or "*"
    due = _due_papers(OPENALEX, limit - len(resumed), exclude=[pk for pk, _ in resumed])
    batches = ([resumed] if resumed else []) + _chunks(due, OPENALEX_BATCH)
    total = sum(len(batch) for batch in batches)
    for batch in batches:
        arxiv_ids = [arxiv_id for _, arxiv_id in batch]
        pk_of = {arxiv_id: pk for pk, arxiv_id in batch}
        found: set[int] = set()
        while cursor:
            where = f"{_naming('works', arxiv_ids)}, cursor {cursor[:16]}"
            fetched = _fetch(lambda ids=arxiv_ids, at=cursor: client.works(ids, at), where)
            page = fetched.page
            # OpenAlex hands out a next cursor even with the last results: the list ends with an empty page.
            more = page.next_cursor if page.items or page.skipped else None
            record_skipped(recorder, client.source, fetched.request, where, page.skipped)
            found |= {pk_of[work.arxiv_id] for work in page.items if work.arxiv_id in pk_of}
            _store_works(recorder, fetched, where, {"stage": "works", "batch": batch, "cursor": more})
            cursor = more
        _close_batch(recorder, UpstreamCheck.Subject.PAPER, list(pk_of.values()), found, "works")
        cursor = "*"
        progress("works", len(batch), total)


def _authors(
    recorder: RunRecorder, fetch: Any, source: str, batch_size: int, limit: int, progress: Progress
) -> None:
    """Author profiles (metrics, ORCID, affiliations) of researchers this source has identified."""
    id_field = "openalex_id" if source == OPENALEX else "s2_id"
    identified = Researcher.objects.filter(**{f"{id_field}__isnull": False})
    due = UpstreamCheck.objects.due_among(identified, UpstreamCheck.Subject.RESEARCHER, source)
    rows = list(due.order_by("id").values_list("pk", id_field)[:limit])
    for batch in _chunks(rows, batch_size):
        ids = [upstream_id for _, upstream_id in batch]
        where = _naming("authors", ids)
        fetched = _fetch(lambda ids=ids: fetch(ids), where)
        record_skipped(
            recorder, recorder.run.get_source_display(), fetched.request, where, fetched.page.skipped
        )
        returned = {record.upstream_id for record in fetched.page.items}
        recorder.summary.extra["author profiles"] += len(returned)
        if not recorder.dry_run:
            with transaction.atomic():
                recorder.summary.extra["researchers updated"] += authors_apply(records=fetched.page.items)
                found = {pk for pk, upstream_id in batch if upstream_id in returned}
                _close_batch(
                    recorder, UpstreamCheck.Subject.RESEARCHER, [pk for pk, _ in batch], found, "authors"
                )
        progress("authors", len(batch), len(rows))


def _openalex_institutions(
    recorder: RunRecorder, client: OpenAlexClient, limit: int, progress: Progress
) -> None:
    known = Institution.objects.filter(openalex_id__isnull=False)
    due = UpstreamCheck.objects.due_among(known, UpstreamCheck.Subject.INSTITUTION, OPENALEX)
    rows = list(due.order_by("id").values_list("pk", "openalex_id")[:limit])
    for batch in _chunks(rows, OPENALEX_BATCH):
        ids = [openalex_id for _, openalex_id in batch]
        where = _naming("institutions", ids)
        fetched = _fetch(lambda ids=ids: client.institutions(ids), where)
        record_skipped(recorder, client.source, fetched.request, where, fetched.page.skipped)
        returned = {record.openalex_id for record in fetched.page.items}
        recorder.summary.extra["institutions described"] += len(returned)
        if not recorder.dry_run:
            with transaction.atomic():
                institutions_upsert(records=fetched.page.items)
                found = {pk for pk, openalex_id in batch if openalex_id in returned}
                _close_batch(
                    recorder, UpstreamCheck.Subject.INSTITUTION, [pk for pk, _ in batch], found, "done"
                )
        progress("institutions", len(batch), len(rows))


def _s2_papers(recorder: RunRecorder, client: SemanticScholarClient, limit: int, progress: Progress) -> None:
    due = _due_papers(S2, limit)
    for batch in _chunks(due, S2_PAPER_BATCH):
        arxiv_ids = [arxiv_id for _, arxiv_id in batch]
        pk_of = {arxiv_id: pk for pk, arxiv_id in batch}
        where = _naming("papers", arxiv_ids)
        fetched = _fetch(lambda ids=arxiv_ids: client.papers(ids), where)
        record_skipped(recorder, client.source, fetched.request, where, fetched.page.skipped)
        _store_works(recorder, fetched, where, {"stage": "papers"})
        found = {pk_of[work.arxiv_id] for work in fetched.page.items if work.arxiv_id in pk_of}
        _close_batch(recorder, UpstreamCheck.Subject.PAPER, list(pk_of.values()), found, "papers")
        progress("papers", len(batch), len(due))


def _run(source: str, label: str, parameters: dict[str, Any], dry_run: bool, body: Any) -> Summary:
    with locked(source, dry_run=dry_run) as lease:
        recorder = RunRecorder.start(source, parameters, dry_run=dry_run, lease=lease)
        with guarded(recorder, label):
            try:
                body(recorder)
            except PageFailed as failure:
                error = failure.error
                return recorder.fail(
                    source=error.source,
                    request=error.request,
                    position=failure.position,
                    message=error.message,
                )
            return finished(recorder, {})
        return recorder.summary


def openalex_enrich(
    *,
    limit: int,
    stages: Sequence[str] = OPENALEX_STAGES,
    dry_run: bool = False,
    progress: Progress = no_progress,
) -> Summary:
    def body(recorder: RunRecorder) -> None:
        with OpenAlexClient() as client:
            if "works" in stages:
                _openalex_works(recorder, client, limit, progress)
            if "authors" in stages:
                _authors(recorder, client.authors, OPENALEX, OPENALEX_BATCH, limit, progress)
            if "institutions" in stages:
                _openalex_institutions(recorder, client, limit, progress)

    parameters = {"limit": limit, "stages": list(stages)}
    return _run(OPENALEX, "OpenAlex", parameters, dry_run, body)


def s2_enrich(
    *,
    limit: int,
    stages: Sequence[str] = S2_STAGES,
    dry_run: bool = False,
    progress: Progress = no_progress,
) -> Summary:
    def body(recorder: RunRecorder) -> None:
        with SemanticScholarClient() as client:
            if "papers" in stages:
                _s2_papers(recorder, client, limit, progress)
            if "authors" in stages:
                _authors(recorder, client.authors, S2, S2_AUTHOR_BATCH, limit, progress)

    parameters = {"limit": limit, "stages": list(stages)}
    return _run(S2, "Semantic Scholar", parameters, dry_run, body)
