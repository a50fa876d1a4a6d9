"""Paper types: the phrases that decide clear cases, the classifier for the rest (trained on the
phrases' labels, never on the evaluation sample), and the evaluation's sums."""

import json

import numpy as np
import pytest
from django.core.management import call_command

from analysis import paper_types, training
from analysis.models import PaperAnalysis
from analysis.paper_types import TypeModel, paper_types_of, rule_type
from analysis.type_evaluation import evaluation_labels, type_scores
from papers.paper_types import PAPER_TYPE_LABELS
from tests.factories import make_paper


@pytest.mark.parametrize(
    ("title", "abstract", "expected"),
    [
        ("A Survey of Graph Looms", "", "survey"),
        ("Loom learning: a systematic review", "", "survey"),
        ("LoomBench: a benchmark for weaving agents", "", "benchmark"),
        (
            "Weaving looms",
            "We release a dataset of 10,000 woven cloths, called LoomSet, for study.",
            "benchmark",
        ),
        ("On looms", "We prove that every loom has a fixed point, and derive tight bounds.", "theory"),
        ("Looms should be open", "In this position paper we argue that looms must be open.", "position"),
        ("PyLoom", "We present PyLoom, an open-source Python package for weaving.", "system"),
        ("Fast looms", "We propose a novel framework for weaving that outperforms baselines.", "method"),
        ("Erratum: fast looms", "", "other"),
        ("Looms should be open to every weaver", "", "position"),
        ("LoomKit", "We present LoomKit, an open-source tool for weavers.", "system"),
        ("Evaluating weaving agents on real looms", "", "empirical"),
        ("Do looms dream of cloth?", "", "empirical"),
        ("Loom tension: an empirical study", "", "empirical"),
        ("Looms", "This study investigates how weavers choose their looms.", "empirical"),
        ("Looms", "We investigate whether large looms weave faster, and find they do not.", "empirical"),
        ("Cloth spectra", "We report the first detection of woven dust with the Loom telescope.", "other"),
        ("Loom field theory", "We compute the Hamiltonian of a loom in closed form.", "theory"),
        ("Loom theory: recent developments", "", "survey"),
        ("Looms", "We present a brief review of loom theory and its open problems.", "survey"),
        # A method paper that measures something first is still a method paper.
        (
            "Faster looms",
            "We investigate whether looms stall, then propose a new shuttle method that outperforms them.",
            "method",
        ),
        ("Looms in the wild", "Looms are common. Many people weave.", None),
    ],
)
def test_clear_phrases_decide_the_type(title, abstract, expected):
    assert rule_type(title, abstract, "") == expected


def test_vision_language_titles_are_not_position_papers():
    assert rule_type("Vision-Language Models for Looms", "", "") is None


class Typed:
    def __init__(self, pk, title, abstract="", embedding=None):
        self.pk, self.title, self.abstract, self.comments, self.embedding = pk, title, abstract, "", embedding


def test_the_classifier_types_what_no_phrase_decides_and_the_default_what_has_no_vector():
    axis = np.eye(384, dtype=np.float32)
    model = TypeModel(classes=("empirical", "theory"), coefficients=axis[:2], intercepts=np.zeros(2))
    papers = [
        Typed(1, "A survey of looms", embedding=axis[1]),  # a phrase decides before the classifier
        Typed(2, "Looms in the wild", embedding=axis[0]),
        Typed(3, "Looms in the wild", embedding=axis[1]),
        Typed(4, "Looms in the wild"),  # not embedded yet
    ]
    assert paper_types_of(papers, model=model) == {1: "survey", 2: "empirical", 3: "theory", 4: "method"}


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
def test_training_learns_from_hand_labels_and_phrases_never_from_the_evaluation_sample(hand_labelled):
    axis = np.eye(384)
    held_out = next(iter(evaluation_labels()))
    make_paper(arxiv_id=held_out, title="Looms at large", embedding=axis[5])
    hand = {}
    # Hand-labelled papers no phrase decides (empirical, position) and one a phrase gets wrong.
    for index, label in ((3, "empirical"), (4, "position")):
        for copy in range(6):
            vector = axis[index] + 0.05 * axis[20 + copy]
            vector /= np.linalg.norm(vector)
            paper = make_paper(title=f"Looms {index} {copy}", abstract="Looms.", embedding=vector)
            hand[paper.arxiv_id] = label
    # Phrase-labelled papers (weak labels, each a twentieth of a hand label) for three more types.
    phrased = ["A survey of looms", "LoomBench: a benchmark for looms", "Erratum: looms"]
    for index, title in enumerate(phrased):
        for copy in range(40):
            vector = axis[index] + 0.05 * axis[30 + copy]
            make_paper(title=f"{title} {copy}", embedding=vector / np.linalg.norm(vector))
    hand_labelled(hand)

    trained = training.type_model_train()

    assert dict(trained.hand_labels) == {"empirical": 6, "position": 6}
    assert dict(trained.weak_labels) == {"survey": 40, "benchmark": 40, "other": 40}
    assert trained.model.predict(np.asarray([axis[3], axis[4], axis[0]], dtype=np.float32)) == [
        "empirical",
        "position",
        "survey",
    ]
    # Held out fold by fold, the hand-labelled papers are still found.
    assert trained.cross_validated.papers == 12
    assert trained.cross_validated.macro_f1 == 1.0
    written = json.loads(training.MODEL_FILE.read_text())
    assert written["about"]["hand_labels"] == {"empirical": 6, "position": 6}
    assert held_out not in hand


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
    assert model is not None and model.coefficients.shape == (len(model.classes), 384)
    assert PaperAnalysis._meta.get_field("paper_type").max_length >= max(map(len, model.classes))
