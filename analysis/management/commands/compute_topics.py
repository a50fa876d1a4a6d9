import time
from typing import Any

from analysis.topics import topics_compute
from core.commands import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = (
        "Find the corpus's topics again from the embeddings (spherical k-means, class-based TF-IDF labels) "
        "and give every embedded paper its nearest 1-3; topic ids stay where the clusters match."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        result = topics_compute()
        self.stdout.write(
            f"topics: {result.topics} for {result.papers} papers ({result.kept} kept their ids, "
            f"{result.created} new, {result.merged} merged) in {time.monotonic() - started:.1f} s, of which "
            f"{result.writing_seconds:.1f} s writing"
        )
