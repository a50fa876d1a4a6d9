from typing import Any

from django.core.management.base import CommandParser

from chat.evaluation import QUESTIONS_FILE, evaluate, load_questions
from core.commands import OneLineErrorCommand, positive_int
from core.progress import progress_bar


class Command(OneLineErrorCommand):
    help = (
        "Measure chat retrieval on the loaded corpus: each question of the evaluation set asked of the whole "
        "corpus, hit@5 and MRR of its source paper."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=positive_int, help="Ask only the first N questions.")
        parser.add_argument(
            "--misses", action="store_true", help="List the questions whose paper was not in the first five."
        )

    def handle(self, *args: Any, limit: int | None, misses: bool, verbosity: int, **options: Any) -> None:
        questions = load_questions(QUESTIONS_FILE)[:limit]
        bar, progress = progress_bar("chat retrieval", verbosity=verbosity)
        with bar:
            result = evaluate(questions, advance=lambda done: progress("questions", done, len(questions)))
        if misses:
            for miss in result.misses:
                self.stdout.write(
                    f"- {miss.question}\n  expected {miss.expected}, found {', '.join(miss.found)}"
                )
        self.stdout.write(result.summary())
