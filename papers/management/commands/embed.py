import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser
from django.db import transaction

from core.commands import OneLineErrorCommand, positive_int
from core.progress import progress_bar
from harvest.models import HarvestRun
from harvest.runs import RunRecorder
from harvest.sweeps.common import finished, guarded
from papers.models import Paper
from papers.services import papers_embed


class Command(OneLineErrorCommand):
    help = "Compute paper embeddings in this process: those missing, or with --all every one again."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--all",
            dest="every_paper",
            action="store_true",
            help="Recompute every paper's vector (after changing EMBEDDING_MODEL).",
        )
        parser.add_argument(
            "--batch-size",
            type=positive_int,
            default=settings.EMBEDDING_BATCH_SIZE * 4,
            help="Papers per batch; each batch is stored in one transaction.",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Count the papers to embed; write nothing."
        )

    def handle(
        self, *args: Any, every_paper: bool, batch_size: int, dry_run: bool, verbosity: int, **options: Any
    ) -> None:
        papers = Paper.objects.all() if every_paper else Paper.objects.without_embedding()
        ids = list(papers.order_by("-published", "-id").values_list("pk", flat=True))
        which = "all papers" if every_paper else "papers without an embedding"
        if dry_run:
            self.stdout.write(f"embeddings (dry run): {len(ids)} {which} would be embedded")
            return
        # A run like a harvest's: the status page and the admin show it, failed or not.
        recorder = RunRecorder.start(HarvestRun.Source.EMBED, {"all": every_paper})
        started, embedded = time.monotonic(), 0
        bar, progress = progress_bar("embeddings", verbosity=verbosity)
        with bar, guarded(recorder, "Embeddings"):
            for start in range(0, len(ids), batch_size):
                batch = ids[start : start + batch_size]
                with transaction.atomic():
                    if every_paper:
                        # The old vector is dropped and the new one stored in the same transaction.
                        Paper.objects.filter(pk__in=batch).update(embedding=None)
                    count = papers_embed(paper_ids=batch)
                    recorder.count(created=count)
                    recorder.save()
                embedded += count
                progress("papers", len(batch), len(ids))
            finished(recorder)
        seconds = time.monotonic() - started
        rate = f", {embedded / seconds:.1f} a second" if seconds and embedded else ""
        self.stdout.write(f"embeddings: {embedded} of {len(ids)} {which} embedded in {seconds:.1f} s{rate}")
