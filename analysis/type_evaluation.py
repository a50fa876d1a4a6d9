"""How well the paper types agree with the hand-labelled sample (analysis/evaluation/paper_types.json:
labelled by an AI annotator from the title, abstract and comments, following the guide in the file),
as macro-F1: on the natural sample (its first 220 entries, the mix of papers the classifier meets) and
on every entry (27 more of the rare types, for their recall)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sklearn.metrics import f1_score, precision_recall_fscore_support

from analysis.paper_types import paper_types_of, rule_type
from papers.models import Paper
from papers.paper_types import PAPER_TYPE_LABELS

EVALUATION_FILE = Path(__file__).parent / "evaluation" / "paper_types.json"
NATURAL_SAMPLE_SIZE = 220


def labels_in(path: Path) -> dict[str, str]:
    """A hand-labelled file's labels by arXiv id, in the file's order (the evaluation sample's and the
    training set's files have the same form: {"papers": [{"arxiv_id", "label", …}, …]})."""
    entries = json.loads(path.read_text(encoding="utf-8"))["papers"]
    return {entry["arxiv_id"]: entry["label"] for entry in entries}


@cache
def evaluation_labels() -> dict[str, str]:
    """The sample's labels by arXiv id, in the file's order (the natural sample first)."""
    return labels_in(EVALUATION_FILE)


@dataclass(frozen=True)
class TypeScores:
    macro_f1: float
    per_type: dict[str, tuple[float, float, float, int]]  # precision, recall, F1, papers labelled so
    papers: int
    confusion: Counter[tuple[str, str]]  # (label, type given): papers


@dataclass(frozen=True)
class TypeEvaluation:
    natural: TypeScores
    everything: TypeScores
    missing: list[str]  # sample papers not in this corpus
    decided_by_rules: int  # of the sample papers found


def type_scores(truth: list[str], predicted: list[str]) -> TypeScores:
    labels = [label for label in PAPER_TYPE_LABELS if label in truth]
    precision, recall, f1, support = precision_recall_fscore_support(
        truth, predicted, labels=labels, zero_division=0
    )
    return TypeScores(
        macro_f1=float(f1_score(truth, predicted, labels=labels, average="macro", zero_division=0)),
        per_type={
            label: (float(p), float(r), float(f), int(s))
            for label, p, r, f, s in zip(labels, precision, recall, f1, support, strict=True)
        },
        papers=len(truth),
        confusion=Counter(zip(truth, predicted, strict=True)),
    )


def paper_types_evaluate() -> TypeEvaluation:
    """The types the pipeline gives the sample's papers in this corpus, against their labels."""
    labels = evaluation_labels()
    papers = {
        paper.arxiv_id: paper
        for paper in Paper.objects.filter(arxiv_id__in=list(labels)).only(
            "id", "arxiv_id", "title", "abstract", "comments", "embedding"
        )
    }
    types = paper_types_of(papers.values())
    order = [arxiv_id for arxiv_id in labels if arxiv_id in papers]
    natural = [arxiv_id for arxiv_id in order if list(labels).index(arxiv_id) < NATURAL_SAMPLE_SIZE]
    predicted = {arxiv_id: types[papers[arxiv_id].pk] for arxiv_id in order}
    return TypeEvaluation(
        natural=type_scores([labels[i] for i in natural], [predicted[i] for i in natural]),
        everything=type_scores([labels[i] for i in order], [predicted[i] for i in order]),
        missing=[arxiv_id for arxiv_id in labels if arxiv_id not in papers],
        decided_by_rules=sum(
            1 for paper in papers.values() if rule_type(paper.title, paper.abstract, paper.comments)
        ),
    )
