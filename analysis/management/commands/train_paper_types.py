from typing import Any

from django.core.management.base import CommandError

from analysis.paper_types import MODEL_FILE
from analysis.training import type_model_train
from core.commands import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = (
        "Train the paper-type classifier on the types the phrases give this corpus's embedded papers "
        "(the evaluation sample left out) and write it to analysis/paper_type_model.json."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            trained = type_model_train()
        except ValueError as error:
            raise CommandError(str(error)) from None
        examples = ", ".join(f"{label} {count}" for label, count in trained.examples.most_common())
        self.stdout.write(
            f"paper types: trained on {trained.examples.total()} of {trained.papers_read} papers "
            f"({examples}); written to {MODEL_FILE.name}"
        )
