"""Topics: clusters of papers by meaning named by their distinctive words, ids that survive a
recomputation, merged topics that redirect, and the pages."""

import numpy as np
import pytest

from analysis import topics
from analysis.models import PaperAnalysis, PaperTopic, Topic
from analysis.topics import topics_compute, topics_need_recomputing
from papers.models import Paper
from papers.search.query import parse
from tests.factories import make_paper
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db

GROUPS = {
    0: ("Quilting lattices", "We study quilting lattices and quilting stitches on lattices."),
    1: ("Teapot glazes", "Teapot glazes crackle; teapot kilns fire glazes."),
    2: ("Kayak hulls", "Kayak hulls glide; kayak paddles steer hulls."),
}


def unit(vector: np.ndarray) -> np.ndarray:
    return vector / np.linalg.norm(vector)


def make_group(group: int, count: int, *, start: int = 0) -> list[Paper]:
    axis = np.eye(384)
    title, abstract = GROUPS[group]
    return [
        make_paper(
            title=f"{title} {start + copy}",
            abstract=abstract,
            embedding=unit(axis[group] + 0.05 * axis[10 + start + copy]),
        )
        for copy in range(count)
    ]


@pytest.fixture
def three_groups(monkeypatch):
    monkeypatch.setattr(topics, "PAPERS_PER_TOPIC", 10)  # 30 papers: three topics
    return [make_group(group, 10) for group in GROUPS]


def test_it_finds_the_clusters_and_names_them_by_their_words(three_groups):
    result = topics_compute()
    assert (result.topics, result.created, result.papers) == (3, 3, 30)
    labels = {topic.label.split(", ")[0] for topic in Topic.objects.current()}
    assert {"quilting", "teapot", "kayak"} <= {
        word for topic in Topic.objects.current() for word in topic.keywords
    }
    assert len(labels) == 3
    for group in three_groups:
        first_topics = {PaperTopic.objects.get(paper=paper, rank=0).topic_id for paper in group}
        assert len(first_topics) == 1  # a group shares its nearest topic


def test_a_recomputation_rewrites_only_the_assignments_that_changed(three_groups):
    topics_compute()
    before = set(PaperTopic.objects.values_list("pk", "paper_id", "topic_id", "rank"))
    topics_compute()  # the same papers: the same clusters, kept ids, every row left as it was
    assert set(PaperTopic.objects.values_list("pk", "paper_id", "topic_id", "rank")) == before
    moved = three_groups[0][0]
    elsewhere = Topic.objects.exclude(paper_links__paper=moved).first()
    PaperTopic.objects.filter(paper=moved, rank=0).update(topic=elsewhere)
    topics_compute()  # put back, under a new row
    assert PaperTopic.objects.get(paper=moved, rank=0).topic_id == (
        PaperTopic.objects.get(paper=three_groups[0][1], rank=0).topic_id
    )
    assert len(set(PaperTopic.objects.values_list("pk", flat=True)) - {row[0] for row in before}) >= 1


def test_topic_ids_stay_when_the_corpus_grows_and_a_lost_topic_redirects(client, three_groups, monkeypatch):
    topics_compute()
    before = {topic.label: topic.pk for topic in Topic.objects.current()}
    make_group(0, 5, start=20)  # more papers like the first group
    result = topics_compute()
    assert result.kept == 3 and result.created == 0
    assert {topic.pk for topic in Topic.objects.current()} == set(before.values())

    monkeypatch.setattr(topics, "PAPERS_PER_TOPIC", 17)  # 35 papers: two topics, one must go
    result = topics_compute()
    assert result.topics == 2 and result.merged >= 1
    merged = Topic.objects.exclude(merged_into=None).first()
    response = client.get(f"/topics/{merged.pk}-{merged.slug}")
    assert response.status_code == 301
    assert response["Location"] == merged.merged_into.get_absolute_url()


def test_the_pages_list_topics_and_their_papers_newest_first(client, three_groups):
    topics_compute()
    topic = Topic.objects.current().first()
    page = tree(client.get("/topics"))
    assert len(page.xpath("//ul[contains(@class, 'topic-list')]/li")) == 3
    detail = client.get(topic.get_absolute_url())
    assert detail.status_code == 200
    assert len(tree(detail).xpath("//ul[@class='paper-list']/li")) == topic.size
    assert client.get(f"/topics/{topic.pk}").status_code == 301  # to the address with its slug
    assert client.get("/topics/999999").status_code == 404
    markdown = client.get(topic.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    assert markdown.startswith(f"# {topic.label}")


def test_the_paper_page_links_its_topics(client, three_groups):
    topics_compute()
    paper = Paper.objects.get(pk=three_groups[1][0].pk)
    PaperAnalysis.objects.create(paper=paper, analysed=paper.created_at)
    page = tree(client.get(paper.get_absolute_url()))
    links = page.xpath(
        "//section[@aria-labelledby='analysis-heading']//dt[.='Topics']/following-sibling::dd[1]//a"
    )
    topic = Topic.objects.of_paper(paper)[0]
    assert links[0].get("href") == topic.get_absolute_url() and text_of(links[0]) == topic.label


def test_search_finds_a_topics_papers_with_topic_colon(client, three_groups):
    topics_compute()
    topic = Topic.objects.current().first()
    query = parse(f"topic:{topic.pk}-{topic.slug}")
    assert query.filters.topics == (str(topic.pk),)
    assert query.describe() == f"papers in topic #{topic.pk}"
    page = tree(client.get("/search", {"q": f"topic:{topic.pk}", "mode": "keyword"}))
    assert len(page.xpath("//li[contains(@class, 'search-hit')]")) == topic.size
    assert parse("topic:graphs").notes == (
        "topic:graphs is not a topic number (such as topic:12); searched as words",
    )


def test_the_topics_are_found_again_once_the_corpus_has_grown_enough(three_groups, settings):
    settings.TOPICS_RECOMPUTE_GROWTH_PERCENT = 10
    assert topics_need_recomputing()  # never found
    topics_compute()
    assert not topics_need_recomputing()
    make_group(2, 2, start=30)  # 32 papers: under a tenth more
    assert not topics_need_recomputing()
    make_group(2, 1, start=40)  # 33
    assert topics_need_recomputing()
    assert (
        settings.CELERY_BEAT_SCHEDULE["recompute-topics"]["task"]
        == "analysis.tasks.recompute_topics_if_grown"
    )
