import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser

from chat.sentences import paper_sentences_encode, papers_without_sentences
from core.commands import OneLineErrorCommand, positive_int
from core.progress import progress_bar


class Command(OneLineErrorCommand):
    help = (
        "Encode and store the abstract sentences of embedded papers that have none stored, for chat "
        "(the worker does this in the background; this is for a backfill in one go)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--batch-size",
            type=positive_int,
            default=settings.EMBEDDING_BATCH_SIZE,
            help="Papers per batch; each batch is stored with one upsert.",
        )

    def handle(self, *args: Any, batch_size: int, verbosity: int, **options: Any) -> None:
        ids = list(papers_without_sentences().values_list("pk", flat=True))
        started, encoded = time.monotonic(), 0
        bar, progress = progress_bar("sentences", verbosity=verbosity)
        with bar:
            for start in range(0, len(ids), batch_size):
                batch = ids[start : start + batch_size]
                encoded += paper_sentences_encode(paper_ids=batch)
                progress("papers", len(batch), len(ids))
        seconds = time.monotonic() - started
        rate = f", {encoded / seconds:.1f} papers a second" if seconds and encoded else ""
        self.stdout.write(f"sentences: {encoded} of {len(ids)} papers encoded in {seconds:.1f} s{rate}")
