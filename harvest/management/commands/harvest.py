import argparse
import datetime
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from core.commands import OneLineErrorCommand, OneLineErrorParser, iso_date, positive_int
from core.progress import progress_bar
from harvest.models import HarvestRun
from harvest.runs import HarvestBusy, Summary
from harvest.sweeps.arxiv import arxiv_daily_from, arxiv_ids_fetch, arxiv_oai_harvest
from harvest.sweeps.enrichment import openalex_enrich, s2_enrich
from papers.identifiers import parse_arxiv_id


def arxiv_id(value: str) -> str:
    parsed = parse_arxiv_id(value)
    if parsed is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not an arXiv id (like 2201.12423 or hep-th/9901001)")
    return parsed.id


class Command(OneLineErrorCommand):
    help = "Harvest from arXiv, OpenAlex or Semantic Scholar into the corpus (the same code the workers run)."

    def add_arguments(self, parser: CommandParser) -> None:
        sources = parser.add_subparsers(
            dest="source", required=True, parser_class=OneLineErrorParser, title="sources", metavar="SOURCE"
        )
        arxiv = sources.add_parser("arxiv", help="OAI-PMH ListRecords of a set, from a date.")
        arxiv.add_argument("--set", dest="set_spec", default="cs", help="OAI set, e.g. cs or physics:hep-th.")
        arxiv.add_argument(
            "--from",
            dest="from_date",
            type=iso_date,
            help="First datestamp (YYYY-MM-DD); default: where the last successful harvest of the set ended.",
        )
        arxiv.add_argument("--until", type=iso_date, help="Last datestamp (YYYY-MM-DD); default: today.")
        arxiv.add_argument(
            "--metadata-prefix", choices=["arXiv", "arXivRaw"], default="arXiv", help="OAI metadata format."
        )
        ids = sources.add_parser("arxiv-ids", help="Papers by id from the arXiv API.")
        ids.add_argument(
            "arxiv_ids", nargs="+", type=arxiv_id, metavar="ID", help="arXiv ids, e.g. 2201.12423."
        )
        sweeps = {
            "openalex": "OpenAlex: works of corpus papers (ids, counts, authors, references), then authors "
            "and institutions.",
            "s2": "Semantic Scholar: papers (ids, counts, authors, references) where OpenAlex lacks them, "
            "then authors.",
            "metrics": "Researcher metrics (h-index, citations, works, ORCID) from both sources.",
        }
        for name, description in sweeps.items():
            sweep = sources.add_parser(name, help=description)
            sweep.add_argument(
                "--limit",
                type=positive_int,
                default=settings.HARVEST_SWEEP_LIMIT,
                help="At most this many papers (and researchers, institutions) to ask about.",
            )
        for subparser in sources.choices.values():
            subparser.add_argument(
                "--dry-run", action="store_true", help="Fetch, parse and count; write nothing."
            )

    def handle(self, *args: Any, source: str, dry_run: bool, verbosity: int, **options: Any) -> None:
        try:
            summaries = getattr(self, f"_{source.replace('-', '_')}")(
                dry_run=dry_run, verbosity=verbosity, **options
            )
        except HarvestBusy as error:
            raise CommandError(f"{error}; try again when it has finished") from None
        failed = [
            (label, summary) for label, summary in summaries if summary.state == HarvestRun.State.FAILED
        ]
        for label, summary in summaries:
            self.stdout.write(summary.line(label + (" (dry run)" if dry_run else "")))
        if failed:
            label, summary = failed[0]
            raise CommandError(f"{label} stopped at {summary.last_error}")

    def _arxiv(
        self,
        *,
        dry_run: bool,
        verbosity: int,
        set_spec: str,
        from_date: datetime.date | None,
        until: datetime.date | None,
        metadata_prefix: str,
        **_: Any,
    ) -> list[tuple[str, Summary]]:
        from_date = from_date or arxiv_daily_from(set_spec)
        if until is not None and until < from_date:
            raise CommandError(f"--until {until} is before --from {from_date}")
        if from_date > timezone.now().date():
            raise CommandError(f"--from {from_date} is in the future")
        bar, progress = progress_bar(f"arXiv {set_spec}", verbosity=verbosity)
        with bar:
            summary = arxiv_oai_harvest(
                set_spec=set_spec,
                from_date=from_date,
                until=until,
                metadata_prefix=metadata_prefix,
                dry_run=dry_run,
                progress=progress,
            )
        return [(f"arXiv {set_spec} from {from_date}", summary)]

    def _arxiv_ids(
        self, *, dry_run: bool, verbosity: int, arxiv_ids: list[str], **_: Any
    ) -> list[tuple[str, Summary]]:
        bar, progress = progress_bar("arXiv API", verbosity=verbosity)
        with bar:
            summary = arxiv_ids_fetch(arxiv_ids=arxiv_ids, dry_run=dry_run, progress=progress)
        return [("arXiv API", summary)]

    def _openalex(self, *, dry_run: bool, verbosity: int, limit: int, **_: Any) -> list[tuple[str, Summary]]:
        bar, progress = progress_bar("OpenAlex", verbosity=verbosity)
        with bar:
            summary = openalex_enrich(limit=limit, dry_run=dry_run, progress=progress)
        return [("OpenAlex", summary)]

    def _s2(self, *, dry_run: bool, verbosity: int, limit: int, **_: Any) -> list[tuple[str, Summary]]:
        bar, progress = progress_bar("Semantic Scholar", verbosity=verbosity)
        with bar:
            summary = s2_enrich(limit=limit, dry_run=dry_run, progress=progress)
        return [("Semantic Scholar", summary)]

    def _metrics(self, *, dry_run: bool, verbosity: int, limit: int, **_: Any) -> list[tuple[str, Summary]]:
        summaries = []
        for label, refresh in (("OpenAlex", openalex_enrich), ("Semantic Scholar", s2_enrich)):
            bar, progress = progress_bar(label, verbosity=verbosity)
            with bar:
                summary = refresh(limit=limit, stages=("authors",), dry_run=dry_run, progress=progress)
            summaries.append((f"{label} authors", summary))
        return summaries
