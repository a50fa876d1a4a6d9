import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser

from core.commands import OneLineErrorCommand
from core.progress import progress_bar
from papers.search import keyword_index


class Command(OneLineErrorCommand):
    help = (
        "Build the keyword index (BM25 over every paper) afresh at SEARCH_KEYWORD_INDEX_DIR; searches "
        "read the old one until the new one is committed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-needed",
            action="store_true",
            help="only when the index is missing or stale (a deployment's start: a current index is kept)",
        )

    def handle(self, *args: Any, verbosity: int, if_needed: bool, **options: Any) -> None:
        if if_needed and keyword_index.state() == "ok":
            self.stdout.write(f"keyword index: current at {settings.SEARCH_KEYWORD_INDEX_DIR}, kept")
            return
        started = time.monotonic()
        bar, progress = progress_bar("keyword index", verbosity=verbosity)
        with bar:
            indexed = keyword_index.rebuild(progress)
        seconds = time.monotonic() - started
        self.stdout.write(
            f"keyword index: {indexed} papers indexed in {seconds:.1f} s "
            f"at {settings.SEARCH_KEYWORD_INDEX_DIR}"
        )
