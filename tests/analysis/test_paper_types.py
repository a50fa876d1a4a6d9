"""Paper types: the phrases that decide clear cases, the classifier for the rest (trained on the
phrases' labels, never on the evaluation sample), and the evaluation's sums."""

import numpy as np
import pytest
from django.core.management import call_command

from analysis import paper_types, training
from analysis.paper_types import TypeModel, paper_types_of, rule_type
from analysis.type_evaluation import _scores, evaluation_labels
from papers.models import Paper
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


@pytest.mark.django_db
def test_training_learns_from_the_phrases_and_never_from_the_evaluation_sample(tmp_path, monkeypatch):
    monkeypatch.setattr(training, "MODEL_FILE", tmp_path / "model.json")
    axis = np.eye(384)
    held_out = next(iter(evaluation_labels()))
    make_paper(arxiv_id=held_out, title="A survey of everything", embedding=axis[5])
    for index, (title, abstract) in enumerate(
        [
            ("A survey of looms", ""),
            ("LoomBench: a benchmark for looms", ""),
            ("Fast looms", "We propose a novel method for weaving that outperforms baselines."),
        ]
    ):
        for copy in range(3):
            vector = axis[index] + 0.01 * axis[10 + copy]
            make_paper(title=f"{title} {copy}", abstract=abstract, embedding=vector / np.linalg.norm(vector))
    make_paper(title="Looms in the wild", abstract="Looms are common.", embedding=axis[7])  # no phrase

    trained = training.type_model_train()

    assert dict(trained.examples) == {"survey": 3, "benchmark": 3, "method": 3}
    assert trained.papers_read == 10  # the held-out paper is not even read
    assert trained.model.predict(np.asarray([axis[0], axis[1], axis[2]], dtype=np.float32)) == [
        "survey",
        "benchmark",
        "method",
    ]
    assert (tmp_path / "model.json").exists()


def test_macro_f1_averages_the_types_in_the_sample():
    scores = _scores(["survey", "survey", "method", "theory"], ["survey", "method", "method", "theory"])
    assert scores.per_type["survey"] == (1.0, 0.5, pytest.approx(2 / 3), 2)
    assert scores.macro_f1 == pytest.approx((2 / 3 + 2 / 3 + 1) / 3)
    assert scores.papers == 4


@pytest.mark.django_db
def test_the_evaluation_command_reports_macro_f1_and_who_labelled(capsys):
    for arxiv_id in list(evaluation_labels())[:3]:
        make_paper(arxiv_id=arxiv_id, title="A survey of looms")
    call_command("evaluate_paper_types")
    output = capsys.readouterr().out
    assert "244 sample papers are not in this corpus and are left out" in output
    assert "(labels by an AI annotator, not a human)" in output
    assert "natural sample: macro-F1 " in output and "all entries: macro-F1 " in output


def test_the_committed_classifier_loads():
    model = paper_types.type_model()
    assert model is not None and model.coefficients.shape == (len(model.classes), 384)
    assert Paper._meta.get_field("paper_type").max_length >= max(map(len, model.classes))
