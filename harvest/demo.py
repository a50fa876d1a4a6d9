"""The demo corpus (harvest/demo_data, see its PROVENANCE.md): real arXiv records (a listing, a snapshot, an
API answer) and recorded OpenAlex, Semantic Scholar and ROR answers, put through the harvesters' own
parsers and services, so the demo shows what a harvest makes of them: researchers with upstream ids and
metrics (their name-only records absorbed), citations between corpus papers, institutions with ROR ids.

None of the recorded upstream works is in the arXiv listings of the demo, so their papers are created from
the records themselves (title, abstract, date, authors), as arXiv would have given them."""

from __future__ import annotations

import datetime
import gzip
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from django.db import transaction

from core.progress import Progress, no_progress
from harvest.models import HarvestRun
from harvest.parsers.arxiv import paper_from_kaggle, paper_from_listing, parse_atom_feed
from harvest.parsers.jsonbody import load_json
from harvest.parsers.openalex import openalex_work, paper_from_openalex_work
from harvest.parsers.ror import parse_ror_records
from harvest.parsers.semantic_scholar import paper_from_s2, parse_s2_author_batch, s2_work
from harvest.records import PaperRecord, RecordError, UpstreamWork
from harvest.runs import RunRecorder
from harvest.services.authors import authors_apply
from harvest.services.institutions import institutions_upsert
from harvest.services.papers import UpsertCounts, lock_paper_writes, papers_upsert
from harvest.services.works import works_apply
from papers.models import Paper
from researchers.services import researchers_group_by_names

DEMO_DATA = Path(__file__).resolve().parent / "demo_data"
PAGE_SIZE = 500
# The demo is the site as it stood after the listing's last announcement day. The arXiv API sample (real
# papers found by a search for "testing", first posted 2001-2026) is loaded up to that day: its 8 newer
# entries would sit alone at the top of every newest-first list (the home page's latest papers, the RSS
# feed), months after the rest of the corpus ends and all about software testing, like test fixtures.
DEMO_HORIZON = datetime.date(2025, 6, 30)


def _json_lines(path: Path, parse: Callable[[dict[str, Any]], PaperRecord]) -> Iterator[PaperRecord | str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            try:
                yield parse(json.loads(line))
            except (json.JSONDecodeError, RecordError) as error:
                yield f"{path.name} line {number}: {error}"


def _atom(path: Path) -> Iterator[PaperRecord | str]:
    page = parse_atom_feed(path.read_bytes())
    yield from page.records
    yield from (f"{path.name} entry {skip.position}: {skip.reason}" for skip in page.skipped)


def _until(items: Iterator[PaperRecord | str], last_day: datetime.date) -> Iterator[PaperRecord | str]:
    """The items, less the records first posted after `last_day`."""
    return (item for item in items if isinstance(item, str) or item.published <= last_day)


def _taking(
    items: Iterator[PaperRecord | str], problems: list[str], limit: int | None
) -> Iterator[PaperRecord]:
    """The records among the items, up to `limit` (the rest is not even parsed: a test's small corpus
    reads a seventh of the listing); the problems met on the way are set aside for the summary."""
    taken = 0
    for item in items:
        if limit is not None and taken >= limit:
            return
        if isinstance(item, str):
            problems.append(item)
        else:
            taken += 1
            yield item


def _pages(records: Iterator[PaperRecord]) -> Iterator[list[PaperRecord]]:
    while page := list(islice(records, PAGE_SIZE)):
        yield page


UPSTREAM = DEMO_DATA / "upstream"
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


@dataclass
class DemoLoad:
    papers: UpsertCounts
    problems: list[str]
    linked: int
    upstream: UpstreamDemo
    touched: list[int]
    resumed: bool = False


def demo_arxiv_records() -> Iterator[PaperRecord]:
    """Every arXiv record of the demo corpus's three sources, as the load reads them: what `manage.py
    repair_authors --demo-sources` reads the stored author lists again from."""
    for items in _arxiv_sources():
        yield from (item for item in items if not isinstance(item, str))


def _arxiv_sources() -> list[Iterator[PaperRecord | str]]:
    return [
        _json_lines(DEMO_DATA / "arxiv_cs_daily_2025-05_2025-06.jsonl.gz", paper_from_listing),
        _json_lines(DEMO_DATA / "arxiv_kaggle_snapshot_head200.jsonl", paper_from_kaggle),
        _until(_atom(DEMO_DATA / "2026_q_testing_s0_m100.xml"), DEMO_HORIZON),
    ]


def demo_corpus_loaded() -> bool:
    """Whether a load of the demo corpus (of any size) ran to its end."""
    return HarvestRun.objects.last_succeeded(HarvestRun.Source.DEMO) is not None


def demo_corpus_load(*, limit: int | None = None, progress: Progress = no_progress) -> DemoLoad:
    """Load the demo corpus (idempotent: a second run changes nothing); `limit` takes only the first papers
    of the big listing.

    A load is a HarvestRun: each page commits with its checkpoint, so a load killed part-way resumes
    after its last stored page, and its end (the authors grouped into researchers, the upstream records)
    is done by whichever run reaches it, for every paper of the corpus still without a researcher."""
    recorder = RunRecorder.start(HarvestRun.Source.DEMO, {"limit": limit})
    pages_done = recorder.checkpoint.get("pages", 0)
    sources = list(zip(_arxiv_sources(), (limit, None, None), strict=True))
    counts, problems, touched, arxiv_ids = UpsertCounts(), [], [], []
    page_number = 0
    for items, source_limit in sources:
        for page in _pages(_taking(items, problems, source_limit)):
            page_number += 1
            arxiv_ids += [record.arxiv_id for record in page]
            if page_number > pages_done:
                with transaction.atomic():
                    page_counts, page_touched = papers_upsert(records=page)
                    recorder.count(
                        created=page_counts.created,
                        updated=page_counts.updated,
                        unchanged=page_counts.unchanged,
                    )
                    recorder.save({"pages": page_number})
                counts += page_counts
                touched += page_touched
            progress("papers", len(page), None)
    with transaction.atomic():
        lock_paper_writes()
        # Also the papers an interrupted run stored before it could group their authors.
        ungrouped = Paper.objects.filter(
            arxiv_id__in=arxiv_ids, authorships__researcher__isnull=True
        ).values_list("pk", flat=True)
        to_group = sorted(set(touched) | set(ungrouped))
        linked = researchers_group_by_names(paper_ids=to_group) if to_group else 0
    upstream = upstream_demo_load()
    recorder.finish(HarvestRun.State.SUCCEEDED, {"pages": page_number})
    return DemoLoad(counts, problems, linked, upstream, to_group + upstream.touched, recorder.summary.resumed)
