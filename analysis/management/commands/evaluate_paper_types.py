from typing import Any

from analysis.type_evaluation import TypeScores, paper_types_evaluate
from core.commands import OneLineErrorCommand
from papers.paper_types import PAPER_TYPE_LABELS


class Command(OneLineErrorCommand):
    help = (
        "Compare the paper types with the hand-labelled sample (analysis/evaluation/paper_types.json, "
        "labelled by an AI annotator) and print macro-F1 and each type's precision, recall and F1."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        result = paper_types_evaluate()
        if result.missing:
            self.stdout.write(f"{len(result.missing)} sample papers are not in this corpus and are left out")
        self.stdout.write(
            f"{result.decided_by_rules} of {result.everything.papers} decided by phrases, the rest by the "
            "classifier (labels by an AI annotator, not a human)"
        )
        for name, scores in (("natural sample", result.natural), ("all entries", result.everything)):
            self._report(name, scores)

    def _report(self, name: str, scores: TypeScores) -> None:
        self.stdout.write(f"{name}: macro-F1 {scores.macro_f1:.3f} over {scores.papers} papers")
        for label, (precision, recall, f1, support) in scores.per_type.items():
            self.stdout.write(
                f"  {PAPER_TYPE_LABELS[label]:<22} precision {precision:.2f}  recall {recall:.2f}"
                f"  F1 {f1:.2f}  ({support})"
            )
        self.stdout.write(confusion_table(scores))


def confusion_table(scores: TypeScores) -> str:
    """Rows: the label; columns: the type given (first four letters of each type)."""
    types = list(PAPER_TYPE_LABELS)
    lines = [
        "  confusion (rows: label, columns: type given)",
        "  " + " " * 10 + "".join(f"{t[:4]:>6}" for t in types),
    ]
    for label in types:
        if any(scores.confusion[(label, given)] for given in types):
            counts = "".join(f"{scores.confusion[(label, given)]:>6}" for given in types)
            lines.append(f"  {label:<10}{counts}")
    return "\n".join(lines)
