"""Celery tasks: thin, taking plain values, safe to run twice (upserts are idempotent, one run per
harvester holds its lock). A task whose source cannot be reached records the failure in its HarvestRun
and returns: the next scheduled run tries again, with no retry storm in between."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings

from harvest.runs import HarvestBusy, Summary
from harvest.services.papers import researchers_regroup_of
from harvest.sweeps.arxiv import arxiv_daily_from, arxiv_ids_fetch, arxiv_oai_harvest
from harvest.sweeps.enrichment import openalex_enrich, s2_enrich
from papers.identifiers import parse_arxiv_id

logger = logging.getLogger(__name__)


def _outcome(label: str, summary: Summary) -> dict[str, Any]:
    logger.info(summary.line(label))
    return {"state": str(summary.state), "created": summary.created, "updated": summary.updated,
            "skipped": summary.skipped, "errors": summary.errors}  # fmt: skip


def _busy(error: HarvestBusy) -> dict[str, Any]:
    logger.info("%s; this run is skipped", error)
    return {"state": "skipped", "reason": str(error)}


@shared_task(acks_late=True)
def fetch_arxiv_ids(arxiv_ids: list[str]) -> int:
    """Fetch these papers from the arXiv API into the corpus. Returns how many arrived."""
    ids = [parsed.id for value in arxiv_ids if (parsed := parse_arxiv_id(value))]
    if not ids:
        return 0
    summary = arxiv_ids_fetch(arxiv_ids=ids)
    logger.info(summary.line("arXiv API"))
    return summary.created + summary.updated + summary.unchanged


@shared_task(acks_late=True)
def harvest_arxiv_daily() -> list[dict[str, Any]]:
    """The daily harvest: every configured set, from the day its last successful harvest reached."""
    results = []
    for set_spec in settings.ARXIV_HARVEST_SETS:
        try:
            summary = arxiv_oai_harvest(set_spec=set_spec, from_date=arxiv_daily_from(set_spec))
        except HarvestBusy as error:
            results.append(_busy(error))
            continue
        results.append(_outcome(f"arXiv {set_spec}", summary))
    return results


@shared_task(acks_late=True)
def enrich_openalex(limit: int | None = None) -> dict[str, Any]:
    try:
        return _outcome("OpenAlex", openalex_enrich(limit=limit or settings.HARVEST_SWEEP_LIMIT))
    except HarvestBusy as error:
        return _busy(error)


@shared_task(acks_late=True)
def enrich_semantic_scholar(limit: int | None = None) -> dict[str, Any]:
    try:
        return _outcome("Semantic Scholar", s2_enrich(limit=limit or settings.HARVEST_SWEEP_LIMIT))
    except HarvestBusy as error:
        return _busy(error)


@shared_task(acks_late=True)
def refresh_researcher_metrics(limit: int | None = None) -> list[dict[str, Any]]:
    """Author profiles from both sources: h-index, citation and works counts, ORCID, affiliations."""
    limit = limit or settings.HARVEST_SWEEP_LIMIT
    results = []
    for label, refresh in (("OpenAlex authors", openalex_enrich), ("Semantic Scholar authors", s2_enrich)):
        try:
            results.append(_outcome(label, refresh(limit=limit, stages=("authors",))))
        except HarvestBusy as error:
            results.append(_busy(error))
    return results


@shared_task(acks_late=True)
def regroup_researchers_of(paper_ids: list[int]) -> int:
    """After a batch is embedded: its authors' names are grouped again with the meaning of their papers.
    Safe to run twice (a second grouping finds nothing more to join)."""
    return researchers_regroup_of(paper_ids=paper_ids)
