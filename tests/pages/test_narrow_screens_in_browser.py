"""The search and researcher pages at 360 px in Chromium: nothing wider than the screen, the filters and the
sidebar's long blocks behind disclosures above the results, co-author labels legible or the list alone."""

from collections.abc import Iterator

import pytest
from django.db.models import Count
from django.utils.http import urlencode
from playwright.sync_api import expect

from researchers.models import Researcher

NARROW = {"width": 360, "height": 740}
WIDE = {"width": 1280, "height": 900}


@pytest.fixture
def narrow(browser) -> Iterator[object]:
    context = browser.new_context(viewport=NARROW)
    tab = context.new_page()
    tab.set_default_timeout(60_000)  # the live site's first search loads the embedding model
    yield tab
    context.close()


@pytest.fixture
def well_connected(demo_corpus, django_db_blocker) -> Researcher:
    """The demo researcher with the most co-authors: a drawn network and a long sidebar."""
    with django_db_blocker.unblock():
        return Researcher.objects.annotate(n=Count("authorships__paper__authorships")).order_by("-n", "id")[0]


def page_width(tab) -> int:
    return tab.evaluate("document.documentElement.scrollWidth")


def below(tab, first: str, second: str) -> bool:
    return tab.locator(first).first.bounding_box()["y"] < tab.locator(second).first.bounding_box()["y"]


@pytest.mark.browser
@pytest.mark.parametrize("query", ["diffusion models", 'author:"Dan Zhao" cat:cs.CV', ""])
def test_search_fits_a_phone_with_its_filters_folded_above_the_results(live_site, narrow, query):
    # By exact words: the same page, without waiting for a cold live site to load the embedding model.
    narrow.goto(f"{live_site}/search?{urlencode({'q': query, 'mode': 'keyword'})}")
    assert page_width(narrow) <= 360
    narrow.locator(".search-tips summary").click()  # "How to search" open: its examples wrap
    assert page_width(narrow) <= 360
    summary = narrow.locator(".filters-disclosure > summary")
    expect(summary).to_be_visible()
    expect(narrow.locator(".search-filters fieldset").first).to_be_hidden()
    assert below(narrow, ".filters-disclosure", ".search-main")
    summary.click()
    expect(narrow.get_by_role("group", name="Categories")).to_be_visible()
    box = narrow.locator(".search-filters input[type=checkbox]").first.bounding_box()
    if box:  # a target of 24 px or more with its label row, the box itself at least 19 px
        row = narrow.locator(".search-filters .check").first.bounding_box()
        assert box["width"] >= 19 and row["height"] >= 24
    assert page_width(narrow) <= 360


@pytest.mark.browser
def test_the_filters_are_a_plain_sidebar_on_a_wide_screen(live_site, page):
    page.set_default_timeout(60_000)
    page.set_viewport_size(WIDE)
    page.goto(f"{live_site}/search?q=graph&mode=keyword")
    expect(page.locator(".filters-disclosure > summary")).to_be_hidden()
    expect(page.get_by_role("group", name="Categories")).to_be_visible()
    left = page.locator(".search-filters").bounding_box()
    assert left["x"] + left["width"] <= page.locator(".search-main").bounding_box()["x"]


@pytest.mark.browser
def test_a_researcher_fits_a_phone_and_the_papers_come_soon(live_site, narrow, well_connected):
    narrow.goto(f"{live_site}{well_connected.get_absolute_url()}")
    assert page_width(narrow) <= 360
    expect(narrow.locator(".profile-more > summary")).to_be_visible()
    expect(narrow.locator("#field-bars")).to_be_hidden()
    papers_top = narrow.locator("#paper-list").bounding_box()["y"]
    assert papers_top < 2000, papers_top
    # The drawing's 12 px labels would be under 11 px this narrow: only the list of co-authors shows.
    expect(narrow.locator(".coauthor-graph")).to_be_hidden()
    expect(narrow.locator(".coauthor-list li").first).to_be_visible()
    narrow.locator(".profile-more > summary").click()
    expect(narrow.locator("#field-bars")).to_be_visible()
    assert page_width(narrow) <= 360


@pytest.mark.browser
def test_the_coauthor_labels_stay_legible_on_a_wide_screen(live_site, page, well_connected):
    page.set_default_timeout(60_000)
    page.set_viewport_size(WIDE)
    page.goto(f"{live_site}{well_connected.get_absolute_url()}")
    expect(page.locator("#field-bars")).to_be_visible()  # the sidebar is open beside the papers
    graph = page.locator(".coauthor-graph svg")
    expect(graph).to_be_visible()
    scale = page.evaluate(
        "() => { const svg = document.querySelector('.coauthor-graph svg');"
        " const box = svg.getBoundingClientRect(); const view = svg.viewBox.baseVal;"
        " return Math.min(box.width / view.width, box.height / view.height); }"
    )
    label = "document.querySelector('.coauthor-graph text')"
    font = page.evaluate(f"parseFloat(getComputedStyle({label}).fontSize)")
    assert font * scale >= 11, (font, scale)


@pytest.mark.browser
def test_a_paper_fits_a_phone_with_its_key_facts_first_and_bibtex_scrolling(live_site, narrow, demo_corpus):
    narrow.goto(f"{live_site}/papers/0704.0011")
    assert page_width(narrow) <= 360
    assert below(narrow, ".paper-header", ".facts") and below(narrow, ".facts", "#abstract-heading")
    bibtex = narrow.locator("pre.bibtex")
    assert bibtex.evaluate("element => element.scrollWidth > element.clientWidth")  # scrolls, not wraps
    assert bibtex.evaluate("element => getComputedStyle(element).whiteSpace") == "pre"
    expect(narrow.get_by_role("button", name="Copy BibTeX")).to_be_visible()
    assert "ℚ(√5)" in narrow.locator("h1").inner_text()  # the author's \Q macro, read
