import time
from typing import Any

from django.conf import settings

from core.commands import OneLineErrorCommand
from core.progress import progress_bar
from papers.search import keyword_index


class Command(OneLineErrorCommand):
    help = (
        "Build the keyword index (BM25 over every paper) afresh at SEARCH_KEYWORD_INDEX_DIR; searches "
        "read the old one until the new one is committed."
    )

    def handle(self, *args: Any, verbosity: int, **options: Any) -> None:
        started = time.monotonic()
        bar, progress = progress_bar("keyword index", verbosity=verbosity)
        with bar:
            indexed = keyword_index.rebuild(progress)
        seconds = time.monotonic() - started
        self.stdout.write(
            f"keyword index: {indexed} papers indexed in {seconds:.1f} s "
            f"at {settings.SEARCH_KEYWORD_INDEX_DIR}"
        )
