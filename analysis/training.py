"""The paper-type classifier trained on the phrases' labels (weak supervision): every paper of the
corpus with a vector that a phrase decides, except the evaluation sample's, teaches the classifier what
each type looks like in embedding space; it then types the papers no phrase decides."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression

from analysis.paper_types import MODEL_FILE, TypeModel, rule_type
from analysis.type_evaluation import evaluation_labels
from papers.models import Paper

# scikit-learn's default, fixed before the first evaluation. Five-fold cross-validation on the weak labels
# alone (2026-12-01) preferred C=10 without class weights, which agrees with the hand labels less (natural
# sample macro-F1 0.444; this setting 0.47-0.48): agreeing with the phrases is not what is wanted of it.
REGULARISATION_C = 1.0


@dataclass(frozen=True)
class TrainedTypes:
    model: TypeModel
    examples: Counter[str]  # weak labels per type
    papers_read: int


def type_model_train() -> TrainedTypes:
    """Fit the classifier on the corpus's weakly labelled papers and write it to MODEL_FILE."""
    held_out = list(evaluation_labels())
    vectors: list[np.ndarray] = []
    labels: list[str] = []
    papers = (
        Paper.objects.filter(embedding__isnull=False)
        .exclude(arxiv_id__in=held_out)  # never learn from the evaluation sample
        .only("title", "abstract", "comments", "embedding")
        .order_by("pk")
    )
    read = 0
    for paper in papers.iterator(chunk_size=2000):
        read += 1
        label = rule_type(paper.title, paper.abstract, paper.comments)
        if label is not None:
            vectors.append(paper.embedding)
            labels.append(label)
    if len(set(labels)) < 3:  # two would make scikit-learn fit one binary model, not one per type
        raise ValueError(f"the corpus's clear types are {sorted(set(labels))}: too few to learn from")
    # Balanced class weights: the phrases find methods by the thousand and position papers by the ten.
    fitted = LogisticRegression(C=REGULARISATION_C, class_weight="balanced", max_iter=2000)
    fitted.fit(np.asarray(vectors, dtype=np.float32), labels)
    model = TypeModel(
        classes=tuple(str(label) for label in fitted.classes_),
        coefficients=fitted.coef_.astype(np.float32),
        intercepts=fitted.intercept_.astype(np.float32),
    )
    examples = Counter(labels)
    MODEL_FILE.write_text(
        model.to_json(
            trained_by="manage.py train_paper_types (analysis/training.py)",
            papers_read=read,
            weak_labels=dict(sorted(examples.items())),
            held_out="the evaluation sample, analysis/evaluation/paper_types.json",
        )
        + "\n",
        encoding="utf-8",
    )
    return TrainedTypes(model=model, examples=examples, papers_read=read)
