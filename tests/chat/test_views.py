"""Chat's pages through the test client: asking with and without JavaScript, the answer's stream, the
conversation pages, and who may see what (signed out: sign in; another reader: 404; every POST: CSRF;
too many questions: 429 with Retry-After)."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from chat.models import Conversation, Message
from tests.factories import make_account
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db

QUESTION = "How much stronger are twill weaves than plain ones?"


def ask(client: Client, scope: str, question: str = QUESTION, htmx: bool = False, **fields: str):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post("/chat/ask", {"scope": scope, "question": question, **fields}, **headers)


def events(response) -> list[tuple[str, dict]]:
    """A Server-Sent Events response read whole: (event, data) pairs."""
    body = b"".join(response.streaming_content).decode()
    found = []
    for block in body.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


@pytest.fixture
def reader(client) -> User:
    user = make_account()
    client.force_login(user)
    return user


def test_without_javascript_the_form_posts_and_the_page_shows_the_whole_answer(client, reader, weaving):
    response = ask(client, f"paper:{weaving.twill.arxiv_id}")
    conversation = Conversation.objects.get(owner=reader)
    answer = conversation.messages.get(role="answer")
    assert response.status_code == 302
    assert response["Location"] == f"/chat/{conversation.pk}#message-{answer.pk}"
    page = client.get(response["Location"])
    assert texts(page, "//h1") == [QUESTION]
    assert "Asking about: Strength of twill weaves (and the papers around it)" in texts(
        page, "//p[@class='chat-scope']"
    )
    [answer_text] = texts(page, f"//li[@id='message-{answer.pk}']//div[@class='answer-text']")
    assert answer_text.startswith(
        "Twill weaves were fourteen percent stronger than plain weaves of the same yarn"
    )
    cites = tree(page).xpath(f"//li[@id='message-{answer.pk}']//a[@class='cite']")
    assert cites[0].text == "[1]"
    assert cites[0].get("href") == f"{weaving.twill.get_absolute_url()}#abstract-heading"
    [source] = tree(page).xpath(f"//li[@id='message-{answer.pk}']//ol[@class='answer-sources']/li[1]")
    assert source.xpath("a")[0].get("href") == weaving.twill.get_absolute_url()
    assert "Ada Lovelace · 2025" in text_of(source)
    assert "Quoted from the abstracts" in text_of(tree(page).xpath(f"//li[@id='message-{answer.pk}']")[0])


def test_with_htmx_the_answer_streams_in_then_arrives_whole(client, reader, weaving):
    response = ask(client, f"paper:{weaving.twill.arxiv_id}", htmx=True)
    assert response.status_code == 200
    [pending] = tree(response).xpath("//li[@data-chat-stream]")
    answer = Message.objects.get(conversation__owner=reader, role="answer")
    assert answer.state == "pending"
    assert pending.get("data-chat-stream") == f"/chat/answers/{answer.pk}/stream"

    stream = client.get(pending.get("data-chat-stream"))
    assert stream["Content-Type"] == "text/event-stream; charset=utf-8"
    assert {"no-cache", "no-store"} <= {part.strip() for part in stream["Cache-Control"].split(",")}
    received = events(stream)
    deltas = [data["text"] for name, data in received if name == "delta"]
    assert deltas and "".join(deltas).startswith("Twill weaves were fourteen percent stronger")
    name, done = received[-1]
    assert name == "done"
    assert f'href="{weaving.twill.get_absolute_url()}#abstract-heading"' in done["html"]
    answer.refresh_from_db()
    assert answer.state == "done" and answer.sources[0]["arxiv_id"] == weaving.twill.arxiv_id
    again = events(client.get(pending.get("data-chat-stream")))  # a reconnecting browser gets it whole
    assert [name for name, _ in again] == ["done"]


def test_a_stream_closed_half_way_leaves_the_answer_to_the_next_one(client, reader, weaving):
    response = ask(client, f"paper:{weaving.twill.arxiv_id}", htmx=True)
    url = tree(response).xpath("//li[@data-chat-stream]/@data-chat-stream")[0]
    stream = client.get(url)
    chunks = iter(stream.streaming_content)
    assert next(chunks) == b"retry: 2000\n\n"
    assert next(chunks).startswith(b"event: delta")
    # The reader closed the tab. Closing a response ends its request, which would close the test's own
    # database connection (open in the test's transaction): it stays open.
    with mock.patch.object(connection, "close_if_unusable_or_obsolete"):
        stream.close()
    answer = Message.objects.get(conversation__owner=reader, role="answer")
    assert answer.state == "pending"
    assert events(client.get(url))[-1][0] == "done"
    answer.refresh_from_db()
    assert answer.state == "done" and answer.content.startswith("Twill weaves")


def test_a_follow_up_keeps_the_conversation(client, reader, weaving):
    ask(client, f"paper:{weaving.twill.arxiv_id}")
    conversation = Conversation.objects.get(owner=reader)
    response = client.post(f"/chat/{conversation.pk}/ask", {"question": "What machine did they use?"})
    assert response.status_code == 302
    page = client.get(f"/chat/{conversation.pk}")
    answers = tree(page).xpath("//li[contains(@class, 'chat-answer')]//div[@class='answer-text']")
    assert len(answers) == 2
    assert "universal testing machine" in text_of(answers[1])
    assert texts(page, "//p[@class='chat-question-text']") == [QUESTION, "What machine did they use?"]


def test_asking_the_whole_corpus_instead(client, reader, weaving):
    ask(client, f"paper:{weaving.looms.arxiv_id}", widen="1")
    conversation = Conversation.objects.get(owner=reader)
    assert conversation.scope_kind == "corpus"


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ("   ", "Type a question first."),
        ("x" * 1001, "A question can be at most 1,000 characters long; this one has 1,001."),
    ],
)
def test_an_empty_or_too_long_question_is_refused_with_a_message(client, reader, settings, question, message):
    settings.CHAT_MAX_QUESTION_CHARS = 1000
    for htmx in (False, True):
        response = ask(client, "corpus", question, htmx=htmx)
        assert response.status_code == 400
        [error] = texts(response, "//p[@class='form-errors']")
        assert error.startswith(message)
    assert not Conversation.objects.exists()


def test_an_unknown_scope_is_a_400_not_a_guess(client, reader):
    for token in ("paper:not-an-id", "researcher:abc", "planet:mars", "paper:9912.99999"):
        assert ask(client, token).status_code == 400
        assert client.get("/chat/ask", {"scope": token}).status_code == 400
    assert not Conversation.objects.exists()


def test_questions_are_limited_per_account_with_retry_after(client, reader, weaving, settings):
    settings.CHAT_RATE_LIMIT = "2/h"
    for _ in range(2):
        assert ask(client, "corpus").status_code == 302
    limited = ask(client, "corpus", REMOTE_ADDR="203.0.113.9")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= 3600
    assert texts(limited, "//h1") == ["Too many questions"]
    conversation = Conversation.objects.filter(owner=reader).first()
    follow_up = client.post(f"/chat/{conversation.pk}/ask", {"question": "And?"}, HTTP_HX_REQUEST="true")
    assert follow_up.status_code == 429 and follow_up["Retry-After"]
    assert "Ask again in" in texts(follow_up, "//p[@class='form-errors']")[0]

    other = Client()
    other.force_login(make_account())
    assert ask(other, "corpus").status_code == 302  # the account is limited, not the address


def test_questions_have_a_daily_budget(client, reader, weaving, settings):
    settings.CHAT_RATE_LIMIT = "100/h"
    settings.CHAT_DAILY_QUESTIONS = 1
    assert ask(client, "corpus").status_code == 302
    limited = ask(client, "corpus")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= 86400
    assert "Ask again in" in limited.content.decode()


def test_signed_out_readers_are_sent_to_sign_in(client, weaving):
    for path in ("/chat", "/chat/ask", "/chat/1", "/chat/1.md", "/chat/answers/1/stream"):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"] == f"/accounts/sign-in?next={path}"
    assert ask(client, "corpus").status_code == 302
    assert not Conversation.objects.exists()


def test_another_readers_conversation_is_not_found(client, reader, weaving):
    ask(client, f"paper:{weaving.twill.arxiv_id}")
    conversation = Conversation.objects.get(owner=reader)
    answer = conversation.messages.get(role="answer")
    stranger = Client()
    stranger.force_login(make_account())
    for path in (
        f"/chat/{conversation.pk}",
        f"/chat/{conversation.pk}.md",
        f"/chat/answers/{answer.pk}/stream",
    ):
        assert stranger.get(path).status_code == 404
    for action in ("ask", "rename", "delete"):
        response = stranger.post(f"/chat/{conversation.pk}/{action}", {"question": "Mine?", "title": "Mine"})
        assert response.status_code == 404
    assert stranger.post("/chat/delete-all", {"confirm": "yes"}).status_code == 302
    conversation.refresh_from_db()
    assert conversation.title == QUESTION and conversation.messages.count() == 2
    assert b"Strength of twill weaves" not in stranger.get("/chat").content


def test_every_post_needs_the_csrf_token(reader, weaving):
    client = Client(enforce_csrf_checks=True)
    client.force_login(reader)
    conversation = Conversation.objects.create(owner=reader, title="Mine")
    for path, data in (
        ("/chat/ask", {"scope": "corpus", "question": QUESTION}),
        (f"/chat/{conversation.pk}/ask", {"question": QUESTION}),
        (f"/chat/{conversation.pk}/rename", {"title": "Theirs"}),
        (f"/chat/{conversation.pk}/delete", {}),
        ("/chat/delete-all", {"confirm": "yes"}),
    ):
        assert client.post(path, data).status_code == 403
    assert Conversation.objects.filter(owner=reader).count() == 1
    form = client.get("/chat/ask", {"scope": "corpus"})
    token = tree(form).xpath("//input[@name='csrfmiddlewaretoken']/@value")[0]
    assert (
        client.post(
            "/chat/ask", {"scope": "corpus", "question": QUESTION, "csrfmiddlewaretoken": token}
        ).status_code
        == 302
    )


def test_rename_export_delete_and_delete_all(client, reader, weaving):
    ask(client, f"paper:{weaving.twill.arxiv_id}")
    ask(client, "corpus", "Which dyes are fast on cotton?")
    first, second = Conversation.objects.filter(owner=reader).order_by("pk")
    client.post(f"/chat/{first.pk}/rename", {"title": "  Twill   strength "})
    first.refresh_from_db()
    assert first.title == "Twill strength"

    export = client.get(f"/chat/{first.pk}.md")
    assert export["Content-Type"] == "text/markdown; charset=utf-8"
    assert export["Content-Disposition"] == f'attachment; filename="wovepaper-conversation-{first.pk}.md"'
    text = export.content.decode()
    assert text.startswith("# Twill strength\n")
    assert f"## Question\n\n{QUESTION}\n" in text
    assert "## Answer (quoted from the abstracts)" in text
    assert "Twill weaves were fourteen percent stronger than plain weaves of the same yarn [1]." in text
    assert f"1. [Strength of twill weaves](http://127.0.0.1:8000{weaving.twill.get_absolute_url()})" in text

    listing = client.get("/chat")
    assert texts(listing, "//a[@class='chat-conversation-title']") == [
        "Which dyes are fast on cotton?",
        "Twill strength",
    ]
    client.post(f"/chat/{first.pk}/delete")
    assert list(Conversation.objects.filter(owner=reader)) == [second]
    refused = client.post("/chat/delete-all", {})
    assert refused.status_code == 302 and Conversation.objects.filter(owner=reader).exists()
    client.post("/chat/delete-all", {"confirm": "yes"})
    assert not Conversation.objects.filter(owner=reader).exists()
    assert not Message.objects.filter(conversation__owner=reader).exists()


def test_conversations_are_deleted_with_the_account(client, reader, weaving):
    ask(client, "corpus")
    client.post("/account/delete", {"password": "loom-shuttle-warp-1843", "confirm": "on"})
    assert not User.objects.filter(pk=reader.pk).exists()
    assert not Conversation.objects.exists() and not Message.objects.exists()


def test_the_conversation_page_runs_a_fixed_few_queries(
    client, reader, weaving, django_assert_max_num_queries
):
    ask(client, f"paper:{weaving.twill.arxiv_id}")
    conversation = Conversation.objects.get(owner=reader)
    for _ in range(3):
        client.post(f"/chat/{conversation.pk}/ask", {"question": "And the plain weaves?"})
    # 1 the user, 2 the conversation, 3 its messages (sources are stored with them)
    with django_assert_max_num_queries(3):
        response = client.get(f"/chat/{conversation.pk}")
    assert len(tree(response).xpath("//li[contains(@class, 'chat-answer')]")) == 4
    # 1 the user, 2 count of conversations, 3 the page of them with their question counts
    with django_assert_max_num_queries(3):
        assert client.get("/chat").status_code == 200


def test_the_admin_shows_counts_not_contents(client, weaving):
    reader = make_account()
    asker = Client()
    asker.force_login(reader)
    ask(asker, "corpus", "A secret question about twill")
    admin = User.objects.create_superuser("staff@example.org", "staff@example.org", "x")
    client.force_login(admin)
    listing = client.get("/admin/chat/conversation/")
    assert listing.status_code == 200
    assert b"A secret question" not in listing.content
    assert reader.email in listing.content.decode()
    conversation = Conversation.objects.get(owner=reader)
    detail = client.get(f"/admin/chat/conversation/{conversation.pk}/change/")
    assert detail.status_code == 200 and b"A secret question" not in detail.content
    assert client.get("/admin/chat/message/").status_code == 404


def test_the_dock_asks_about_the_page_it_is_on(client, weaving):
    signed_out = client.get(weaving.twill.get_absolute_url())
    [link] = tree(signed_out).xpath("//aside[@class='chat-dock']/a")
    assert link.text == "Sign in to chat with the papers"
    assert (
        link.get("href") == f"/accounts/sign-in?next={weaving.twill.get_absolute_url().replace('/', '%2F')}"
    )

    client.force_login(make_account())
    page = client.get(weaving.twill.get_absolute_url())
    [opener] = tree(page).xpath("//a[@data-chat-open]")
    assert opener.get("href") == f"/chat/ask?scope=paper%3A{weaving.twill.arxiv_id}"
    panel = client.get(opener.get("href"), HTTP_HX_REQUEST="true")
    assert "Asking about: Strength of twill weaves (and the papers around it)" in texts(
        panel, "//p[@class='chat-scope']"
    )
    assert b"<html" not in panel.content and b"Chat with the papers</h2>" in panel.content  # the panel
    home = client.get("/")
    assert tree(home).xpath("//a[@data-chat-open]/@href") == ["/chat/ask?scope=corpus"]
    search = client.get("/search", {"q": "twill", "cat": "cs.DL", "page": "2"})
    [href] = tree(search).xpath("//a[@data-chat-open]/@href")
    assert href == "/chat/ask?scope=search%3Aq%3Dtwill%26cat%3Dcs.DL"
    search_scope = client.get(href)
    assert (
        "the results of the search for papers in cs.DL matching 'twill'"
        in texts(search_scope, "//p[@class='chat-scope']")[0]
    )


def test_the_dock_adds_no_query_to_a_page(client, weaving, django_assert_num_queries):
    client.force_login(make_account())
    path = weaving.twill.get_absolute_url()
    client.get(path)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as with_dock:
        client.get(path)
    assert not [query for query in with_dock.captured_queries if "chat_" in query["sql"]]
    assert re.search(r"Chat", texts(client.get(path), "//a[@data-chat-open]")[0])
