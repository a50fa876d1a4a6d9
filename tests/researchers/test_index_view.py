"""/researchers: everyone by name, with a name filter that works in place."""

import pytest

from tests.factories import make_paper, make_researcher
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db


def test_it_filters_by_part_of_a_name_in_any_spelling(client):
    zoe = make_researcher("Zoë Weftmaker", h_index=7)
    make_paper(authors=[zoe])
    make_paper(authors=[zoe])
    make_researcher("Ada Weftmakerson")
    make_researcher("Grace Hopper-Weft")
    response = client.get("/researchers", {"q": "  WEFTMAKER "})
    assert response.status_code == 200
    assert texts(response, "//section[@id='results']//li") == [
        "Ada Weftmakerson 0 papers",
        "Zoë Weftmaker 2 papers · h-index 7",
    ]
    assert tree(response).xpath("//input[@id='researcher-name']/@value") == ["WEFTMAKER"]
    assert "2 researchers named like “WEFTMAKER”, by name" in texts(response, "//p[@class='list-summary']")


def test_a_filter_that_matches_nobody_says_so(client):
    response = client.get("/researchers", {"q": "zzqxj-nobody"})
    assert "No researcher here has a name like that." in response.content.decode()
    assert client.get("/researchers", {"q": "!!!"}).status_code == 200  # nothing left after normalising


def test_it_pages_keeping_the_filter(client):
    for number in range(55):
        make_researcher(f"Warp Pager {number:02d}")
    first = client.get("/researchers", {"q": "warp pager"})
    assert len(texts(first, "//section[@id='results']/ul/li")) == 50
    assert tree(first).xpath("//a[@rel='next']/@href") == ["?q=warp+pager&page=2"]
    second = client.get("/researchers", {"q": "warp pager", "page": "2"})
    assert texts(second, "//section[@id='results']/ul/li/a") == [f"Warp Pager {n}" for n in range(50, 55)]


def test_an_htmx_request_gets_only_the_results(client):
    make_researcher("Zoë Weftmaker")
    fragment = client.get("/researchers", {"q": "weftmaker"}, headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert html.lstrip().startswith('<section id="results"') and "<html" not in html
    assert "Zoë Weftmaker" in html
    page = tree(client.get("/researchers"))
    form = page.xpath("//form[@class='filter-form']")[0]
    assert (form.get("action"), form.get("hx-target"), form.get("hx-push-url")) == (
        "/researchers",
        "#results",
        "true",
    )
    assert text_of(page.xpath("//h1")[0]) == "Researchers"


def test_it_runs_the_same_few_queries_however_many_researchers(client, django_assert_max_num_queries):
    for number in range(60):
        make_paper(authors=[make_researcher(f"Counted Weaver {number}")])
    # 1 count of the matching researchers, 2 the page of them with their paper counts
    with django_assert_max_num_queries(2):
        assert client.get("/researchers", {"q": "counted weaver"}).status_code == 200
