"""/institutions: every institution by name, with a name filter."""

import pytest

from tests.factories import make_affiliation, make_institution, make_paper, make_researcher
from tests.html import texts

pytestmark = pytest.mark.django_db


def test_it_filters_by_part_of_the_name_and_counts_researchers(client):
    loom = make_institution("Weftloom Institute of Technology", country_code="GB")
    make_institution("Royal Weftloom College")
    make_institution("Unrelated University")
    make_affiliation(make_researcher("Ada Warpley"), loom)
    response = client.get("/institutions", {"q": "weftloom"})
    assert texts(response, "//section[@id='results']/ul/li") == [
        "Royal Weftloom College 0 researchers · no papers here yet",
        "Weftloom Institute of Technology GB · 1 researcher · no papers here yet",
    ]


def test_an_htmx_request_gets_only_the_results(client):
    make_institution("Weftloom Institute of Technology")
    html = client.get("/institutions", {"q": "weftloom"}, headers={"HX-Request": "true"}).content.decode()
    assert html.lstrip().startswith('<section id="results"') and "<html" not in html


def test_it_runs_the_same_few_queries_however_many_institutions(client, django_assert_max_num_queries):
    for number in range(60):
        make_institution(f"Counted Loom {number}")
    # 1 count of the matching institutions, 2 the page of them with their researcher counts
    with django_assert_max_num_queries(2):
        assert client.get("/institutions", {"q": "counted loom"}).status_code == 200


def test_unasked_it_lists_only_institutions_whose_members_have_papers(client):
    busy = make_institution("Weftloom Institute of Technology")
    make_institution("Weftloom Empty College")
    researcher = make_researcher("Ada Warpley")
    make_affiliation(researcher, busy)
    make_paper(authors=[researcher])
    listed = texts(client.get("/institutions"), "//section[@id='results']/ul/li/a")
    assert "Weftloom Institute of Technology" in listed and "Weftloom Empty College" not in listed
    summary = texts(client.get("/institutions"), "//p[@class='list-summary']")[0]
    assert "with papers here, by name; filter by name to find those without" in summary


def test_filtered_by_name_it_shows_the_empty_ones_after_those_with_papers(client):
    busy = make_institution("Weftloom Institute of Technology")
    make_institution("Weftloom Academy")
    researcher = make_researcher("Ada Warpley")
    make_affiliation(researcher, busy)
    make_paper(authors=[researcher])
    assert texts(client.get("/institutions", {"q": "weftloom"}), "//section[@id='results']/ul/li") == [
        "Weftloom Institute of Technology 1 researcher",
        "Weftloom Academy 0 researchers · no papers here yet",
    ]
