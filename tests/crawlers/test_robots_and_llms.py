"""robots.txt tells crawlers where to go and where not to; llms.txt sums the site up for language
models in the llmstxt.org shape."""

import re

import pytest

from tests.factories import make_paper

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"


def test_robots_allows_pages_points_to_the_sitemap_and_keeps_out_of_accounts_and_search(client):
    response = client.get("/robots.txt")
    lines = response.content.decode().splitlines()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "User-agent: *" in lines and "Allow: /" in lines
    for rule in ("Disallow: /search?", "Disallow: /account", "Disallow: /admin/", "Disallow: /harvest/"):
        assert rule in lines
    assert f"Sitemap: {SITE}/sitemap.xml" in lines
    assert not any(line == "Disallow: /" or line.startswith("Disallow: /papers") for line in lines)


def test_llms_txt_has_the_llmstxt_shape_and_says_what_matters(client):
    response = client.get("/llms.txt")
    text = response.content.decode()
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "Accept" in response["Vary"]
    lines = text.splitlines()
    assert lines[0] == "# wovepaper" and lines[2].startswith("> wovepaper is an open scholarly search site")
    sections = [line.removeprefix("## ") for line in lines if line.startswith("## ")]
    assert sections == [
        "Pages and their addresses",
        "Markdown",
        "JSON API",
        "Feeds",
        "Sources and licences",
        "Optional",
    ]
    for fact in (
        "answer 301 to it",  # how ids redirect
        "`Accept: text/markdown`",
        f"[OpenAPI 3 document]({SITE}/openapi.json)",
        f"[Latest papers]({SITE}/rss/latest.xml)",
        "`/rss/category/<category>.xml`",
        "CC0",
        "ODC-BY (attribution to Semantic Scholar / AI2)",
        "not affiliated with arXiv",
    ):
        assert fact in text, fact
    for line in lines:  # every entry of a section is a link, as llmstxt.org lists them
        if line.startswith("- "):
            assert re.match(r"- \[[^\]]+\]\(https?://[^)]+\)(: .+)?$", line), line


def test_every_link_of_ours_in_llms_txt_resolves(client):
    make_paper(categories=["cs.LG"])  # the category its feed example names
    text = client.get("/llms.txt").content.decode()
    ours = re.findall(rf"\]\({re.escape(SITE)}(/[^)#]*)", text)
    assert len(ours) >= 10
    for path in ours:
        assert client.get(path).status_code == 200, path


def test_llms_txt_answers_markdown_when_asked(client):
    response = client.get("/llms.txt", headers={"Accept": "text/markdown"})
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.content == client.get("/llms.txt").content
