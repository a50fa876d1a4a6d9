import gzip
import json
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from harvest.demo import upstream_demo_load
from harvest.parsers.arxiv import paper_from_kaggle, paper_from_listing, parse_atom_feed
from harvest.records import PaperRecord, RecordError
from harvest.services import UpsertCounts, papers_upsert
from papers.models import Paper
from researchers.services import researchers_group_by_names

DEMO_DATA = Path(__file__).resolve().parents[2] / "demo_data"
PAGE_SIZE = 500


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


def _taking(
    items: Iterator[PaperRecord | str], problems: list[str], limit: int | None
) -> Iterator[PaperRecord]:
    """The records among the items, up to `limit`; the problems are set aside for the summary."""
    taken = 0
    for item in items:
        if isinstance(item, str):
            problems.append(item)
        elif limit is None or taken < limit:
            taken += 1
            yield item


def _pages(records: Iterator[PaperRecord]) -> Iterator[list[PaperRecord]]:
    while page := list(islice(records, PAGE_SIZE)):
        yield page


class Command(BaseCommand):
    help = (
        "Load the real demo corpus shipped in harvest/demo_data (idempotent: a second run changes nothing)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--limit", type=int, default=None, help="Load at most this many papers from the big listing."
        )
        parser.add_argument("--no-embed", action="store_true", help="Do not queue embeddings afterwards.")
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing when the corpus already has papers (make run).",
        )

    def handle(self, *args: Any, limit: int | None, no_embed: bool, if_empty: bool, **options: Any) -> None:
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1")
        if if_empty and Paper.objects.exists():
            self.stdout.write("demo corpus: the corpus already has papers; nothing to do")
            return
        sources = [
            (_json_lines(DEMO_DATA / "arxiv_cs_daily_2025-05_2025-06.jsonl.gz", paper_from_listing), limit),
            (_json_lines(DEMO_DATA / "arxiv_kaggle_snapshot_head200.jsonl", paper_from_kaggle), None),
            (_atom(DEMO_DATA / "2026_q_testing_s0_m100.xml"), None),
        ]
        counts, problems, touched = UpsertCounts(), [], []
        with tqdm(desc="papers", unit=" papers", disable=options["verbosity"] == 0) as progress:
            for items, source_limit in sources:
                for page in _pages(_taking(items, problems, source_limit)):
                    page_counts, page_touched = papers_upsert(records=page)
                    counts += page_counts
                    touched += page_touched
                    progress.update(len(page))
        linked = researchers_group_by_names(paper_ids=touched) if touched else 0
        upstream = upstream_demo_load()
        touched += upstream.touched
        if touched and not no_embed:
            from papers.tasks import embed_missing_papers

            embed_missing_papers.delay()
        for problem in problems:
            self.stderr.write(f"skipped {problem}")
        self.stdout.write(
            f"demo corpus: {counts.created} created, {counts.updated} updated, {counts.unchanged} unchanged, "
            f"{len(problems)} skipped; {linked} authorships linked to researchers"
        )
        self.stdout.write(
            f"upstream demo: {upstream.papers.created} created, {upstream.papers.unchanged} unchanged papers "
            "from OpenAlex and Semantic Scholar records; "
            f"{upstream.researchers_linked} researchers identified upstream, "
            f"{upstream.citations_added} citations added, {upstream.institutions} institutions from ROR"
        )
