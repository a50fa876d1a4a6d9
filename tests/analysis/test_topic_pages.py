"""A topic's page: its papers per month drawn as SVG, the people with the most papers in it, its RSS feed
and its place in the sitemap; its Markdown twin says the same."""

import datetime

import feedparser
import numpy as np
import pytest
from django.core.cache import cache
from django.db import connection
from lxml import etree

from analysis.charts import MONTHS_SHOWN, monthly_chart
from analysis.models import Topic
from papers.models import Authorship, Paper
from papers.search.query import Filters
from papers.search.views import TOPIC_CHOICES_KEY
from researchers.models import Researcher
from tests.factories import make_paper, make_researcher
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"
DESCRIPTION = "3 papers from January 2025 to April 2025, most in January 2025 (2)."
HOSTILE = 'Looms <script>alert("x")</script> & weft'


def make_topic(label: str = "looms, weft, warp", **fields: object) -> Topic:
    centroid = np.zeros(384)
    centroid[0] = 1.0
    return Topic.objects.create(
        label=label, keywords=label.split(", "), centroid=centroid, **({"size": 3} | fields)
    )


@pytest.fixture
def topic():
    """Grace has three papers in the topic, Ada two, a collaboration three; one paper is off-topic."""
    topic = make_topic()
    grace, ada = make_researcher("Grace Weftwright"), make_researcher("Ada Warpley")
    other, day = make_topic("cards, punched, holes", size=0), datetime.date  # not current
    make_paper(title="Looms one", authors=[grace, ada], topics=[topic], published=day(2025, 1, 5))
    make_paper(title="Looms two", authors=[grace], topics=[other, topic], published=day(2025, 1, 20))
    make_paper(title="Looms three", authors=[ada, grace], topics=[topic], published=day(2025, 4, 2))
    make_paper(title="Off topic", authors=[grace], topics=[other], published=day(2025, 2, 1))
    for paper in topic_papers(topic):
        Authorship.objects.create(
            paper=paper, position=9, name="The Loom Collaboration", normalised_name="loom collaboration",
            is_collaboration=True,
        )  # fmt: skip
    return topic


def topic_papers(topic):
    return Paper.objects.with_topic(topic.pk)


def test_it_counts_the_papers_of_each_month_in_sql_and_draws_them():
    chart = monthly_chart([(datetime.date(2025, 1, 1), 2), (datetime.date(2025, 4, 1), 1)])
    assert [bar.paper_count for bar in chart.bars] == [2, 0, 0, 1]  # the empty months are drawn too
    assert [bar.height for bar in chart.bars] == [120, 0, 0, 60]
    assert chart.description == "3 papers from January 2025 to April 2025, most in January 2025 (2)."
    assert monthly_chart([]) is None
    long_ago = monthly_chart([(datetime.date(2010, 1, 1), 4), (datetime.date(2025, 4, 1), 1)])
    assert len(long_ago.bars) == MONTHS_SHOWN and long_ago.earlier_papers == 4
    assert long_ago.description.endswith("; 4 earlier.")


def test_the_page_shows_its_months_and_its_researchers(client, topic):
    page = tree(client.get(topic.get_absolute_url()))
    [svg] = page.xpath("//figure[@class='month-chart']/svg")
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "months-chart-title"
    assert svg.get("aria-describedby") == "months-chart-desc"
    assert text_of(svg.xpath("title")[0]) == f"Papers on {topic.label} per month"
    assert text_of(svg.xpath("desc")[0]) == DESCRIPTION
    assert [text_of(title) for title in svg.xpath("rect/title")] == [
        "January 2025: 2", "February 2025: 0", "March 2025: 0", "April 2025: 1",
    ]  # fmt: skip
    assert not page.xpath("//*[@style]")  # the policy refuses inline styles
    people = page.xpath("//section[@aria-labelledby='researchers-heading']//li")
    assert [text_of(person) for person in people] == ["Grace Weftwright 3 papers", "Ada Warpley 2 papers"]
    feed = page.xpath("//link[@type='application/rss+xml'][@title]/@href")
    assert f"/rss/topics/{topic.pk}.xml" in feed


def test_the_markdown_twin_carries_the_same_facts(client, topic):
    markdown = client.get(topic.get_absolute_url(), HTTP_ACCEPT="text/markdown").content.decode()
    assert DESCRIPTION in markdown
    assert "- January 2025: 2\n- April 2025: 1\n" in markdown
    grace = Researcher.objects.get(display_name="Grace Weftwright")
    assert f"- [Grace Weftwright]({SITE}{grace.get_absolute_url()}): 3 papers" in markdown
    assert f"<{SITE}/rss/topics/{topic.pk}.xml>" in markdown
    assert "Collaboration" not in markdown


def test_the_feed_has_the_topics_papers_newest_first_and_a_hostile_label_escaped(client, topic):
    topic.label = HOSTILE
    topic.save()
    response = client.get(f"/rss/topics/{topic.pk}.xml")
    assert response["Content-Type"] == "application/rss+xml; charset=utf-8"
    assert b"<script>" not in response.content
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.bozo_exception
    assert feed.feed.title == f"wovepaper: papers on {HOSTILE}"
    assert [entry.title for entry in feed.entries] == ["Looms three", "Looms two", "Looms one"]
    assert feed.feed.link == f"{SITE}{topic.get_absolute_url()}"
    assert client.get("/rss/topics/999999.xml").status_code == 404


def test_a_merged_topics_feed_moves_to_the_survivors(client, topic):
    merged = make_topic("old looms", merged_into=topic, size=0)
    moved = client.get(f"/rss/topics/{merged.pk}.xml")
    assert (moved.status_code, moved["Location"]) == (301, f"/rss/topics/{topic.pk}.xml")


def test_current_topics_are_in_the_sitemap_and_merged_ones_are_not(client, topic):
    merged = make_topic("old looms", merged_into=topic, size=0)
    index = etree.fromstring(client.get("/sitemap.xml").content)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert f"{SITE}/sitemaps/topics.xml" in index.xpath("s:sitemap/s:loc/text()", namespaces=ns)
    section = etree.fromstring(client.get("/sitemaps/topics.xml").content)
    listed = section.xpath("s:url/s:loc/text()", namespaces=ns)
    assert f"{SITE}{topic.get_absolute_url()}" in listed
    assert not any(f"/topics/{merged.pk}-" in url for url in listed)


def test_the_page_runs_the_same_few_queries_however_many_papers(client, django_assert_max_num_queries):
    for count in (3, 30):
        topic = make_topic(f"topic of {count}")
        people = [make_researcher(f"Person {count} {number}") for number in range(4)]
        for number in range(count):
            make_paper(authors=people[: 1 + number % 4], topics=[topic])
        # 1 the topic, 2 the count of its papers, 3 the page of them, 4 their authorships with researchers,
        # 5 the researchers with the most papers in it, 6 its papers per month
        with django_assert_max_num_queries(6):
            response = client.get(topic.get_absolute_url())
        assert response.status_code == 200


def test_the_topic_filters_are_served_by_the_topic_paper_index():
    topic = make_topic()
    make_paper(topics=[topic])
    searched = Paper.objects.filtered_by(Filters(topics=(str(topic.pk),)))  # topic: in the search
    for queryset in (Paper.objects.with_topic(topic.pk), searched):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")  # a small table would not need the index
            assert "paper_topic_topic_paper" in queryset.explain()


def test_the_search_forms_topic_control_filters_without_typing(client, topic):
    cache.delete(TOPIC_CHOICES_KEY)
    make_topic("old looms", merged_into=topic, size=0)
    page = tree(client.get("/search", {"mode": "keyword"}))
    options = page.xpath("//form//select[@name='topic']/option")
    assert [(option.get("value"), text_of(option)) for option in options] == [
        ("", "Any topic"),
        (str(topic.pk), topic.label),
    ]  # a merged topic is no choice
    chosen = client.get("/search", {"q": "looms", "mode": "keyword", "topic": str(topic.pk)})
    chosen_page = tree(chosen)
    titles = sorted(text_of(a) for a in chosen_page.xpath("//li[contains(@class, 'search-hit')]/h3/a"))
    assert titles == ["Looms one", "Looms three", "Looms two"]
    assert chosen_page.xpath("//select[@name='topic']/option[@selected]/@value") == [str(topic.pk)]
    assert (
        chosen_page.xpath("//ul[@aria-label='Filters in use']//a/text()")[0].strip() == f"topic #{topic.pk}"
    )
    bad = client.get("/search", {"q": "looms", "topic": "<script>"})
    assert bad.status_code == 400
    assert "topic must be a topic number (such as 12); got &#x27;&lt;script&gt;&#x27;" in bad.content.decode()


def test_the_api_search_takes_a_topic(client, topic):
    body = client.get("/api/search", {"q": "looms", "mode": "keyword", "topic": str(topic.pk)}).json()
    assert sorted(hit["paper"]["title"] for hit in body["results"]) == [
        "Looms one",
        "Looms three",
        "Looms two",
    ]
    assert client.get("/api/search", {"q": "looms", "topic": "twelve"}).status_code in (400, 422)
