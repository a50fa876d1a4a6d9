"""The analysis pipeline on small made-up papers: each field with a known answer, the percentiles, the
batch's idempotence and the command."""

import datetime

import numpy as np
import pytest
from django.core.management import call_command

from analysis.models import PaperAnalysis
from analysis.services import papers_analyse, percentiles_refresh
from papers.models import Paper
from tests.factories import make_paper

pytestmark = pytest.mark.django_db

ABSTRACT = (
    "Graph neural networks learn representations of nodes by passing messages along edges. "
    "We train graph neural networks on citation graphs to predict the topics of papers. "
    "The weather in Paris was mild and sunny all through the spring."
)


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=384)
    return vector / np.linalg.norm(vector)


def near(vector: np.ndarray, seed: int, noise: float = 0.01) -> np.ndarray:
    moved = vector + noise * unit(seed)
    return moved / np.linalg.norm(moved)


def analysis_of(paper: Paper) -> PaperAnalysis:
    papers_analyse(paper_ids=[paper.pk])
    return PaperAnalysis.objects.get(paper=paper)


def test_a_paper_without_abstract_or_vector_still_gets_its_field_and_type():
    analysis = analysis_of(
        make_paper(title="A survey of graph neural networks", abstract="", primary_category="cs.LG")
    )
    assert analysis.research_field == "Machine Learning (cs.LG), Computer Science"
    assert analysis.paper_type == "survey"
    assert analysis.analysed is not None
    assert analysis.summary is None and analysis.novelty is None and analysis.closest_earlier is None


def test_the_summary_is_the_abstracts_most_central_sentence():
    analysis = analysis_of(make_paper(abstract=ABSTRACT))
    on_topic, off_topic = ABSTRACT.split(". ")[:2], ABSTRACT.split(". ")[2]
    assert analysis.summary.rstrip(".") in on_topic
    assert analysis.summary != off_topic


def test_novelty_is_the_distance_to_the_closest_earlier_paper_ranked_in_field_and_year():
    base = unit(1)
    original = make_paper(published=datetime.date(2025, 1, 10), embedding=base)
    duplicate = make_paper(published=datetime.date(2025, 3, 1), embedding=near(base, 2))
    fresh = make_paper(published=datetime.date(2025, 3, 2), embedding=unit(3))
    papers_analyse(paper_ids=[original.pk, duplicate.pk, fresh.pk])
    original, duplicate, fresh = (PaperAnalysis.objects.get(paper=p) for p in (original, duplicate, fresh))

    assert original.closest_earlier is None and original.novelty is None  # nothing came before it
    assert duplicate.closest_earlier == [original.paper_id]
    assert duplicate.novelty_distance < 0.01
    assert fresh.novelty_distance > 0.8
    assert set(fresh.closest_earlier) == {original.paper_id, duplicate.paper_id}
    # Two papers ranked in cs.DL 2025: below half for the near-duplicate, above for the new one.
    assert (duplicate.novelty, fresh.novelty) == (25.0, 75.0)


@pytest.mark.parametrize("exact_papers", [0, 5, 100])
def test_the_closest_earlier_papers_are_the_true_nearest_whether_compared_exactly_or_walked(exact_papers):
    """The oldest `exact_papers` are compared with every paper before them, the rest walk the index
    (0: all walk; 100: all compared): either way, what a scan of every earlier paper finds."""
    papers = [
        make_paper(
            published=datetime.date(2024, 1, 1) + datetime.timedelta(days=7 * n), embedding=unit(100 + n)
        )
        for n in range(12)
    ]
    found = Paper.objects.closest_earlier([paper.pk for paper in papers], count=3, exact_papers=exact_papers)

    def cosine_distance(first: Paper, second: Paper) -> float:
        return 1 - float(np.dot(first.embedding, second.embedding))

    for position, paper in enumerate(papers):
        truth = sorted(papers[:position], key=lambda earlier: cosine_distance(paper, earlier))[:3]
        assert [pk for pk, _ in found.get(paper.pk, [])] == [earlier.pk for earlier in truth]
        for (_, distance), earlier in zip(found.get(paper.pk, []), truth, strict=True):
            assert distance == pytest.approx(cosine_distance(paper, earlier), abs=1e-5)


def test_a_paper_posted_the_same_day_with_a_smaller_id_counts_as_earlier():
    day = datetime.date(2025, 2, 2)
    first = make_paper(published=day, embedding=unit(4))
    second = make_paper(published=day, embedding=near(unit(4), 5))
    papers_analyse(paper_ids=[first.pk, second.pk])
    assert PaperAnalysis.objects.get(paper=first).closest_earlier is None
    assert PaperAnalysis.objects.get(paper=second).closest_earlier == [first.pk]


def test_significance_is_the_citation_velocity_percentile_and_null_without_a_count():
    year = datetime.date(2024, 6, 1)
    unknown = make_paper(published=year, cited_by_count=None)
    low, high = make_paper(published=year, cited_by_count=2), make_paper(published=year, cited_by_count=40)
    tied = make_paper(published=year, cited_by_count=2)
    elsewhere = make_paper(published=year, cited_by_count=0, primary_category="hep-th")
    papers_analyse(paper_ids=[unknown.pk, low.pk, high.pk, tied.pk, elsewhere.pk])
    scores = dict(
        PaperAnalysis.objects.filter(paper__gte=unknown.pk).values_list("paper_id", "significance_score")
    )
    assert scores[unknown.pk] is None
    assert scores[low.pk] == scores[tied.pk] == pytest.approx(100 * (0 + 0.5 * 2) / 3)
    assert scores[high.pk] == pytest.approx(100 * (2 + 0.5) / 3)
    assert scores[elsewhere.pk] == 50.0  # alone in its field and year: neither above nor below


def test_a_new_paper_reranks_its_field_and_year():
    year = datetime.date(2024, 6, 1)
    cited = make_paper(published=year, cited_by_count=10)
    papers_analyse(paper_ids=[cited.pk])
    assert PaperAnalysis.objects.get(paper=cited).significance_score == 50.0
    papers_analyse(paper_ids=[make_paper(published=year, cited_by_count=1).pk])
    assert PaperAnalysis.objects.get(paper=cited).significance_score == 75.0


def test_analysing_again_changes_nothing_but_the_time():
    papers = [
        make_paper(
            abstract=ABSTRACT, published=datetime.date(2025, 1, day), embedding=unit(day), cited_by_count=day
        )
        for day in (1, 2, 3)
    ]
    ids = [paper.pk for paper in papers]
    columns = ("research_field", "paper_type", "summary", "novelty", "novelty_distance", "closest_earlier")
    papers_analyse(paper_ids=ids)
    analyses = PaperAnalysis.objects.filter(paper__in=ids).order_by("paper")
    first = list(analyses.values_list(*columns, "significance_score"))
    papers_analyse(paper_ids=ids)
    percentiles_refresh()
    again = list(analyses.values_list(*columns, "significance_score"))
    assert again == first


def test_the_command_analyses_what_is_left_and_says_how_much(capsys):
    done = make_paper(abstract="")
    papers_analyse(paper_ids=[done.pk])
    waiting = [make_paper(abstract="") for _ in range(3)]
    call_command("analyse", "--limit", "2", verbosity=0)
    output = capsys.readouterr().out
    assert output.startswith("analysis: 2 of 2 papers analysed (0 summarised, 0 with earlier work")
    assert Paper.objects.filter(pk__in=[p.pk for p in waiting]).not_analysed().count() == 1
    call_command("analyse", verbosity=0)
    assert not Paper.objects.not_analysed().exists()
