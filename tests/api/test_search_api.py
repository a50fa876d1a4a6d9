"""/api/search: the site's search as JSON, with the same query language, modes and filters. Every answer
is checked against /openapi.json."""

import datetime
from urllib.parse import quote

import pytest

from papers.models import Paper
from papers.services import papers_embed
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db

SEARCH = "/api/search"
WORD = "quorvendish"  # a made-up word no real paper contains, so each test sees only its own papers


def search(get_valid, **params: object) -> dict:
    response = get_valid(SEARCH + "?" + "&".join(f"{name}={value}" for name, value in params.items()), SEARCH)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_keyword_search_answers_papers_with_authors_snippets_and_why(get_valid):
    grace = make_researcher("Grace Quorvendale")
    paper = make_paper(
        title=f"Compilers for {WORD} machines",
        abstract=f"We compile {WORD} programs <b>quickly</b>.",
        authors=[grace, "Ada Lovelace"],
        categories=["cs.PL", "cs.SE"],
        primary_category="cs.PL",
        cited_by_count=7,
        published=datetime.date(2024, 3, 9),
    )
    body = search(get_valid, q=WORD, mode="keyword")
    assert (body["strategy"], body["count"], body["pages"], body["page"]) == ("keyword", 1, 1, 1)
    assert body["understood"] == f"papers matching '{WORD}'"
    [hit] = body["results"]
    assert hit["paper"]["arxiv_id"] == paper.arxiv_id
    assert hit["paper"]["title"] == f"Compilers for {WORD} machines"
    assert hit["paper"]["url"] == f"http://127.0.0.1:8000{paper.get_absolute_url()}"
    assert hit["paper"]["api_url"] == f"http://127.0.0.1:8000/api/papers/{paper.arxiv_id}"
    assert (hit["paper"]["published"], hit["paper"]["cited_by_count"]) == ("2024-03-09", 7)
    assert hit["paper"]["categories"] == ["cs.PL", "cs.SE"] and hit["paper"]["author_count"] == 2
    assert hit["authors"] == [
        {
            "name": "Grace Quorvendale",
            "researcher_id": grace.pk,
            "researcher_url": f"http://127.0.0.1:8000{grace.get_absolute_url()}",
            "collaboration": False,
            "affiliations": [],
        },
        {
            "name": "Ada Lovelace",
            "researcher_id": None,
            "researcher_url": None,
            "collaboration": False,
            "affiliations": [],
        },
    ]
    # Plain text: the abstract's own characters, none of our markup (the matched words are in highlights).
    assert hit["snippet"] == f"We compile {WORD} programs <b>quickly</b>."
    assert hit["highlights"] == [WORD]
    assert (hit["matched"], hit["similarity"]) == (["words"], None)


def test_filters_sorts_and_pages_narrow_and_order_the_results(get_valid):
    old = make_paper(title=f"Old {WORD}", categories=["cs.DL"], published=datetime.date(2019, 5, 1))
    cited = make_paper(
        title=f"Cited {WORD}", categories=["cs.DL"], published=datetime.date(2021, 5, 1), cited_by_count=40
    )
    new = make_paper(
        title=f"New {WORD}", categories=["cs.DL"], published=datetime.date(2024, 5, 1), cited_by_count=2
    )
    make_paper(title=f"Elsewhere {WORD}", categories=["math.CO"], primary_category="math.CO")

    def ids(**params: object) -> list[str]:
        return [hit["paper"]["arxiv_id"] for hit in search(get_valid, q=WORD, **params)["results"]]

    assert ids(mode="keyword", cat="cs.DL", sort="newest") == [
        new.arxiv_id,
        cited.arxiv_id,
        old.arxiv_id,
    ]
    assert ids(mode="keyword", cat="cs.DL", sort="cited") == [cited.arxiv_id, new.arxiv_id, old.arxiv_id]
    assert ids(mode="keyword", cat="cs.DL", **{"from": 2020, "to": 2023}) == [cited.arxiv_id]
    assert ids(mode="keyword", cited="true", sort="newest") == [new.arxiv_id, cited.arxiv_id]
    first = search(get_valid, q=f"{WORD} cat:cs.DL", mode="keyword", sort="newest", per_page=2)
    assert first["count"] is None and first["pages"] is None  # a list in date order is not counted
    assert first["next"] == (
        f"http://127.0.0.1:8000/api/search?q={WORD}+cat%3Acs.DL&mode=keyword&sort=newest&per_page=2&page=2"
    )
    second = get_valid(first["next"].removeprefix("http://127.0.0.1:8000"), SEARCH).json()
    assert [hit["paper"]["arxiv_id"] for hit in second["results"]] == [old.arxiv_id]
    assert second["next"] is None and second["previous"].endswith("page=1")


def test_an_empty_query_lists_the_latest_papers(get_valid):
    latest = make_paper(title="The very latest weave", published=datetime.date(2099, 1, 1))
    body = search(get_valid, q="", per_page=1)
    assert body["strategy"] == "browse"
    assert [hit["paper"]["arxiv_id"] for hit in body["results"]] == [latest.arxiv_id]
    assert body["results"][0]["matched"] == []


def test_an_arxiv_id_names_its_paper_and_a_name_brings_researchers(get_valid):
    paper = make_paper(title=f"The {WORD} paper")
    make_paper(authors=[make_researcher("Quorvenda Lindqvist")])
    named = search(get_valid, q=paper.arxiv_id)
    assert named["paper"] == f"http://127.0.0.1:8000/api/papers/{paper.arxiv_id}"
    people = search(get_valid, q="Quorvenda Lindqvist", mode="keyword")
    assert [person["display_name"] for person in people["researchers"]] == ["Quorvenda Lindqvist"]
    assert people["researchers"][0]["paper_count"] == 1 and people["paper"] is None


def test_a_semantic_search_finds_a_paper_by_meaning_with_its_similarity(get_valid):
    paper = make_paper(
        title="Teaching loom robots to weave tapestries",
        abstract="A robot arm learns to work a weaving loom from human demonstrations of tapestry making.",
    )
    make_paper(title="Prime gaps", abstract="We bound the gaps between consecutive prime numbers.")
    papers_embed(paper_ids=list(Paper.objects.filter(embedding=None).values_list("pk", flat=True)))
    body = search(get_valid, q=quote("machines that learn textile crafts from people"), mode="semantic")
    assert body["strategy"] == "semantic" and body["count"] is None
    top = {hit["paper"]["arxiv_id"]: hit for hit in body["results"][:5]}
    assert top[paper.arxiv_id]["matched"] == ["meaning"]
    assert 0.3 < top[paper.arxiv_id]["similarity"] <= 1


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("mode=fuzzy", "query.mode"),
        ("cat=not%20a%20category", "query.filters.cat.0"),
        ("from=1200", "query.from"),
        ("per_page=500", "query.per_page"),
    ],
)
def test_invalid_parameters_answer_400_naming_the_parameter(get_valid, query, message):
    response = get_valid(f"{SEARCH}?{query}", SEARCH)
    body = response.json()
    assert (response.status_code, body["error"]) == (400, "bad_request")
    assert message in [detail["location"] for detail in body["details"]]


def test_years_that_do_not_overlap_find_nothing_and_say_why(get_valid):
    make_paper(title=f"Any {WORD}", published=datetime.date(2021, 5, 1))
    body = search(get_valid, q=WORD, **{"from": 2023, "to": 2020})
    assert body["results"] == []
    assert "The years asked for do not overlap (2023 is after 2020)." in body["notes"]


@pytest.mark.parametrize("text", ['"unbalanced', "((( OR -", "'; DROP TABLE papers_paper; --", "🧶 編み物"])
def test_odd_query_text_is_searched_never_refused(get_valid, text):
    body = search(get_valid, q=quote(text))
    assert body["query"] == " ".join(text.split()) and body["understood"]


def test_searches_have_their_own_limit_per_client_address(client, settings):
    settings.SEARCH_RATE_LIMIT = "2/m"
    address = {"REMOTE_ADDR": "192.0.2.44"}
    assert [client.get(SEARCH, {"q": WORD}, **address).status_code for _ in range(2)] == [200, 200]
    limited = client.get(SEARCH, {"q": WORD}, **address)
    assert limited.status_code == 429 and 1 <= int(limited["Retry-After"]) <= 60
    assert limited.json()["error"] == "rate_limited"
    assert "at most 2 searches a minute" in limited.json()["message"]
    assert client.get("/api/papers", **address).status_code == 200  # the other endpoints are not searches
