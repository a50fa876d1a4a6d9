"""The paper page's Analysis box as a reader sees it in Chromium, on a wide screen and on a phone: the
type, field, topics as links, novelty with the closest earlier work, significance (or that it is not
known) and the TL;DR, each visible."""

import datetime
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest
from django.utils import timezone
from playwright.sync_api import expect

from analysis.models import Topic
from papers.models import Paper
from tests.factories import make_paper

TLDR = "Looms learn by weaving many threads into cloth."


@dataclass(frozen=True)
class Analysed:
    url: str
    earlier_title: str
    topic_label: str
    topic_url: str


@pytest.fixture
def analysed_paper(demo_corpus, committed) -> Iterator[Analysed]:
    """A paper with every analysis figure but significance, and the earlier paper and topic it links.
    Committed for the live site to see, and removed afterwards."""
    with committed():
        centroid = np.zeros(384)
        centroid[0] = 1.0
        topic = Topic.objects.create(
            label="browser looms, weft", keywords=["looms"], size=1, centroid=centroid
        )
        earlier = make_paper(
            title="Browser looms of the early modern period", published=datetime.date(2024, 1, 5)
        )
        paper = make_paper(
            title="A survey of browser loom learning", primary_category="cs.LG", categories=["cs.LG"],
            published=datetime.date(2025, 3, 5), abstract=f"We review how looms learn. {TLDR}",
            analysed=timezone.now(), summary=TLDR, paper_type="survey",
            research_field="Machine Learning (cs.LG), Computer Science", topics=[topic],
            novelty=12.5, novelty_distance=0.04, closest_earlier=[earlier.pk],
        )  # fmt: skip
        analysed = Analysed(paper.get_absolute_url(), earlier.title, topic.label, topic.get_absolute_url())
    yield analysed
    with committed():
        Paper.objects.filter(pk__in=[paper.pk, earlier.pk]).delete()
        topic.delete()


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 360])
def test_the_analysis_box_shows_every_figure(live_site, browser, analysed_paper, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    try:
        tab.goto(f"{live_site}{analysed_paper.url}")
        box = tab.locator("section[aria-labelledby='analysis-heading']")
        box.scroll_into_view_if_needed()
        expect(box.get_by_role("heading", name="Analysis")).to_be_visible()

        def figure(term: str):
            return box.locator(f"xpath=.//dt[normalize-space()='{term}']/following-sibling::dd[1]")

        expect(figure("TL;DR").locator(".tldr")).to_have_text(TLDR)
        expect(figure("TL;DR").locator(".how")).to_contain_text("quoted, not written")
        expect(figure("Type")).to_contain_text("survey")
        expect(figure("Field")).to_contain_text("Machine Learning (cs.LG), Computer Science")
        topic_link = figure("Topics").get_by_role("link", name=analysed_paper.topic_label)
        expect(topic_link).to_be_visible()
        expect(topic_link).to_have_attribute("href", analysed_paper.topic_url)
        expect(figure("Novelty")).to_contain_text("in cs.LG, 2025")
        expect(figure("Novelty").get_by_role("link", name=analysed_paper.earlier_title)).to_be_visible()
        expect(figure("Significance")).to_contain_text("No citation count known yet.")
        for term in ("TL;DR", "Type", "Topics", "Field", "Novelty", "Significance"):
            expect(figure(term)).to_be_visible()
        assert tab.evaluate("document.documentElement.scrollWidth") <= width  # nothing overflows
    finally:
        context.close()


@pytest.fixture
def charted_topic(demo_corpus, committed) -> Iterator[str]:
    """A topic with papers over a few months, committed for the live site; its address."""
    with committed():
        centroid = np.zeros(384)
        centroid[1] = 1.0
        topic = Topic.objects.create(
            label="browser charts, bars", keywords=["charts"], size=4, centroid=centroid
        )
        papers = [
            make_paper(
                title=f"Browser chart paper {n}",
                topics=[topic],
                published=datetime.date(2025, 1 + n * 2, 3),
            )
            for n in range(4)
        ]
        url = topic.get_absolute_url()
    yield url
    with committed():
        Paper.objects.filter(pk__in=[paper.pk for paper in papers]).delete()
        topic.delete()


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False])
def test_a_topics_monthly_chart_fits_a_phone_with_or_without_javascript(
    live_site, browser, charted_topic, javascript
):
    context = browser.new_context(viewport={"width": 360, "height": 800}, java_script_enabled=javascript)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    try:
        tab.goto(f"{live_site}{charted_topic}")
        chart = tab.get_by_role("img", name="Papers on browser charts, bars per month", exact=True)
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert 250 <= box["width"] <= 360 and box["height"] >= 80, box
        assert tab.locator(".month-chart rect").count() == 7  # January to July, the empty months too
        expect(tab.locator(".month-chart-axis")).to_contain_text("January 2025")
        expect(tab.locator(".topic-months .note")).to_have_text(
            "4 papers from January 2025 to July 2025, most in July 2025 (1)."
        )
        assert tab.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
