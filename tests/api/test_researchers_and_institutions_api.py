"""The researcher and institution endpoints, each answer checked against /openapi.json."""

import datetime

import pytest

from institutions.models import Affiliation, Institution
from researchers.models import ResearcherRedirect
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db


@pytest.fixture
def woven_university():
    """An institution with two researchers: Grace Hopper (now) with three papers, and Ada Lovelace."""
    institution = Institution.objects.create(
        name="University of Woven Studies", ror_id="042nb2s44", country_code="GB", type="education"
    )
    hopper, lovelace = (
        make_researcher("Grace Hopper", h_index=7, orcid="0000-0002-1825-0097"),
        make_researcher("Ada Lovelace"),
    )
    Affiliation.objects.create(
        researcher=hopper, institution=institution, last_known=True, years=[2024, 2025]
    )
    Affiliation.objects.create(researcher=lovelace, institution=institution, years=[1843])
    make_paper(authors=[hopper], primary_category="cs.PL", published=datetime.date(2024, 1, 1))
    make_paper(authors=[hopper, lovelace], primary_category="cs.PL", published=datetime.date(2025, 1, 1))
    make_paper(authors=[hopper], primary_category="cs.DL", published=datetime.date(2023, 1, 1))
    return institution, hopper, lovelace


def test_it_finds_researchers_by_name_with_their_paper_counts(get_valid, woven_university):
    _, hopper, _ = woven_university
    body = get_valid("/api/researchers?name=grace%20hoper", "/api/researchers").json()
    first = body["results"][0]
    assert (first["id"], first["display_name"], first["paper_count"], first["h_index"]) == (
        hopper.pk,
        "Grace Hopper",
        3,
        7,
    )
    assert first["url"] == f"http://127.0.0.1:8000{hopper.get_absolute_url()}"
    assert body["count"] >= 1
    assert get_valid("/api/researchers?name=%21%21%21", "/api/researchers").json()["count"] == 0
    missing = get_valid("/api/researchers", "/api/researchers")
    assert missing.status_code == 400 and missing.json()["details"][0]["location"] == "query.name"


def test_it_shows_a_researchers_profile_with_fields_and_institutions(get_valid, woven_university):
    institution, hopper, _ = woven_university
    body = get_valid(f"/api/researchers/{hopper.pk}", "/api/researchers/{researcher_id}").json()
    assert body["paper_count"] == 3 and body["orcid"] == "0000-0002-1825-0097"
    assert body["fields"] == [{"category": "cs.PL", "papers": 2}, {"category": "cs.DL", "papers": 1}]
    [affiliation] = body["institutions"]
    assert affiliation == {
        "id": institution.pk,
        "name": "University of Woven Studies",
        "ror_id": "042nb2s44",
        "country_code": "GB",
        "last_known": True,
        "years": [2024, 2025],
        "url": f"http://127.0.0.1:8000{institution.get_absolute_url()}",
        "api_url": f"http://127.0.0.1:8000/api/institutions/{institution.pk}",
    }


def test_it_lists_a_researchers_papers_newest_first(get_valid, woven_university):
    _, _, lovelace = woven_university
    body = get_valid(
        f"/api/researchers/{lovelace.pk}/papers", "/api/researchers/{researcher_id}/papers"
    ).json()
    assert body["count"] == 1 and body["results"][0]["published"] == "2025-01-01"


def test_an_absorbed_researcher_id_moves_to_the_survivor(get_valid, woven_university):
    _, hopper, _ = woven_university
    ResearcherRedirect.objects.create(old_id=987_654_321, researcher=hopper)
    detail = get_valid("/api/researchers/987654321", "/api/researchers/{researcher_id}")
    assert (detail.status_code, detail["Location"]) == (
        301,
        f"http://127.0.0.1:8000/api/researchers/{hopper.pk}",
    )
    papers = get_valid("/api/researchers/987654321/papers?page=2", "/api/researchers/{researcher_id}/papers")
    assert papers["Location"] == f"http://127.0.0.1:8000/api/researchers/{hopper.pk}/papers"
    unknown = get_valid("/api/researchers/987654320", "/api/researchers/{researcher_id}")
    assert unknown.status_code == 404 and unknown.json()["message"] == "No researcher 987654320"


@pytest.mark.parametrize("key", ["pk", "042nb2s44", "University%20of%20Woven%20Studies"])
def test_it_finds_an_institution_by_id_ror_id_or_name(get_valid, woven_university, key):
    institution, _, _ = woven_university
    path = f"/api/institutions/{institution.pk if key == 'pk' else key}"
    body = get_valid(path, "/api/institutions/{key}").json()
    assert (body["id"], body["ror_url"], body["researcher_count"], body["paper_count"]) == (
        institution.pk,
        "https://ror.org/042nb2s44",
        2,
        3,
    )


def test_it_lists_an_institutions_researchers_and_papers(get_valid, woven_university):
    institution, hopper, lovelace = woven_university
    researchers = get_valid(
        "/api/institutions/042nb2s44/researchers", "/api/institutions/{key}/researchers"
    ).json()
    assert [(r["id"], r["paper_count"]) for r in researchers["results"]] == [(lovelace.pk, 1), (hopper.pk, 3)]
    papers = get_valid(
        f"/api/institutions/{institution.pk}/papers?per_page=2", "/api/institutions/{key}/papers"
    ).json()
    assert (papers["count"], papers["pages"]) == (3, 2)
    assert [p["published"] for p in papers["results"]] == ["2025-01-01", "2024-01-01"]
    unknown = get_valid("/api/institutions/0zzzzzz99/papers", "/api/institutions/{key}/papers")
    assert unknown.status_code == 404 and "No institution '0zzzzzz99'" in unknown.json()["message"]


def test_they_run_a_fixed_number_of_queries(client, woven_university, django_assert_max_num_queries):
    institution, hopper, _ = woven_university
    for _ in range(20):
        make_paper(authors=[hopper, make_researcher("Someone Else")])
    # 1 whether any name starts so (else names alike), 2 count of matches, 3 the page with paper counts
    with django_assert_max_num_queries(3):
        client.get("/api/researchers?name=grace")
    # 1 the researcher with paper count, 2 fields, 3 institutions
    with django_assert_max_num_queries(3):
        client.get(f"/api/researchers/{hopper.pk}")
    # 1 the researcher with paper count, 2 count, 3 the page of papers, 4 their authorships with researchers
    with django_assert_max_num_queries(4):
        assert client.get(f"/api/researchers/{hopper.pk}/papers?per_page=100").json()["count"] == 23
    # 1 the institution, 2 researcher count, 3 paper count
    with django_assert_max_num_queries(3):
        client.get(f"/api/institutions/{institution.pk}")
    # 1 the institution, 2 count, 3 the page of researchers with paper counts
    with django_assert_max_num_queries(3):
        client.get(f"/api/institutions/{institution.pk}/researchers")
    # 1 the institution, 2 count, 3 the page of papers, 4 their authorships with researchers
    with django_assert_max_num_queries(4):
        assert client.get(f"/api/institutions/{institution.pk}/papers?per_page=100").json()["count"] == 23
