from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from core.progress import progress_bar
from harvest.demo import demo_arxiv_records
from harvest.services.repairs import authors_repair


class Command(BaseCommand):
    help = (
        "Read every stored author list again with the author parser and write it through the one authorship "
        "writer: teams become collaboration authors, punctuation and glued runs are repaired, researchers "
        "left without authorships are merged (their URL answers 301) or removed (410). Idempotent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--demo-sources",
            action="store_true",
            help=(
                "Read the demo corpus's papers from its source files (harvest/demo_data), which keep the "
                "affiliations and suffixes older loads glued onto names; other papers from stored names."
            ),
        )

    def handle(self, *args: Any, demo_sources: bool, **options: Any) -> None:
        bar, progress = progress_bar("repair authors", verbosity=options["verbosity"])
        with bar:
            report = authors_repair(records=demo_arxiv_records() if demo_sources else (), progress=progress)
        self.stdout.write(f"repair authors: {report}")
