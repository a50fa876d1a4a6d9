"""A reader signs up in Chromium, follows a researcher from the demo corpus, and finds their paper on
/following."""

import time
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from accounts.tokens import confirmation_path
from papers.models import Paper
from researchers.models import Researcher

PASSWORD = "selvedge-twill-4417"  # noqa: S105 (a test account's)


@pytest.fixture
def demo_researcher(demo_corpus, committed) -> Iterator[tuple[Researcher, Paper]]:
    """A researcher of the demo corpus and their newest paper."""
    with committed():
        paper = Paper.objects.filter(authorships__researcher__isnull=False).newest_first().first()
        researcher = Researcher.objects.filter(authorships__paper=paper).order_by("id").first()
        newest = Paper.objects.by_researcher(researcher).newest_first().first()
    yield researcher, newest


@pytest.fixture
def email(committed) -> Iterator[str]:
    """A fresh address; the account the test makes with it is deleted afterwards."""
    address = f"browser-{time.time_ns()}@example.org"
    yield address
    with committed():
        User.objects.filter(username=address).delete()


@pytest.mark.browser
def test_a_reader_signs_up_follows_a_researcher_and_sees_their_paper(
    live_site, page, demo_researcher, email, committed
):
    researcher, paper = demo_researcher
    page.goto(f"{live_site}/accounts/sign-in")
    page.locator("#main").get_by_role("link", name="Create an account").click()  # the footer has one too
    page.get_by_label("E-mail address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("h1")).to_have_text("Check your e-mail")

    # The e-mail went to the live site's console; its link is the one confirmation_path makes (the e-mail's
    # contents are tested in test_sign_up.py against Django's outbox).
    with committed():
        link = confirmation_path(User.objects.get(username=email))
    page.goto(f"{live_site}{link}")
    page.get_by_role("button", name="Confirm and continue").click()
    page.wait_for_url("**/account/onboarding")
    expect(page.locator("nav[aria-label='Main']")).to_contain_text(email)
    page.get_by_role("link", name="Skip", exact=True).click()
    page.wait_for_url("**/following")

    page.goto(f"{live_site}{researcher.get_absolute_url()}")
    page.evaluate("window.stillTheSamePage = true")  # a full page load would forget this
    control = page.locator(f"#follow-{researcher.pk}")
    control.get_by_role("button", name=f"Follow {researcher.display_name}").click()
    expect(control.get_by_role("button")).to_have_text(f"Unfollow {researcher.display_name}")
    expect(control.locator(".follow-state")).to_contain_text("You follow them")
    assert page.evaluate("window.stillTheSamePage") is True  # swapped in place by htmx
    assert page.evaluate("document.activeElement.id") == f"follow-button-{researcher.pk}"

    page.locator("nav[aria-label='Main']").get_by_role("link", name="Following").click()
    page.wait_for_url("**/following")
    expect(page.locator(".followed-list")).to_contain_text(researcher.display_name)
    expect(page.locator("#paper-list .paper-item h3").first).to_have_text(paper.title)
