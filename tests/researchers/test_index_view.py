"""/researchers: everyone by name, with a name filter that works in place."""

import datetime

import pytest

from tests.factories import make_paper, make_researcher
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db


def test_it_filters_by_part_of_a_name_in_any_spelling(client):
    zoe = make_researcher("Zoë Weftmaker", h_index=7)
    make_paper(authors=[zoe])
    make_paper(authors=[zoe])
    make_paper(authors=[make_researcher("Ada Weftmakerson")])
    make_paper(authors=[make_researcher("Grace Hopper-Weft")])
    make_researcher("Orphan Weftmaker")  # no paper here: no profile worth listing
    response = client.get("/researchers", {"q": "  WEFTMAKER "})
    assert response.status_code == 200
    assert texts(response, "//section[@id='results']//li") == [
        "Ada Weftmakerson · 1 paper here · 2025 · cs.DL",
        "Zoë Weftmaker · 2 papers here · 2025 · cs.DL · h-index 7",
    ]
    assert tree(response).xpath("//input[@id='researcher-name']/@value") == ["WEFTMAKER"]
    assert "2 researchers named like “WEFTMAKER”, by name" in texts(response, "//p[@class='list-summary']")


def test_a_filter_that_matches_nobody_says_so(client):
    response = client.get("/researchers", {"q": "zzqxj-nobody"})
    assert "No researcher here has a name like that." in response.content.decode()
    assert client.get("/researchers", {"q": "!!!"}).status_code == 200  # nothing left after normalising


def test_it_pages_keeping_the_filter(client):
    for number in range(55):
        make_paper(authors=[make_researcher(f"Warp Pager {number:02d}")])
    first = client.get("/researchers", {"q": "warp pager"})
    assert len(texts(first, "//section[@id='results']/ul/li")) == 50
    assert tree(first).xpath("//a[@rel='next']/@href") == ["?q=warp+pager&page=2"]
    second = client.get("/researchers", {"q": "warp pager", "page": "2"})
    assert texts(second, "//section[@id='results']/ul/li/a") == [f"Warp Pager {n}" for n in range(50, 55)]


def test_an_htmx_request_gets_only_the_results(client):
    make_paper(authors=[make_researcher("Zoë Weftmaker")])
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
    # 1 whether any name starts so (else names alike are looked for), 2 count of the matching researchers,
    # 3 the page of them with their paper counts
    with django_assert_max_num_queries(3):
        assert client.get("/researchers", {"q": "counted weaver"}).status_code == 200


def test_it_sorts_by_papers_here_keeping_the_filter(client):
    few, many = make_researcher("Loom Sorter Few"), make_researcher("Loom Sorter Many")
    make_paper(authors=[few])
    for _ in range(3):
        make_paper(authors=[many])
    by_papers = client.get("/researchers", {"q": "loom sorter", "sort": "papers"})
    assert texts(by_papers, "//section[@id='results']/ul/li/a") == ["Loom Sorter Many", "Loom Sorter Few"]
    assert "2 researchers named like “loom sorter”, most papers here first" in texts(
        by_papers, "//p[@class='list-summary']"
    )
    assert tree(by_papers).xpath("//nav[@class='sort-links']/a/@href") == [
        "?q=loom+sorter&sort=name",
        "?q=loom+sorter&sort=papers",
    ]
    by_name = client.get("/researchers", {"q": "loom sorter", "sort": "anything else"})
    assert texts(by_name, "//section[@id='results']/ul/li/a") == ["Loom Sorter Few", "Loom Sorter Many"]


def test_the_name_filter_finds_the_same_researchers_as_the_api(client):
    for name in ("Yang Liu", "Liu Yang", "Yang Liuhan", "Xiaoyang Liu", "Yang Zhang", "Ada Liu"):
        make_paper(authors=[make_researcher(name)])
    page = {
        text.split(" ")[0] + " " + text.split(" ")[1]
        for text in texts(client.get("/researchers", {"q": "yang liu"}), "//section[@id='results']/ul/li")
    }
    api = client.get("/api/researchers", {"name": "yang liu"}).json()
    assert page == {"Yang Liu", "Liu Yang", "Yang Liuhan"}
    assert [item["display_name"] for item in api["results"]][0] == "Yang Liu"  # the exact name first
    assert {item["display_name"] for item in api["results"]} == page


def test_a_name_filter_shows_what_tells_people_of_that_name_apart(client, django_assert_max_num_queries):
    partner = make_researcher("Hedy Shuttlecock")
    for number in range(12):
        namesake = make_researcher("Dacheng Weftao", h_index=number)
        make_paper(
            authors=[namesake, partner],
            primary_category="cs.CV",
            published=datetime.date(2020 + number % 5, 1, 1),
        )
    # 1 whether any name starts so, 2 count, 3 the page with each one's summary (correlated subqueries)
    with django_assert_max_num_queries(3):
        response = client.get("/researchers", {"q": "dacheng weftao", "sort": "papers"})
    rows = texts(response, "//section[@id='results']/ul/li")
    assert len(rows) == 12
    assert (
        rows[0] == "Dacheng Weftao · 1 paper here · 2020 · cs.CV · most with Hedy Shuttlecock (1) · h-index 0"
    )
