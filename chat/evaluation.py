"""How well retrieval finds the paper that answers a question: the committed evaluation set
(chat/evaluation/questions.json, each question written from one abstract, with that paper as the expected
source) run against whatever corpus is loaded, as hit@5 and mean reciprocal rank."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from chat.retrieval import retrieve
from chat.scopes import CORPUS
from papers.models import Paper

QUESTIONS_FILE = Path(__file__).resolve().parent / "evaluation" / "questions.json"
HIT_DEPTH = 5


@dataclass(frozen=True)
class EvaluationQuestion:
    question: str
    arxiv_id: str


@dataclass(frozen=True)
class Miss:
    question: str
    expected: str
    found: tuple[str, ...]  # the first HIT_DEPTH papers retrieval ranked


@dataclass
class Evaluation:
    asked: int = 0
    not_in_corpus: int = 0  # questions whose source paper is not loaded: not asked
    hits: int = 0  # source among the first HIT_DEPTH papers
    reciprocal_ranks: float = 0.0
    misses: list[Miss] = field(default_factory=list)

    @property
    def hit_at_5(self) -> float:
        return self.hits / self.asked if self.asked else 0.0

    @property
    def mrr(self) -> float:
        return self.reciprocal_ranks / self.asked if self.asked else 0.0

    def summary(self) -> str:
        skipped = f", {self.not_in_corpus} whose paper is not loaded skipped" if self.not_in_corpus else ""
        return (
            f"chat retrieval: hit@{HIT_DEPTH} {self.hit_at_5:.3f} ({self.hits} of {self.asked}), "
            f"MRR {self.mrr:.3f}{skipped}"
        )


def load_questions(path: Path = QUESTIONS_FILE) -> list[EvaluationQuestion]:
    data = json.loads(path.read_text())
    return [EvaluationQuestion(item["question"], item["arxiv_id"]) for item in data["questions"]]


def evaluate(
    questions: list[EvaluationQuestion], *, advance: Callable[[int], None] = lambda done: None
) -> Evaluation:
    """Each question asked of the whole corpus; its source's place among the papers retrieval ranks."""
    loaded = set(
        Paper.objects.filter(arxiv_id__in=[q.arxiv_id for q in questions]).values_list("arxiv_id", flat=True)
    )
    result = Evaluation()
    for item in questions:
        advance(1)
        if item.arxiv_id not in loaded:
            result.not_in_corpus += 1
            continue
        retrieval = retrieve(item.question, CORPUS)
        ranked = [retrieval.papers[paper_id].arxiv_id for paper_id in retrieval.ranked_paper_ids()]
        result.asked += 1
        if item.arxiv_id in ranked:
            place = ranked.index(item.arxiv_id) + 1
            result.reciprocal_ranks += 1 / place
            result.hits += place <= HIT_DEPTH
        if item.arxiv_id not in ranked[:HIT_DEPTH]:
            result.misses.append(Miss(item.question, item.arxiv_id, tuple(ranked[:HIT_DEPTH])))
    return result
