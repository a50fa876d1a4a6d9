"""The papers endpoints: lists with filters and totals, one paper by any form of its id, and its
neighbours in the citation graph and by meaning. Every answer is checked against /openapi.json."""

import datetime

import numpy as np
import pytest
from django.utils import timezone

from analysis.models import Topic
from papers.models import Citation
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db

LIST = "/api/papers"
DETAIL = "/api/papers/{arxiv_id}"


def unit(seed: int) -> list[float]:
    vector = np.random.default_rng(seed).normal(size=384)
    return list(vector / np.linalg.norm(vector))


def test_it_lists_a_category_newest_first_with_totals_and_page_links(get_valid):
    old = make_paper(title="Old weaving", categories=["cs.WV"], published=datetime.date(2019, 3, 1))
    new = make_paper(title="New weaving", categories=["cs.WV", "cs.DL"], published=datetime.date(2025, 3, 1))
    mid = make_paper(title="Mid weaving", categories=["cs.WV"], published=datetime.date(2022, 3, 1))
    make_paper(title="Elsewhere", categories=["cs.DL"])

    body = get_valid(f"{LIST}?category=cs.WV&per_page=2", LIST).json()
    assert (body["count"], body["pages"], body["page"], body["per_page"]) == (3, 2, 1, 2)
    assert [paper["arxiv_id"] for paper in body["results"]] == [new.arxiv_id, mid.arxiv_id]
    assert body["previous"] is None
    assert body["next"] == "http://127.0.0.1:8000/api/papers?category=cs.WV&per_page=2&page=2"

    second = get_valid(f"{LIST}?category=cs.WV&per_page=2&page=2", LIST).json()
    assert [paper["arxiv_id"] for paper in second["results"]] == [old.arxiv_id]
    assert second["next"] is None and second["previous"].endswith("page=1")
    past_the_end = get_valid(f"{LIST}?category=cs.WV&per_page=2&page=9", LIST).json()
    assert past_the_end["results"] == [] and past_the_end["count"] == 3


def test_it_filters_by_years_and_citations_and_sorts_by_citations(get_valid):
    make_paper(categories=["cs.WV"], published=datetime.date(2019, 12, 31), cited_by_count=50)
    cited = make_paper(categories=["cs.WV"], published=datetime.date(2021, 1, 1), cited_by_count=3)
    more_cited = make_paper(categories=["cs.WV"], published=datetime.date(2022, 6, 1), cited_by_count=9)
    uncited = make_paper(categories=["cs.WV"], published=datetime.date(2023, 12, 31), cited_by_count=0)
    unknown = make_paper(categories=["cs.WV"], published=datetime.date(2024, 1, 1))

    def ids(query: str) -> list[str]:
        return [
            paper["arxiv_id"] for paper in get_valid(f"{LIST}?category=cs.WV&{query}", LIST).json()["results"]
        ]

    assert ids("year_from=2021&year_to=2023") == [uncited.arxiv_id, more_cited.arxiv_id, cited.arxiv_id]
    assert ids("year_from=2021&has_citations=true&sort=most_cited") == [more_cited.arxiv_id, cited.arxiv_id]
    assert ids("year_from=2021&has_citations=false") == [unknown.arxiv_id, uncited.arxiv_id]
    assert ids("year_from=2024&year_to=2021") == []


def test_it_finds_a_paper_by_every_form_of_its_id(get_valid):
    hopper = make_researcher("Grace Hopper")
    paper = make_paper(title="Compilers for everyone", authors=[hopper, "Ada Lovelace"], doi="10.1/woven")
    old_style = make_paper(arxiv_id="math.GT/9912001", title="Old style knots")
    for form in (
        paper.arxiv_id,
        f"{paper.arxiv_id}v3",
        f"arXiv:{paper.arxiv_id}",
        f"https://arxiv.org/abs/{paper.arxiv_id}v2",
    ):
        body = get_valid(f"/api/papers/{form}", DETAIL).json()
        assert body["arxiv_id"] == paper.arxiv_id, form
    assert body["title"] == "Compilers for everyone" and body["doi"] == "10.1/woven"
    assert body["authors"] == [
        {
            "name": "Grace Hopper",
            "researcher_id": hopper.pk,
            "researcher_url": f"http://127.0.0.1:8000{hopper.get_absolute_url()}",
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
    assert body["url"] == f"http://127.0.0.1:8000{paper.get_absolute_url()}"
    assert body["abs_url"] == f"https://arxiv.org/abs/{paper.arxiv_id}"
    assert body["api_url"] == f"http://127.0.0.1:8000/api/papers/{paper.arxiv_id}"
    assert get_valid("/api/papers/math.GT/9912001v1", DETAIL).json()["title"] == old_style.title


def test_it_answers_404_for_an_unknown_or_malformed_id(get_valid):
    unknown = get_valid("/api/papers/9912.99999", DETAIL)
    assert unknown.status_code == 404
    assert unknown.json() == {
        "status": 404,
        "error": "not_found",
        "message": "No paper 9912.99999 in the corpus",
        "details": [],
    }
    malformed = get_valid("/api/papers/not-an-id", DETAIL)
    assert malformed.status_code == 404 and "not an arXiv identifier" in malformed.json()["message"]


def test_it_lists_what_a_paper_builds_on_and_what_builds_on_it(get_valid):
    base = make_paper(title="Base", published=datetime.date(2020, 1, 1))
    first, second = make_paper(title="First"), make_paper(title="Second", published=datetime.date(2025, 6, 1))
    Citation.objects.create(citing=first, cited=base)
    Citation.objects.create(citing=second, cited=base)
    Citation.objects.create(citing=second, cited=first)

    citations = get_valid(f"/api/papers/{base.arxiv_id}/citations", "/api/papers/{arxiv_id}/citations").json()
    assert citations["count"] == 2
    assert [paper["arxiv_id"] for paper in citations["results"]] == [second.arxiv_id, first.arxiv_id]
    references = get_valid(
        f"/api/papers/{second.arxiv_id}/references?per_page=1", "/api/papers/{arxiv_id}/references"
    ).json()
    assert (references["count"], references["pages"], len(references["results"])) == (2, 2, 1)
    assert (
        get_valid(f"/api/papers/{base.arxiv_id}/references", "/api/papers/{arxiv_id}/references").json()[
            "count"
        ]
        == 0
    )


def test_it_ranks_similar_papers_by_meaning(get_valid):
    anchor = make_paper(embedding=unit(1))
    near = make_paper(embedding=[a + 0.02 * b for a, b in zip(unit(1), unit(2), strict=True)])
    body = get_valid(
        f"/api/papers/{anchor.arxiv_id}/similar?limit=3", "/api/papers/{arxiv_id}/similar"
    ).json()
    assert body["arxiv_id"] == anchor.arxiv_id and body["count"] == len(body["results"]) <= 3
    assert body["results"][0]["arxiv_id"] == near.arxiv_id
    assert 0.9 < body["results"][0]["similarity"] <= 1
    not_embedded = make_paper()
    assert (
        get_valid(f"/api/papers/{not_embedded.arxiv_id}/similar", "/api/papers/{arxiv_id}/similar").json()[
            "results"
        ]
        == []
    )


@pytest.mark.parametrize(
    "query",
    [
        "per_page=0",
        "per_page=101",
        "page=0",
        "page=1001",
        "sort=oldest",
        "category=cs.L%20G",
        "year_from=1990",
        "has_citations=perhaps",
    ],
)
def test_it_rejects_invalid_list_parameters_with_details(get_valid, query):
    response = get_valid(f"{LIST}?{query}", LIST)
    body = response.json()
    assert response.status_code == 400 and body["error"] == "bad_request"
    assert body["details"][0]["location"] == f"query.{query.split('=')[0]}"


def test_its_lists_and_details_run_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    researcher = make_researcher("Grace Hopper")
    looms = Topic.objects.create(label="looms", size=30, centroid=unit(0))
    cards = Topic.objects.create(label="punched cards", size=30, centroid=unit(1))
    # Analysed, with topics: each paper's analysis lists its topics, which must not cost a query a paper.
    papers = [
        make_paper(
            authors=[researcher, "Ada Lovelace"],
            categories=["cs.WV"],
            embedding=unit(n),
            analysed=timezone.now(),
            topics=[looms, cards],
        )
        for n in range(30)
    ]
    for citing in papers[1:]:
        Citation.objects.create(citing=citing, cited=papers[0])
    # 1 count, 2 the page of papers, 3 their authorships with researchers
    with django_assert_max_num_queries(3):
        listed = client.get(f"{LIST}?category=cs.WV&per_page=100").json()["results"]
    assert len(listed) == 30
    assert {tuple(t["id"] for t in paper["analysis"]["topics"]) for paper in listed} == {(looms.pk, cards.pk)}
    # 1 the paper, 2 its authorships with researchers
    with django_assert_max_num_queries(2):
        assert client.get(f"/api/papers/{papers[0].arxiv_id}").status_code == 200
    # 1 the paper's key, 2 count, 3 the page of citing papers, 4 their authorships
    with django_assert_max_num_queries(4):
        assert client.get(f"/api/papers/{papers[0].arxiv_id}/citations?per_page=100").json()["count"] == 29
    # 1 the paper's embedding, 2 the walk's settings, 3 its nearest neighbours, 4 their authorships
    with django_assert_max_num_queries(4):
        assert client.get(f"/api/papers/{papers[0].arxiv_id}/similar?limit=25").json()["count"] == 25
