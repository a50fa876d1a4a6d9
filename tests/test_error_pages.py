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
