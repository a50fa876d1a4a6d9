"""HTML by default, Markdown when the Accept header prefers it, and both say they vary on Accept."""

import re

import pytest
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.test import RequestFactory

from core.negotiation import markdown_alternative, markdown_template_name, prefers_markdown

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


@pytest.mark.parametrize(
    ("accept", "markdown"),
    [
        (None, False),
        ("", False),
        ("*/*", False),
        (BROWSER, False),
        ("text/html", False),
        ("text/markdown", True),
        ("TEXT/Markdown", True),
        ("text/markdown; charset=utf-8; variant=GFM", True),
        ("text/markdown, text/html", False),  # a tie goes to HTML
        ("text/markdown, text/html;q=0.9", True),
        ("text/html;q=0.9, text/markdown", True),
        ("text/markdown;q=0.4, */*;q=0.5", False),  # */* names HTML too, and higher
        ("text/*;q=0.8, text/html;q=0.5", True),  # text/* is the most specific range for Markdown
        ("text/markdown;q=0, */*", False),
        ("text/html;q=0, */*", True),
        ("text/markdown;q=nonsense, text/html;q=0.5", True),  # an unreadable q counts as 1
        ("garbage", False),
    ],
)
def test_it_prefers_markdown_only_when_the_client_ranks_it_above_html(accept, markdown):
    headers = {} if accept is None else {"Accept": accept}
    assert prefers_markdown(RequestFactory().get("/", headers=headers)) is markdown


def test_it_names_the_markdown_twin_of_a_template():
    assert markdown_template_name("papers/detail.html") == "papers/detail.md"
    assert markdown_template_name("researchers/detail.html#paper-list") == "researchers/detail.md"
    assert markdown_template_name(["a/x.html", "b/y.html"]) == ["a/x.md", "b/y.md"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/about", "/developers", "/contact", "/privacy"])
def test_a_static_page_answers_html_by_default_and_advertises_its_markdown(client, path):
    response = client.get(path)
    html = response.content.decode()
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "Accept" in response["Vary"].split(", ")
    assert f'<link rel="alternate" type="text/markdown" href="http://127.0.0.1:8000{path}">' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "heading"),
    [("/about", "# About wovepaper"), ("/developers", "# Developers"), ("/contact", "# Contact"),
     ("/privacy", "# Privacy")],
)  # fmt: skip
def test_a_static_page_answers_markdown_when_asked(client, path, heading):
    response = client.get(path, headers={"Accept": "text/markdown, text/html;q=0.5"})
    text = response.content.decode()
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert "Accept" in response["Vary"].split(", ")
    assert text.startswith(heading + "\n")
    assert not re.search(r"</?(html|div|p|h1|ul|li|a)\b", text)  # none of the HTML page


@pytest.mark.django_db
def test_the_developers_markdown_documents_the_api_feeds_and_markdown(client):
    text = client.get("/developers", headers={"Accept": "text/markdown"}).content.decode()
    for line in ("## Markdown", "## JSON API", "## Feeds", "## For crawlers", "<http://127.0.0.1:8000/openapi.json>",
                 "<http://127.0.0.1:8000/api/docs>", "<http://127.0.0.1:8000/rss/latest.xml>"):  # fmt: skip
        assert line in text


def test_the_decorator_passes_redirects_through_and_keeps_fragments_whole():
    request = RequestFactory().get("/papers/2201.12423", headers={"Accept": "text/markdown"})
    moved = markdown_alternative(lambda request: redirect("/about"))(request)
    assert moved.status_code == 302 and "Vary" not in moved

    page = markdown_alternative(
        lambda request: TemplateResponse(request, "pages/about.html#fragment", {"x": 1})
    )
    response = page(request)
    assert response.template_name == "pages/about.md"
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    html = page(RequestFactory().get("/about?page=2"))
    assert html.context_data == {"x": 1, "markdown_alternate_url": "http://127.0.0.1:8000/about?page=2"}
