"""The upstream part of the demo corpus: recorded OpenAlex, Semantic Scholar and ROR answers, put through
the harvesters' own parsers and services, so the demo shows what a harvest makes of them: researchers with
upstream ids and metrics (their name-only records absorbed), citations between corpus papers,
institutions with ROR ids.

None of the recorded works is in the arXiv listings of the demo, so their papers are created from the
records themselves (title, abstract, date, authors), as arXiv would have given them."""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from harvest.enrich import authors_apply, institutions_upsert, works_apply
from harvest.parsers.jsonbody import load_json
from harvest.parsers.openalex import openalex_work, paper_from_openalex_work
from harvest.parsers.ror import parse_ror_records
from harvest.parsers.semantic_scholar import paper_from_s2, parse_s2_author_batch, s2_work
from harvest.records import PaperRecord, RecordError, UpstreamWork
from harvest.services import UpsertCounts, papers_upsert
from researchers.services import researchers_group_by_names

UPSTREAM = Path(__file__).resolve().parent / "demo_data" / "upstream"
OPENALEX_PAGES = (
    "openalex_works_filter_openalex_2ids_cursor_page1.json",
    "openalex_works_filter_cited_by_2ids_cursor_page1.json",
)
S2_PAPER = "s2_paper_DOI_10.48550_arxiv.2312.07559.json"
S2_AUTHOR_BATCH = "s2_author_batch_3_authors_all_fields_with_papers.json.gz"
S2_AUTHOR_IDS = ["3234559", "1726629", "1711844"]  # the batch's request: Dijkstra, Parnas, Sommerville
ROR_RECORDS = "ror_v2_records.json"


@dataclass
class UpstreamDemo:
    papers: UpsertCounts
    touched: list[int]
    citations_added: int
    researchers_linked: int
    institutions: int


def _read(name: str) -> bytes:
    content = (UPSTREAM / name).read_bytes()
    return gzip.decompress(content) if name.endswith(".gz") else content


def _arxiv_items(items: Sequence[object], parse_work: object) -> list[dict]:
    """The records that describe arXiv papers (the others are cited works outside arXiv)."""
    kept = []
    for item in items:
        try:
            parse_work(item)
        except RecordError:
            continue
        kept.append(item)
    return kept


def _store(records: list[PaperRecord], works: list[UpstreamWork]) -> tuple[UpsertCounts, list[int], int, int]:
    with transaction.atomic():
        counts, touched = papers_upsert(records=records)
        if touched:
            researchers_group_by_names(paper_ids=touched)
        applied = works_apply(works=works)
    return counts, touched, applied.citations_added, len(applied.researchers)


def upstream_demo_load() -> UpstreamDemo:
    counts, touched, citations, linked = UpsertCounts(), [], 0, 0

    openalex_items = [item for name in OPENALEX_PAGES for item in load_json(_read(name))["results"]]
    openalex_items = _arxiv_items(openalex_items, openalex_work)
    s2_items = [load_json(_read(S2_PAPER))] + [
        paper for author in load_json(_read(S2_AUTHOR_BATCH)) for paper in author.get("papers") or ()
    ]
    s2_items = _arxiv_items(s2_items, s2_work)

    for items, to_paper, to_work in (
        (openalex_items, paper_from_openalex_work, openalex_work),
        (s2_items, paper_from_s2, s2_work),
    ):
        part = _store([to_paper(item) for item in items], [to_work(item) for item in items])
        counts += part[0]
        touched += part[1]
        citations += part[2]
        linked += part[3]

    with transaction.atomic():
        authors_apply(records=parse_s2_author_batch(_read(S2_AUTHOR_BATCH), S2_AUTHOR_IDS).items)
        institutions = institutions_upsert(records=parse_ror_records(_read(ROR_RECORDS)).items)
    return UpstreamDemo(counts, touched, citations, linked, len(institutions))
