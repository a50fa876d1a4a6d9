"""The analysis as readers meet it: the paper page's Analysis box (each figure with how it is computed),
the Markdown twin and the JSON API."""

import datetime

import numpy as np
import pytest

from analysis.models import Topic
from analysis.services import papers_analyse
from tests.factories import give_topics, make_paper
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db

DETAIL = "/api/papers/{arxiv_id}"


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=384)
    return vector / np.linalg.norm(vector)


@pytest.fixture
def papers():
    """An earlier paper and a later survey close to it, both analysed; the survey has citations."""
    earlier = make_paper(
        title="Looms of the early modern period",
        published=datetime.date(2025, 1, 5),
        embedding=unit(1),
        primary_category="cs.LG",
    )
    survey = make_paper(
        title="A survey of loom learning",
        abstract="We review how looms learn. Looms learn by weaving many threads into cloth.",
        published=datetime.date(2025, 3, 5),
        embedding=(unit(1) + 0.2 * unit(2)) / np.linalg.norm(unit(1) + 0.2 * unit(2)),
        primary_category="cs.LG",
        cited_by_count=12,
    )
    papers_analyse(paper_ids=[earlier.pk, survey.pk])
    earlier.refresh_from_db()
    survey.refresh_from_db()
    return earlier, survey


def analysis_box(client, paper):
    page = tree(client.get(paper.get_absolute_url()))
    [box] = page.xpath("//section[@aria-labelledby='analysis-heading']")
    return {
        text_of(term): dd
        for term, dd in zip(box.xpath(".//dt"), box.xpath(".//dt/following-sibling::dd[1]"), strict=True)
    }


def test_the_analysis_box_shows_each_figure_and_how_it_is_computed(client, papers):
    earlier, survey = papers
    box = analysis_box(client, survey)
    assert list(box) == ["TL;DR", "Type", "Field", "Novelty", "Significance"]
    assert text_of(box["TL;DR"].xpath("p")[0]) in {
        "We review how looms learn.",
        "Looms learn by weaving many threads into cloth.",
    }
    assert text_of(box["Type"].xpath("p")[0]) == "survey/review"
    assert text_of(box["Field"].xpath("p")[0]) == "Machine Learning (cs.LG), Computer Science"
    assert text_of(box["Novelty"].xpath("p")[0]) == "50th percentile in cs.LG, 2025"  # alone in its year
    assert box["Novelty"].xpath(".//ul/li/a/@href") == [earlier.get_absolute_url()]
    assert text_of(box["Significance"].xpath("p")[0]) == "50th percentile in cs.LG, 2025"
    for figure in box.values():
        assert figure.xpath("p[@class='how']"), "every figure says how it is computed"


def test_without_a_citation_count_the_page_says_so_rather_than_zero(client, papers):
    earlier, _ = papers
    box = analysis_box(client, earlier)
    assert text_of(box["Significance"].xpath("p")[0]) == "No citation count known yet."
    assert text_of(box["Novelty"].xpath("p")[0]) == "No earlier paper in the map to compare with yet."


def test_a_paper_not_analysed_yet_says_so(client):
    paper = make_paper()
    page = tree(client.get(paper.get_absolute_url()))
    [box] = page.xpath("//section[@aria-labelledby='analysis-heading']")
    assert "has not been analysed yet" in text_of(box)


def test_the_markdown_twin_has_the_analysis(client, papers):
    earlier, survey = papers
    text = client.get(survey.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    section = text.split("## Analysis\n\n")[1].split("\n## ")[0]
    assert "- Type: survey/review (" in section
    assert "- Field: Machine Learning (cs.LG), Computer Science (" in section
    assert "- Novelty: 50th percentile in cs.LG, 2025 (" in section
    assert (
        "    - Closest earlier work: [Looms of the early modern period]"
        f"(http://127.0.0.1:8000{earlier.get_absolute_url()}) (2025)" in section
    )
    assert "- Significance: 50th percentile in cs.LG, 2025 (" in section
    earlier_text = client.get(earlier.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    assert "- Significance: no citation count known yet (" in earlier_text


def test_the_api_gives_the_analysis_and_the_closest_earlier_papers(get_valid, papers):
    earlier, survey = papers
    body = get_valid(DETAIL.format(arxiv_id=survey.arxiv_id), DETAIL).json()
    analysis = body["analysis"]
    assert analysis["paper_type"] == "survey"
    assert analysis["research_field"] == "Machine Learning (cs.LG), Computer Science"
    assert analysis["novelty"] == 50.0 and 0 < analysis["novelty_distance"] < 0.1
    assert analysis["significance"] == 50.0
    assert [paper["arxiv_id"] for paper in body["closest_earlier"]] == [earlier.arxiv_id]
    assert analysis["summary_generated"] is False and analysis["topics"] == []
    nearest, next_nearest = (Topic.objects.create(label=label, centroid=[1.0] * 384) for label in "ab")
    give_topics(survey, [nearest, next_nearest])
    topics = get_valid(DETAIL.format(arxiv_id=survey.arxiv_id), DETAIL).json()["analysis"]["topics"]
    assert topics == [
        {"id": topic.pk, "url": f"http://127.0.0.1:8000/topics/{topic.pk}"}
        for topic in (nearest, next_nearest)
    ]
    unanalysed = make_paper()
    body = get_valid(DETAIL.format(arxiv_id=unanalysed.arxiv_id), DETAIL).json()
    assert body["analysis"] is None and body["closest_earlier"] == []
