from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from analysis.paper_types import MODEL_FILE
from analysis.training import CROSS_VALIDATION_FOLDS, TRAINING_FILE, type_model_train
from core.commands import OneLineErrorCommand
from papers.paper_types import PAPER_TYPE_LABELS


class Command(OneLineErrorCommand):
    help = (
        "Train the paper-type classifier on the hand-labelled training set "
        "(analysis/paper_types_training.json) and the types the phrases give this corpus's other embedded "
        "papers (the evaluation sample left out), print its cross-validated scores on the training set and "
        "write it to analysis/paper_type_model.json."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            trained = type_model_train()
        except ValueError as error:
            raise CommandError(str(error)) from None
        hand = ", ".join(f"{label} {count}" for label, count in trained.hand_labels.most_common())
        weak = ", ".join(f"{label} {count}" for label, count in trained.weak_labels.most_common())
        scores = trained.cross_validated
        self.stdout.write(
            f"paper types: trained on {trained.hand_labels.total()} hand labels of {TRAINING_FILE.name} "
            f"({hand}) and {trained.weak_labels.total()} phrase labels ({weak}); written to {MODEL_FILE.name}"
        )
        self.stdout.write(
            f"features: the {settings.EMBEDDING_DIMENSIONS}-d embedding, the TF-IDF of "
            f"{len(trained.model.text.vocabulary)} words and word pairs, and that of "
            f"{len(trained.model.contribution.vocabulary)} in the contribution sentences"
        )
        self.stdout.write(
            f"{CROSS_VALIDATION_FOLDS}-fold cross-validation on the training set (phrases, then classifier): "
            f"macro-F1 {scores.macro_f1:.3f} over {scores.papers} papers"
        )
        for label, (precision, recall, f1, support) in scores.per_type.items():
            self.stdout.write(
                f"  {PAPER_TYPE_LABELS[label]:<22} precision {precision:.2f}  recall {recall:.2f}"
                f"  F1 {f1:.2f}  ({support})"
            )
