import time
from typing import Any

from django.core.management.base import CommandParser

from analysis.services import AnalysisCounts, papers_analyse, percentiles_refresh
from core.commands import OneLineErrorCommand, positive_int
from core.progress import progress_bar
from papers.models import Paper

BATCH_SIZE = 256


class Command(OneLineErrorCommand):
    help = (
        "Analyse papers in this process (field, type, summary, novelty, significance): those not analysed "
        "yet, or with --all every one again. Stopped part-way, the next run goes on where it stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--all",
            dest="every_paper",
            action="store_true",
            help="Analyse every paper again (after a change to the rules, the classifier or the model).",
        )
        parser.add_argument(
            "--limit", type=positive_int, help="Analyse at most this many papers, newest first."
        )
        parser.add_argument(
            "--batch-size",
            type=positive_int,
            default=BATCH_SIZE,
            help="Papers per batch; each batch is written in one transaction.",
        )

    def handle(
        self,
        *args: Any,
        every_paper: bool,
        limit: int | None,
        batch_size: int,
        verbosity: int,
        **options: Any,
    ) -> None:
        papers = Paper.objects.all() if every_paper else Paper.objects.not_analysed()
        ids = list(papers.newest_first().values_list("pk", flat=True)[:limit])
        started, counts = time.monotonic(), AnalysisCounts()
        bar, progress = progress_bar("analysis", verbosity=verbosity)
        with bar:
            for start in range(0, len(ids), batch_size):
                batch = ids[start : start + batch_size]
                counts.add(papers_analyse(paper_ids=batch, rerank=False))
                progress("papers", len(batch), len(ids))
        # Ranked once for the whole run, not per batch (see papers_analyse); every field, as citation
        # counts change between runs (enrichment sweeps), not only in the fields analysed now.
        percentiles_refresh()
        seconds = time.monotonic() - started
        rate = f", {counts.analysed / seconds:.1f} a second" if seconds and counts.analysed else ""
        self.stdout.write(
            f"analysis: {counts.analysed} of {len(ids)} papers analysed ({counts.summarised} summarised, "
            f"{counts.with_earlier_work} with earlier work to compare, "
            f"{counts.generated} summaries written by the language model) in {seconds:.1f} s{rate}"
        )
