"""A reader signs in in Chromium, opens a paper of the demo corpus, asks the dock about it, watches the
answer stream in with a citation of that paper, and finds the conversation on /chat."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from papers.models import Paper
from tests.factories import make_account

PASSWORD = "heddle-bobbin-2210"  # noqa: S105 (a test account's)
QUESTION = "what does this paper measure?"


@pytest.fixture
def fast_password_hashing() -> None:
    """Not here: the live site checks the password with the project's real hashers."""


@pytest.fixture
def reader_and_paper(demo_corpus, committed) -> Iterator[tuple[str, Paper]]:
    """A committed account (deleted afterwards, its conversations with it) and a demo paper that measures
    something."""
    email = f"chat-browser-{time.time_ns()}@example.org"
    with committed():
        make_account(email, password=PASSWORD)
        paper = (
            Paper.objects.filter(abstract__icontains="we measure", embedding__isnull=False)
            .exclude(title__contains="$")
            .first()
        )
    yield email, paper
    with committed():
        User.objects.filter(username=email).delete()


@pytest.mark.browser
def test_a_reader_asks_about_a_paper_and_the_answer_streams_in_citing_it(live_site, page, reader_and_paper):
    email, paper = reader_and_paper
    paper_path = paper.get_absolute_url()
    page.goto(f"{live_site}{paper_path}")
    dock = page.locator("aside.chat-dock")
    dock.get_by_role("link", name="Sign in to chat with the papers").click()
    page.get_by_label("E-mail address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**{paper_path}")

    page.evaluate("window.stillTheSamePage = true")  # a full page load would forget this
    dock.get_by_role("link", name="Chat with the papers").click()
    panel = page.locator("#chat-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".chat-scope")).to_contain_text(f"Asking about: {paper.title[:40]}")
    panel.get_by_label("Your question").fill(QUESTION)
    with page.expect_response(re.compile(r"/chat/answers/\d+/stream$")) as streamed:
        panel.get_by_role("button", name="Ask").click()
    assert streamed.value.headers["content-type"] == "text/event-stream; charset=utf-8"

    citation = panel.locator(".chat-answer .answer-text a.cite").first
    expect(citation).to_have_text("[1]")
    expect(citation).to_have_attribute("href", f"{paper_path}#abstract-heading")
    expect(panel.locator(".answer-sources li").first.locator("a.source-title")).to_have_attribute(
        "href", paper_path
    )
    expect(panel.locator(".chat-question-text")).to_have_text(QUESTION)
    assert page.evaluate("window.stillTheSamePage") is True  # asked and answered in place

    page.goto(f"{live_site}/chat")
    conversation = page.locator(".chat-conversations a.chat-conversation-title").first
    expect(conversation).to_have_text(QUESTION)
    conversation.click()
    expect(page.locator("h1")).to_have_text(QUESTION)
    expect(page.locator(".chat-answer a.cite").first).to_have_attribute(
        "href", f"{paper_path}#abstract-heading"
    )
