"""Paper types: the phrases that decide clear cases, the classifier for the rest (trained on the
phrases' labels, never on the evaluation sample), and the evaluation's sums."""

import json
from dataclasses import dataclass

import numpy as np
import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis import paper_types, training
from analysis.models import PaperAnalysis
from analysis.paper_types import (
    TextFeatures,
    TypeModel,
    contribution_sentences,
    matching_rule,
    paper_text,
    paper_types_of,
    rule_type,
    type_features,
)
from analysis.type_evaluation import evaluation_labels, type_scores
from papers.paper_types import PAPER_TYPE_LABELS
from tests.factories import make_paper


@pytest.mark.parametrize(
    ("title", "abstract", "phrase"),
    [
        ("A Survey of Graph Looms", "", ("survey", True)),
        ("Loom learning: a systematic review", "", ("survey", True)),
        ("LoomBench: a benchmark for weaving agents", "", ("benchmark", True)),
        (
            "Weaving looms",
            "We release a dataset of 10,000 woven cloths, called LoomSet, for study.",
            ("benchmark", True),
        ),
        (
            "On looms",
            "We prove that every loom has a fixed point, and derive tight bounds.",
            ("theory", False),
        ),
        (
            "Looms should be open",
            "In this position paper we argue that looms must be open.",
            ("position", True),
        ),
        ("PyLoom", "We present PyLoom, an open-source Python package for weaving.", ("system", True)),
        (
            "Fast looms",
            "We propose a novel framework for weaving that outperforms baselines.",
            ("method", False),
        ),
        ("Erratum: fast looms", "", ("other", True)),
        ("Looms should be open to every weaver", "", ("position", True)),
        ("LoomKit", "We present LoomKit, an open-source tool for weavers.", ("system", True)),
        ("Evaluating weaving agents on real looms", "", ("empirical", False)),
        ("Do looms dream of cloth?", "", ("empirical", False)),
        ("Loom tension: an empirical study", "", ("empirical", False)),
        (
            "Looms",
            "We conduct a large-scale empirical study of how weavers choose their looms.",
            ("empirical", False),
        ),
        # Phrases that were right only half the time on the training labels: the classifier decides.
        ("Looms", "This study investigates how weavers choose their looms.", None),
        ("Looms", "We introduce a new dataset for weaving, and a loom trained on it.", None),
        (
            "Cloth spectra",
            "We report the first detection of woven dust with the Loom telescope.",
            ("other", True),
        ),
        ("Loom field theory", "We compute the Hamiltonian of a loom in closed form.", ("theory", False)),
        ("Loom theory: recent developments", "", ("survey", True)),
        ("Looms", "We present a brief review of loom theory and its open problems.", ("survey", True)),
        # A method paper that measures something first is still a method paper.
        (
            "Faster looms",
            "We investigate whether looms stall, then propose a new shuttle method that outperforms them.",
            ("method", False),
        ),
        ("Looms in the wild", "Looms are common. Many people weave.", None),
    ],
)
def test_clear_phrases_decide_the_type_and_broad_ones_only_teach_it(title, abstract, phrase):
    """`phrase` is the first matching phrase's (type, whether it decides): the broad method, empirical
    and theory phrases are too often wrong to decide, so the classifier does, having learnt from them."""
    rule = matching_rule(title, abstract, "")
    assert ((rule.paper_type, rule.decides) if rule else None) == phrase
    assert rule_type(title, abstract, "") == (phrase[0] if phrase and phrase[1] else None)


def test_vision_language_titles_are_not_position_papers():
    assert rule_type("Vision-Language Models for Looms", "", "") is None


@dataclass
class Typed:
    pk: int
    title: str
    abstract: str = ""
    embedding: np.ndarray | None = None
    comments: str = ""


# Harvested text from strangers: markup, LaTeX, NUL and other control characters, any script, long runs.
hostile_text = st.one_of(
    st.text(max_size=3000),
    st.sampled_from(["<script>alert(1)</script>", "$\\frac{a}{b}$ \\cite{x}", "\x00" * 50, "word " * 4000]),
)


@settings(max_examples=60, deadline=None, database=None)
@given(title=hostile_text, abstract=hostile_text, comments=hostile_text)
def test_any_text_gets_one_of_the_types_and_nothing_raises(title, abstract, comments):
    model = paper_types.type_model()
    paper = Typed(1, title, abstract, embedding=np.full(384, 384**-0.5, dtype=np.float32), comments=comments)
    assert paper_types_of([paper], model=model)[1] in set(model.classes) | set(PAPER_TYPE_LABELS)


def test_the_classifier_types_what_no_phrase_decides_and_the_default_what_has_no_vector():
    # The embedding's 384 dimensions, the word "shuttle", then "shuttle" in a contribution sentence.
    axis = np.eye(384 + 2, dtype=np.float32)
    text = TextFeatures(vocabulary=("shuttle",), idf=np.ones(1, dtype=np.float32), weight=3.0)
    model = TypeModel(
        classes=("empirical", "theory", "system"),
        coefficients=np.stack([axis[0], axis[1], axis[384]]),
        intercepts=np.zeros(3),
        text=text,
        contribution=text,
    )
    papers = [
        Typed(1, "A survey of looms", embedding=axis[1][:384]),  # a phrase decides before the classifier
        Typed(2, "Looms in the wild", embedding=axis[0][:384]),
        Typed(3, "Looms in the wild", embedding=axis[1][:384]),
        Typed(4, "Looms in the wild"),  # not embedded yet
        # The same embedding as paper 2, but its words (a comment too) outweigh it.
        Typed(5, "Looms in the wild", embedding=axis[0][:384], comments="The Shuttle, shuttle release"),
    ]
    assert paper_types_of(papers, model=model) == {
        1: "survey",
        2: "empirical",
        3: "theory",
        4: "method",
        5: "system",
    }


def test_the_word_features_read_the_text_the_phrases_read():
    assert paper_text("  A Loom\nStudy ", "Looms  weave.", "") == "a loom study. looms weave."
    text = TextFeatures(
        vocabulary=("loom", "loom study", "weave"), idf=np.asarray([1.0, 2.0, 1.0]), weight=0.5
    )
    features = text.transform([paper_text("A Loom Study", "", "")]).toarray()[0]
    # Sublinear counts times idf, the vector of unit length, then weighted.
    assert features == pytest.approx(0.5 * np.asarray([1.0, 2.0, 0.0]) / np.sqrt(5.0))


def test_the_contribution_sentences_are_where_the_authors_speak_of_their_own_work():
    text = paper_text(
        "Looms for tomorrow",
        "Weaving is old. Looms jam often! Here we argue that looms must change. Our essay ends with a call.",
        "12 pages",
    )
    assert contribution_sentences(text) == "here we argue that looms must change. our essay ends with a call."
    assert contribution_sentences(paper_text("Looms", "Looms weave. Cloth is woven.", "")) == ""


@pytest.fixture
def hand_labelled(tmp_path, monkeypatch):
    """Writes a training set of these labels and points the training at it (and the model file at tmp)."""
    monkeypatch.setattr(training, "MODEL_FILE", tmp_path / "model.json")

    def write(labels: dict[str, str]) -> None:
        path = tmp_path / "training.json"
        entries = [{"arxiv_id": arxiv_id, "label": label} for arxiv_id, label in labels.items()]
        path.write_text(json.dumps({"papers": entries}))
        monkeypatch.setattr(training, "TRAINING_FILE", path)
        training.training_labels.cache_clear()

    yield write
    training.training_labels.cache_clear()


@pytest.mark.django_db
def test_training_learns_from_hand_labels_and_phrases_never_from_the_evaluation_sample(
    hand_labelled, monkeypatch
):
    axis = np.eye(384)
    held_out = list(evaluation_labels())[:2]
    for arxiv_id in held_out:
        make_paper(arxiv_id=arxiv_id, title="Looms at large", embedding=axis[5])
    hand = {}
    # Hand-labelled papers no phrase decides (empirical, position) and one a phrase gets wrong.
    for index, label in ((3, "empirical"), (4, "position")):
        for copy in range(6):
            vector = axis[index] + 0.05 * axis[20 + copy]
            vector /= np.linalg.norm(vector)
            paper = make_paper(title=f"Looms {index} {copy}", abstract="Looms.", embedding=vector)
            hand[paper.arxiv_id] = label
    # Phrase-labelled papers (weak labels, Settings.weak_label_weight of a hand label) for three more types.
    phrased = ["A survey of looms", "LoomBench: a benchmark for looms", "Erratum: looms"]
    for index, title in enumerate(phrased):
        for copy in range(40):
            vector = axis[index] + 0.05 * axis[30 + copy]
            make_paper(title=f"{title} {copy}", embedding=vector / np.linalg.norm(vector))
    hand_labelled(hand)

    trained = training.type_model_train()

    assert dict(trained.hand_labels) == {"empirical": 6, "position": 6}
    assert dict(trained.weak_labels) == {"survey": 40, "benchmark": 40, "other": 40}
    vectors = np.asarray([axis[3], axis[4], axis[0]], dtype=np.float32)
    assert trained.model.predict(vectors, ["looms."] * 3) == ["empirical", "position", "survey"]
    # Held out fold by fold, the hand-labelled papers are still found.
    assert trained.cross_validated.papers == 12
    assert trained.cross_validated.macro_f1 == 1.0
    written = json.loads(training.MODEL_FILE.read_text())
    assert written["about"]["hand_labels"] == {"empirical": 6, "position": 6}
    assert not set(held_out) & set(hand)
    # The evaluation papers' words are not in the vocabulary either ("large" is only in their titles).
    assert "looms" in written["text_vocabulary"] and "large" not in written["text_vocabulary"]
    # What the file holds predicts as the model that wrote it did.
    monkeypatch.setattr(paper_types, "MODEL_FILE", training.MODEL_FILE)
    paper_types.type_model.cache_clear()
    try:
        assert paper_types.type_model().predict(vectors, ["looms."] * 3) == [
            "empirical",
            "position",
            "survey",
        ]
    finally:
        paper_types.type_model.cache_clear()


@pytest.mark.django_db
def test_training_refuses_a_training_set_that_holds_an_evaluation_paper(hand_labelled):
    hand_labelled({next(iter(evaluation_labels())): "method"})
    with pytest.raises(ValueError, match="the training set holds evaluation papers"):
        training.type_model_train()


def test_the_training_set_is_disjoint_from_the_evaluation_sample_and_uses_every_type():
    training.training_labels.cache_clear()
    labels = training.training_labels()
    assert len(labels) >= 300
    assert not set(labels) & set(evaluation_labels())
    assert set(labels.values()) == set(PAPER_TYPE_LABELS)


def test_macro_f1_averages_the_types_in_the_sample():
    scores = type_scores(["survey", "survey", "method", "theory"], ["survey", "method", "method", "theory"])
    assert scores.per_type["survey"] == (1.0, 0.5, pytest.approx(2 / 3), 2)
    assert scores.macro_f1 == pytest.approx((2 / 3 + 2 / 3 + 1) / 3)
    assert scores.papers == 4
    assert scores.confusion[("survey", "method")] == 1 and scores.confusion[("survey", "survey")] == 1


@pytest.mark.django_db
def test_the_evaluation_command_reports_macro_f1_and_who_labelled(capsys):
    for arxiv_id in list(evaluation_labels())[:3]:
        make_paper(arxiv_id=arxiv_id, title="A survey of looms")
    call_command("evaluate_paper_types")
    output = capsys.readouterr().out
    assert "244 sample papers are not in this corpus and are left out" in output
    assert "(labels by an AI annotator, not a human)" in output
    assert "natural sample: macro-F1 " in output and "all entries: macro-F1 " in output
    assert "confusion (rows: label, columns: type given)" in output


def test_the_committed_classifier_loads():
    model = paper_types.type_model()
    assert model is not None
    assert model.coefficients.shape == (
        len(model.classes),
        384 + len(model.text.vocabulary) + len(model.contribution.vocabulary),
    )
    assert len(model.text.vocabulary) == len(model.text.idf) >= 1000
    assert len(model.contribution.vocabulary) == len(model.contribution.idf) >= 1000
    assert paper_types.MODEL_FILE.stat().st_size < 2_500_000
    assert PaperAnalysis._meta.get_field("paper_type").max_length >= max(map(len, model.classes))


def test_the_committed_classifier_reads_the_words_where_no_phrase_decides():
    title, abstract = "Looms for tomorrow", "Weaving communities face a choice."
    assert rule_type(title, abstract, "Position paper") is None
    model = paper_types.type_model()
    silent = np.zeros((2, 384), dtype=np.float32)  # no embedding to go by: only the words differ
    texts = [paper_text(title, abstract, "Position paper"), paper_text(title, abstract, "")]
    features = type_features(silent, texts, model.text, model.contribution)
    scores = np.asarray(features @ model.coefficients.T) + model.intercepts
    rise = dict(zip(model.classes, scores[0] - scores[1], strict=True))
    # The comment's two words raise the position type's score by more than a unit, and no other's.
    assert rise["position"] > 1.0
    assert max(value for label, value in rise.items() if label != "position") < 0
