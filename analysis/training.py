"""The paper-type classifier, trained on a hand-labelled training set (analysis/paper_types_training.json:
1,258 demo papers outside the evaluation sample, labelled by an AI annotator with the evaluation's guide)
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
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from analysis.paper_types import (
    DEFAULT_TYPE,
    MODEL_FILE,
    TextFeatures,
    TypeModel,
    contribution_sentences,
    matching_rule,
    paper_text,
    type_features,
)
from analysis.type_evaluation import TypeScores, evaluation_labels, labels_in, type_scores
from papers.models import Paper

TRAINING_FILE = Path(__file__).parent / "paper_types_training.json"


@dataclass(frozen=True)
class Settings:
    """The training's choices, chosen by five-fold cross-validation on the training set alone, the
    evaluation sample not consulted (last searched on 2026-12-05 with 1,258 labels; README.md has the
    grid and its scores)."""

    regularisation_c: float = 8.0
    weak_label_weight: float = 0.03  # a phrase's label on an unlabelled paper, against a hand label's 1
    balanced: bool = True  # weigh each type inversely to its share of the (weighted) labels
    text_terms: int = 5_000  # the vocabulary: the corpus's most frequent words and word pairs
    text_weight: float = 1.0  # the TF-IDF vector's length beside the unit embedding
    text_ngram_range: tuple[int, int] = (1, 2)
    contribution_terms: int = 3_000  # the same, over the contribution sentences alone


SETTINGS = Settings()
CROSS_VALIDATION_FOLDS = 5


@cache
def training_labels() -> dict[str, str]:
    """The training set's hand labels by arXiv id."""
    return labels_in(TRAINING_FILE)


@dataclass(frozen=True)
class LabelledPaper:
    arxiv_id: str
    rule: str | None  # the type a deciding phrase gives
    phrase: str | None  # the type the first matching phrase gives, deciding or only teaching
    label: str | None  # the hand label, for the training set's papers
    vector: np.ndarray
    text: str  # paper_text: what the word features read


@dataclass(frozen=True)
class TrainedTypes:
    model: TypeModel
    hand_labels: Counter[str]
    weak_labels: Counter[str]
    cross_validated: TypeScores  # the whole pipeline (phrases, then classifier) on held-out folds


def corpus_papers() -> list[LabelledPaper]:
    """Every embedded paper of this corpus but the evaluation sample's, with its phrase's type and its
    hand label where it has one."""
    hand = training_labels()
    held_out = set(evaluation_labels())
    overlap = held_out & set(hand)
    if overlap:
        raise ValueError(f"the training set holds evaluation papers: {sorted(overlap)[:5]}")
    papers = (
        Paper.objects.filter(embedding__isnull=False)
        .exclude(arxiv_id__in=list(held_out))  # never learn from the evaluation sample, not even its words
        .only("arxiv_id", "title", "abstract", "comments", "embedding")
        .order_by("pk")
    )
    labelled = []
    for paper in papers.iterator(chunk_size=2000):
        rule = matching_rule(paper.title, paper.abstract, paper.comments)
        labelled.append(
            LabelledPaper(
                arxiv_id=paper.arxiv_id,
                rule=rule.paper_type if rule is not None and rule.decides else None,
                phrase=rule.paper_type if rule is not None else None,
                label=hand.get(paper.arxiv_id),
                vector=np.asarray(paper.embedding, dtype=np.float32),
                text=paper_text(paper.title, paper.abstract, paper.comments),
            )
        )
    return labelled


@dataclass(frozen=True)
class FeaturedCorpus:
    """The corpus's papers with their feature rows, built once for every fit of a training run."""

    papers: list[LabelledPaper]
    text: TextFeatures
    contribution: TextFeatures
    features: sparse.csr_matrix  # one row per paper, as type_features builds it for prediction


def featured(papers: list[LabelledPaper], settings: Settings = SETTINGS) -> FeaturedCorpus:
    """The vocabulary and its document frequencies come from the whole corpus's words (the evaluation
    sample left out); no label is read for them, so cross-validation folds may share them."""
    texts = [paper.text for paper in papers]
    text = TextFeatures.fit(
        texts, terms=settings.text_terms, weight=settings.text_weight, ngram_range=settings.text_ngram_range
    )
    contribution = TextFeatures.fit(
        [contribution_sentences(paper) for paper in texts],
        terms=settings.contribution_terms,
        weight=settings.text_weight,
        ngram_range=settings.text_ngram_range,
    )
    vectors = np.asarray([paper.vector for paper in papers], dtype=np.float32)
    return FeaturedCorpus(
        papers=papers,
        text=text,
        contribution=contribution,
        features=type_features(vectors, texts, text, contribution),
    )


def _fit(corpus: FeaturedCorpus, rows: list[int], settings: Settings = SETTINGS) -> TypeModel:
    """Hand labels at weight 1, phrase labels of the other papers (teaching phrases' too) at the weak
    weight; with balanced settings each type's weights are scaled so the types weigh alike, else the
    natural shares stand."""
    chosen = [row for row in rows if (corpus.papers[row].label or corpus.papers[row].phrase) is not None]
    labels = [corpus.papers[row].label or corpus.papers[row].phrase for row in chosen]
    weights = np.asarray(
        [1.0 if corpus.papers[row].label is not None else settings.weak_label_weight for row in chosen]
    )
    if len(set(labels)) < 3:  # two would make scikit-learn fit one binary model, not one per type
        raise ValueError(f"the corpus's known types are {sorted(set(labels))}: too few to learn from")
    if settings.balanced:
        # class_weight="balanced" would count a weak label as a whole one: balance the weighted counts.
        totals = Counter()
        for label, weight in zip(labels, weights, strict=True):
            totals[label] += weight
        mean = sum(totals.values()) / len(totals)
        weights = weights * np.asarray([mean / totals[label] for label in labels])
    fitted = LogisticRegression(C=settings.regularisation_c, max_iter=3000)
    fitted.fit(corpus.features[chosen], labels, sample_weight=weights)
    return TypeModel(
        classes=tuple(str(label) for label in fitted.classes_),
        coefficients=fitted.coef_.astype(np.float32),
        intercepts=fitted.intercept_.astype(np.float32),
        text=corpus.text,
        contribution=corpus.contribution,
    )


def _pipeline(model: TypeModel, corpus: FeaturedCorpus, rows: list[int]) -> list[str]:
    undecided = [row for row in rows if corpus.papers[row].rule is None]
    predicted = dict(
        zip(undecided, model.predict_features(corpus.features[undecided]) if undecided else [], strict=True)
    )
    return [corpus.papers[row].rule or predicted.get(row, DEFAULT_TYPE) for row in rows]


def cross_validate(
    corpus: FeaturedCorpus, settings: Settings = SETTINGS, folds: int = CROSS_VALIDATION_FOLDS
) -> TypeScores:
    """Phrases then classifier on each fold of the training set, with a classifier fitted without
    that fold's papers (the weak labels of the rest of the corpus included)."""
    labelled = [row for row, paper in enumerate(corpus.papers) if paper.label is not None]
    unlabelled = [row for row, paper in enumerate(corpus.papers) if paper.label is None]
    labels = [corpus.papers[row].label for row in labelled]
    truth: list[str] = []
    predicted: list[str] = []
    # Stratified where a type has enough examples; shuffled with a fixed seed, so reruns agree.
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
    for train_index, test_index in splitter.split(np.zeros(len(labels)), labels):
        model = _fit(corpus, [labelled[i] for i in train_index] + unlabelled, settings)
        held = [labelled[i] for i in test_index]
        truth += [corpus.papers[row].label for row in held]
        predicted += _pipeline(model, corpus, held)
    return type_scores(truth, predicted)


def type_model_train(settings: Settings = SETTINGS) -> TrainedTypes:
    """Fit the classifier on the training set and the corpus's phrase labels, cross-validate it on the
    training set, and write it to MODEL_FILE."""
    papers = corpus_papers()
    hand = Counter(paper.label for paper in papers if paper.label is not None)
    if not hand:
        raise ValueError(f"no paper of the training set ({TRAINING_FILE.name}) is in this corpus")
    weak = Counter(paper.phrase for paper in papers if paper.label is None and paper.phrase is not None)
    corpus = featured(papers, settings)
    scores = cross_validate(corpus, settings)
    model = _fit(corpus, list(range(len(papers))), settings)
    MODEL_FILE.write_text(
        model.to_json(
            trained_by="manage.py train_paper_types (analysis/training.py)",
            hand_labels=dict(sorted(hand.items())),
            weak_labels=dict(sorted(weak.items())),
            weak_label_weight=settings.weak_label_weight,
            regularisation_c=settings.regularisation_c,
            balanced_class_weights=settings.balanced,
            text_terms=len(model.text.vocabulary),
            contribution_terms=len(model.contribution.vocabulary),
            cross_validated_macro_f1=round(scores.macro_f1, 3),
            held_out="the evaluation sample, analysis/evaluation/paper_types.json",
        )
        + "\n",
        encoding="utf-8",
    )
    return TrainedTypes(model=model, hand_labels=hand, weak_labels=weak, cross_validated=scores)
