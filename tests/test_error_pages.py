"""The error pages: in the site's frame, with a clear message, never a traceback."""

import pytest

from tests.factories import make_paper, make_researcher
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db


def test_a_404_has_the_search_box_the_way_home_and_where_to_look_next(client):
    response = client.get("/nowhere/at/all")
    assert response.status_code == 404
    page = tree(response)
    assert text_of(page.xpath("//main//h1")[0]) == "This page isn't here"
    assert (
        "The link may be mistyped, or the paper may not be in the corpus yet. New papers are harvested "
        "continuously, so the newest submissions can take a moment to appear."
        in text_of(page.xpath("//main")[0])
    )
    assert page.xpath("//main//form[@role='search']/@action") == ["/search"]
    assert page.xpath("//main//a[text()='Go home']/@href") == ["/"]
    assert text_of(page.xpath("//main//h2")[0]) == "Where to look next"
    assert page.xpath("//meta[@name='robots']/@content") == ["noindex"]


@pytest.mark.urls("tests.urls_with_a_broken_page")
def test_a_failing_page_gets_the_500_page_in_the_same_frame(client):
    client.raise_request_exception = False
    response = client.get("/broken")
    assert response.status_code == 500
    page = tree(response)
    assert text_of(page.xpath("//main//h1")[0]) == "Something went wrong on our side"
    assert page.xpath("//header[@class='site-header']//a[@class='wordmark']")
    assert page.xpath("//footer[@class='site-footer']//a[@href='/privacy']")
    assert "broken on purpose" not in response.content.decode()


def test_a_bad_parameter_gets_the_400_page_with_its_message(client):
    researcher = make_researcher("Lone Bobbin")
    make_paper(authors=[researcher])
    response = client.get(researcher.get_absolute_url(), {"category": "cs.LG'); drop table"})
    assert response.status_code == 400
    page = tree(response)
    assert text_of(page.xpath("//main//h1")[0]) == "We couldn't read that address"
    assert page.xpath("//main//a[text()='Open the page without the options']/@href") == [
        researcher.get_absolute_url()
    ]
    assert page.xpath("//footer[@class='site-footer']")


GUIDE = [
    "/papers/<arxiv-id>-<title> — the id alone works and redirects, e.g. /papers/2401.01234. "
    "The old /papers/astro-ph/9901001 form too.",
    "/researchers/<id>-<name> — the id alone works and redirects. "
    "Ids come from search results, not from names.",
    "/institutions/<id>-<name> — an id, a ROR id or a name all resolve to the canonical page.",
    "Every indexable URL is listed in the sitemap. Automated readers: see llms.txt — "
    "and this URL returns the same guidance as Markdown if you ask for it with an Accept header.",
]


def test_a_404_teaches_the_url_scheme(client):
    main = text_of(tree(client.get("/nowhere/at/all")).xpath("//main")[0])
    for sentence in GUIDE:
        assert sentence in main, sentence


def test_a_404_answers_markdown_when_asked(client):
    response = client.get("/nowhere/at/all", headers={"Accept": "text/markdown"})
    assert response.status_code == 404
    assert response["Content-Type"] == "text/markdown; charset=utf-8" and "Accept" in response["Vary"]
    text = response.content.decode()
    assert text.startswith("# This page isn't here\n\nThe link may be mistyped")
    flat = " ".join(text.replace("`", "").split())
    for sentence in GUIDE:
        assert sentence in flat, sentence
    assert "<html" not in text and client.get("/nowhere/at/all")["Content-Type"].startswith("text/html")


def test_a_paper_not_here_yet_says_so_in_markdown_too(client):
    response = client.get("/papers/9912.99998", headers={"Accept": "text/markdown"})
    assert response.status_code == 404 and response["Content-Type"].startswith("text/markdown")
    assert "# This page isn't here" in response.content.decode()


@pytest.mark.urls("tests.urls_with_a_broken_page")
def test_a_failing_page_answers_markdown_when_asked(client):
    client.raise_request_exception = False
    response = client.get("/broken", headers={"Accept": "text/markdown"})
    assert response.status_code == 500 and response["Content-Type"] == "text/markdown; charset=utf-8"
    text = response.content.decode()
    assert text.startswith("# Something went wrong on our side\n") and "broken on purpose" not in text
