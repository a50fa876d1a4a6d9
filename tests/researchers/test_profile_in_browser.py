"""A reader filters and pages a demo researcher's profile in Chromium: in place with htmx, and the same
links work with JavaScript off."""

import datetime
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.db.models import CharField, Count, F, Func
from playwright.sync_api import expect

from papers.models import Authorship, Paper
from researchers.models import Researcher
from tests.factories import make_paper

EXTRA_PAPERS = 30  # with the researcher's own, more than one page (24) in their top field


@dataclass(frozen=True)
class Profile:
    url: str
    category: str


@pytest.fixture
def prolific_demo_researcher(demo_corpus, committed) -> Iterator[Profile]:
    """The demo researcher with the most papers in one field, given enough more there to page through.
    Committed for the live site to see, and removed afterwards."""
    with committed():
        busiest = (
            Authorship.objects.filter(researcher__isnull=False)
            .annotate(category=Func(F("paper__categories"), function="unnest", output_field=CharField()))
            .values("researcher_id", "category")
            .annotate(papers=Count("paper", distinct=True))
            .order_by("-papers", "researcher_id", "category")
            .first()
        )
        researcher = Researcher.objects.get(pk=busiest["researcher_id"])
        category = busiest["category"]
        extra = [
            make_paper(
                title=f"Browser test paper {number:02d}", authors=[researcher, "Browser Test Coauthor"],
                categories=[category], primary_category=category, published=datetime.date(2025, 7, 1),
            )
            for number in range(EXTRA_PAPERS)
        ]  # fmt: skip
        profile = Profile(url=researcher.get_absolute_url(), category=category)
    yield profile
    with committed():
        Paper.objects.filter(pk__in=[paper.pk for paper in extra]).delete()


@pytest.mark.browser
def test_a_reader_filters_by_field_and_pages_in_place(live_site, page, prolific_demo_researcher):
    profile = prolific_demo_researcher
    page.goto(f"{live_site}{profile.url}")
    page.evaluate("window.stillTheSamePage = true")  # a full page load would forget this
    expect(page.locator("#paper-list h2")).to_have_text("Papers")

    page.locator("#field-bars a.bar-row", has_text=profile.category).first.click()
    page.wait_for_url(f"**{profile.url}?category={profile.category}")
    expect(page.locator("#paper-list h2")).to_have_text(f"Papers in {profile.category}")
    expect(page.locator("#field-bars a[aria-current='true'] .bar-label")).to_have_text(profile.category)
    expect(page.locator("#paper-list li[aria-current='page']")).to_have_text("Page 1 of 2")
    first_page_titles = page.locator("#paper-list .paper-item h3").all_inner_texts()
    assert len(first_page_titles) == 24

    page.locator("#paper-list a[rel='next']").click()
    page.wait_for_url(f"**{profile.url}?category={profile.category}&page=2")
    expect(page.locator("#paper-list li[aria-current='page']")).to_have_text("Page 2 of 2")
    second_page_titles = page.locator("#paper-list .paper-item h3").all_inner_texts()
    assert second_page_titles and not set(second_page_titles) & set(first_page_titles)
    assert page.evaluate("window.stillTheSamePage") is True
    # the clicked link went with the old list: keyboard focus lands on the new list's heading
    assert page.evaluate("document.activeElement.id") == "papers-heading"

    page.go_back()
    page.wait_for_url(f"**{profile.url}?category={profile.category}")
    expect(page.locator("#paper-list li[aria-current='page']")).to_have_text("Page 1 of 2")


@pytest.mark.browser
def test_the_same_links_work_without_javascript(browser, live_site, prolific_demo_researcher):
    profile = prolific_demo_researcher
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_site}{profile.url}")
        page.locator("#field-bars a.bar-row", has_text=profile.category).first.click()
        page.wait_for_url(f"**{profile.url}?category={profile.category}")
        page.locator("#paper-list a[rel='next']").click()
        page.wait_for_url(f"**{profile.url}?category={profile.category}&page=2")
        expect(page.locator("#paper-list li[aria-current='page']")).to_have_text("Page 2 of 2")
        expect(page.locator("#paper-list h2")).to_have_text(f"Papers in {profile.category}")
    finally:
        context.close()
