"""The paper-type classifier, trained on a hand-labelled training set (analysis/paper_types_training.json:
370 demo papers outside the evaluation sample, labelled by an AI annotator with the evaluation's guide)
and, with a smaller weight, on the labels the phrases give the rest of the corpus (weak supervision). It
types the papers no phrase decides, so a paper that a phrase decides teaches it through its phrase's
label only when no hand label says otherwise.

The evaluation sample (analysis/evaluation/paper_types.json) is never read here except to leave its
papers out; the held-out check is cross-validation on the training set."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from analysis.paper_types import DEFAULT_TYPE, MODEL_FILE, TypeModel, rule_type
from analysis.type_evaluation import TypeScores, evaluation_labels, labels_in, type_scores
from papers.models import Paper

TRAINING_FILE = Path(__file__).parent / "paper_types_training.json"
# Chosen by five-fold cross-validation on the training set alone (2026-12-01; the evaluation sample
# was not consulted): see `manage.py train_paper_types`, which prints the cross-validated scores.
REGULARISATION_C = 4.0
WEAK_LABEL_WEIGHT = 0.05  # a phrase's label on an unlabelled paper counts this much of a hand label
CROSS_VALIDATION_FOLDS = 5


@cache
def training_labels() -> dict[str, str]:
    """The training set's hand labels by arXiv id."""
    return labels_in(TRAINING_FILE)


@dataclass(frozen=True)
class LabelledPaper:
    arxiv_id: str
    rule: str | None  # what the phrases say
    label: str | None  # the hand label, for the training set's papers
    vector: np.ndarray


@dataclass(frozen=True)
class TrainedTypes:
    model: TypeModel
    hand_labels: Counter[str]
    weak_labels: Counter[str]
    cross_validated: TypeScores  # the whole pipeline (phrases, then classifier) on held-out folds


def _corpus() -> list[LabelledPaper]:
    hand = training_labels()
    held_out = set(evaluation_labels())
    overlap = held_out & set(hand)
    if overlap:
        raise ValueError(f"the training set holds evaluation papers: {sorted(overlap)[:5]}")
    papers = (
        Paper.objects.filter(embedding__isnull=False)
        .exclude(arxiv_id__in=list(held_out))  # never learn from the evaluation sample
        .only("arxiv_id", "title", "abstract", "comments", "embedding")
        .order_by("pk")
    )
    return [
        LabelledPaper(
            arxiv_id=paper.arxiv_id,
            rule=rule_type(paper.title, paper.abstract, paper.comments),
            label=hand.get(paper.arxiv_id),
            vector=np.asarray(paper.embedding, dtype=np.float32),
        )
        for paper in papers.iterator(chunk_size=2000)
    ]


def _fit(examples: list[LabelledPaper]) -> TypeModel:
    """Hand labels at weight 1, phrase labels of the other papers at WEAK_LABEL_WEIGHT; no class
    balancing: the types' natural shares are what the classifier should expect."""
    chosen = [paper for paper in examples if paper.label is not None or paper.rule is not None]
    labels = [paper.label or paper.rule for paper in chosen]
    weights = [1.0 if paper.label is not None else WEAK_LABEL_WEIGHT for paper in chosen]
    if len(set(labels)) < 3:  # two would make scikit-learn fit one binary model, not one per type
        raise ValueError(f"the corpus's known types are {sorted(set(labels))}: too few to learn from")
    fitted = LogisticRegression(C=REGULARISATION_C, max_iter=3000)
    fitted.fit(np.asarray([paper.vector for paper in chosen]), labels, sample_weight=weights)
    return TypeModel(
        classes=tuple(str(label) for label in fitted.classes_),
        coefficients=fitted.coef_.astype(np.float32),
        intercepts=fitted.intercept_.astype(np.float32),
    )


def _pipeline(model: TypeModel, papers: list[LabelledPaper]) -> list[str]:
    undecided = [paper for paper in papers if paper.rule is None]
    predicted = dict(
        zip(
            [paper.arxiv_id for paper in undecided],
            model.predict(np.asarray([paper.vector for paper in undecided])) if undecided else [],
            strict=True,
        )
    )
    return [paper.rule or predicted.get(paper.arxiv_id, DEFAULT_TYPE) for paper in papers]


def cross_validate(corpus: list[LabelledPaper], folds: int = CROSS_VALIDATION_FOLDS) -> TypeScores:
    """Phrases then classifier on each fold of the training set, with a classifier fitted without
    that fold's papers (the weak labels of the rest of the corpus included)."""
    labelled = [paper for paper in corpus if paper.label is not None]
    unlabelled = [paper for paper in corpus if paper.label is None]
    labels = [paper.label for paper in labelled]
    truth: list[str] = []
    predicted: list[str] = []
    # Stratified where a type has enough examples; shuffled with a fixed seed, so reruns agree.
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
    for train_index, test_index in splitter.split(np.zeros(len(labels)), labels):
        model = _fit([labelled[i] for i in train_index] + unlabelled)
        held = [labelled[i] for i in test_index]
        truth += [paper.label for paper in held]
        predicted += _pipeline(model, held)
    return type_scores(truth, predicted)


def type_model_train() -> TrainedTypes:
    """Fit the classifier on the training set and the corpus's phrase labels, cross-validate it on the
    training set, and write it to MODEL_FILE."""
    corpus = _corpus()
    hand = Counter(paper.label for paper in corpus if paper.label is not None)
    if not hand:
        raise ValueError(f"no paper of the training set ({TRAINING_FILE.name}) is in this corpus")
    weak = Counter(paper.rule for paper in corpus if paper.label is None and paper.rule is not None)
    scores = cross_validate(corpus)
    model = _fit(corpus)
    MODEL_FILE.write_text(
        model.to_json(
            trained_by="manage.py train_paper_types (analysis/training.py)",
            hand_labels=dict(sorted(hand.items())),
            weak_labels=dict(sorted(weak.items())),
            weak_label_weight=WEAK_LABEL_WEIGHT,
            regularisation_c=REGULARISATION_C,
            cross_validated_macro_f1=round(scores.macro_f1, 3),
            held_out="the evaluation sample, analysis/evaluation/paper_types.json",
        )
        + "\n",
        encoding="utf-8",
    )
    return TrainedTypes(model=model, hand_labels=hand, weak_labels=weak, cross_validated=scores)
