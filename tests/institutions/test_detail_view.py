"""The institution page and every address that leads to it."""

import datetime
from urllib.parse import quote

import pytest
from django.core.cache import cache

from institutions.figures import institution_fields
from tests.factories import make_affiliation, make_institution, make_paper, make_researcher
from tests.html import jsonld_nodes, text_of, texts, tree

pytestmark = pytest.mark.django_db


@pytest.fixture
def monash():
    institution = make_institution(
        "Monash Weaving Institute", ror_id="0weftmo86", country_code="AU", type="education",
        homepage="https://www.monash.example/",
    )  # fmt: skip
    cited = make_researcher("Highly Cited", citation_count=900, h_index=20)
    quiet = make_researcher("Quietly Working")
    middling = make_researcher("Middling Cited", citation_count=30)
    for researcher in (cited, quiet, middling):
        make_affiliation(researcher, institution)
    make_paper(
        title="Newest loom",
        authors=[quiet, "Outsider"],
        categories=["cs.LG"],
        published=datetime.date(2025, 6, 1),
    )
    make_paper(
        title="Older loom",
        authors=[cited, middling],
        categories=["cs.DL", "cs.LG"],
        published=datetime.date(2024, 1, 1),
    )
    make_paper(
        title="Oldest loom", authors=[cited], categories=["math.CO"], published=datetime.date(2020, 1, 1)
    )
    make_paper(title="Not theirs", authors=["Outsider"])
    return institution


def test_it_shows_name_country_type_ror_and_homepage(client, monash):
    response = client.get(monash.get_absolute_url())
    assert response.status_code == 200
    page = tree(response)
    assert text_of(page.xpath("//h1")[0]) == "Monash Weaving Institute"
    assert texts(response, "//ul[@class='badges']/li") == ["3 researchers here", "AU", "education"]
    assert page.xpath("//ul[contains(@class, 'identity')]//a/@href") == [
        "https://ror.org/0weftmo86", "https://www.monash.example/",
    ]  # fmt: skip


def test_it_lists_its_researchers_most_cited_first_and_their_papers_newest_first(client, monash):
    response = client.get(monash.get_absolute_url())
    assert texts(response, "//section[@id='researcher-list']//li/a") == [
        "Highly Cited", "Middling Cited", "Quietly Working",
    ]  # fmt: skip
    assert texts(response, "//section[@id='researcher-list']//li")[0] == (
        "Highly Cited 2 papers here · h-index 20 · 900 citations"
    )
    assert texts(response, "//section[@id='paper-list']//h3") == ["Newest loom", "Older loom", "Oldest loom"]


def test_it_draws_the_fields_and_filters_the_papers_by_one(client, monash):
    response = client.get(monash.get_absolute_url(), {"category": "cs.LG"})
    links = tree(response).xpath("//section[@id='field-bars']//a")
    assert [text_of(link) for link in links] == ["cs.LG 2", "cs.DL 1", "math.CO 1", "Show all fields"]
    assert [link.get("aria-current") for link in links] == ["true", None, None, None]
    assert texts(response, "//section[@id='paper-list']//h3") == ["Newest loom", "Older loom"]


def test_the_two_lists_page_separately_and_keep_each_other(client):
    institution = make_institution("Big Weaving Institute")
    for number in range(25):
        researcher = make_researcher(f"Weaver {number:02d}", citation_count=number)
        make_affiliation(researcher, institution)
        make_paper(
            authors=[researcher], published=datetime.date(2025, 1, 1) + datetime.timedelta(days=number)
        )
    url = institution.get_absolute_url()
    response = client.get(url, {"researchers_page": "2"})
    assert texts(response, "//ul[@class='people-list']/li/a") == [f"Weaver {n:02d}" for n in range(4, -1, -1)]
    assert len(texts(response, "//section[@id='paper-list']//h3")) == 24
    next_papers = tree(response).xpath("//section[@id='paper-list']//a[@rel='next']/@href")
    assert next_papers == ["?researchers_page=2&page=2"]
    previous_researchers = tree(response).xpath("//section[@id='researcher-list']//a[@rel='prev']/@href")
    assert previous_researchers == ["?"]


def test_an_htmx_request_gets_the_fragment_its_target_names(client, monash):
    url = monash.get_absolute_url()
    researchers = client.get(url, headers={"HX-Request": "true", "HX-Target": "researcher-list"})
    assert researchers.content.decode().lstrip().startswith('<section id="researcher-list"')
    papers = client.get(
        url, {"category": "math.CO"}, headers={"HX-Request": "true", "HX-Target": "paper-list"}
    )
    html = papers.content.decode()
    assert html.lstrip().startswith('<section id="paper-list"') and "<html" not in html
    assert texts(papers, "//section[@id='paper-list']//h3") == ["Oldest loom"]
    assert tree(papers).xpath("//section[@id='field-bars']/@hx-swap-oob") == ["true"]
    assert "<html" in client.get(url).content.decode()


def test_the_json_ld_and_the_head(client, monash):
    response = client.get(monash.get_absolute_url())
    canonical = f"http://127.0.0.1:8000{monash.get_absolute_url()}"
    nodes = {node["@type"]: node for node in jsonld_nodes(response)}
    organization = nodes["EducationalOrganization"]
    assert organization["@id"] == f"{canonical}#organization"
    assert organization["sameAs"] == ["https://ror.org/0weftmo86", "https://www.monash.example/"]
    assert [item["name"] for item in nodes["BreadcrumbList"]["itemListElement"]] == [
        "wovepaper", "Institutions", "Monash Weaving Institute",
    ]  # fmt: skip
    page = tree(response)
    assert page.findtext(".//title") == "Monash Weaving Institute · wovepaper"
    assert page.xpath("//link[@rel='canonical']/@href") == [canonical]
    assert page.xpath("//meta[@name='description']/@content") == [
        "Monash Weaving Institute: 3 researchers and 3 papers in this archive."
    ]


@pytest.mark.parametrize(
    "key",
    ["{id}", "{id}-wrong-slug", "0weftmo86", "0WEFTMO86", "https://ror.org/0weftmo86",
     "https:/ror.org/0weftmo86", quote("Monash Weaving Institute"), quote("monash weaving institute"),
     "Monash", "monash", quote("weaving  institute")],
)  # fmt: skip
def test_an_id_a_ror_id_or_a_name_leads_to_the_canonical_page(client, monash, key):
    response = client.get(f"/institutions/{key.format(id=monash.pk)}")
    assert (response.status_code, response["Location"]) == (301, monash.get_absolute_url())


@pytest.mark.parametrize("key", ["0zzzzzz99", "Sydney", "https://example.org/0weftmo86", "999999999-nowhere"])
def test_an_address_that_names_no_institution_is_a_404(client, monash, key):
    assert client.get(f"/institutions/{key}").status_code == 404


def test_a_name_several_institutions_share_offers_a_choice(client, monash):
    make_institution("Monash Loom College", country_code="AU")
    response = client.get("/institutions/monash")
    assert response.status_code == 300
    page = tree(response)
    assert text_of(page.xpath("//main//h1")[0]) == "Which “monash”?"
    assert page.xpath("//main//ul[@class='people-list']/li/a/text()") == [
        "Monash Weaving Institute",  # most researchers first
        "Monash Loom College",
    ]
    assert page.xpath("//meta[@name='robots']/@content") == ["noindex, follow"]


def test_a_category_that_cannot_be_one_is_a_400(client, monash):
    assert client.get(monash.get_absolute_url(), {"category": "<script>"}).status_code == 400


def test_it_runs_the_same_few_queries_however_many_researchers_and_papers(
    client, django_assert_max_num_queries
):
    for size in (2, 30):
        institution = make_institution(f"Institute of {size}")
        for number in range(size):
            researcher = make_researcher(f"Member {number}")
            make_affiliation(researcher, institution)
            make_paper(authors=[researcher, "Outsider"])
        # 1 institution, 2-3 fields histogram and the papers it counts over, 4 count of its researchers,
        # 5 the page of researchers with paper counts, 6 the page of papers, 7 their authorships,
        # 8 the exact count of its papers when this is their last page
        with django_assert_max_num_queries(8):
            response = client.get(institution.get_absolute_url())
        assert response.status_code == 200
        # Then the fields histogram and its count come from the cache (institutions/figures.py).
        with django_assert_max_num_queries(6 if size <= 24 else 5):
            assert client.get(institution.get_absolute_url()).status_code == 200


def test_the_fields_are_cached_for_a_while_and_the_list_is_not(client, settings):
    settings.PAGE_FIGURES_TTL = 600
    institution = make_institution("Institute of Patience")
    member = make_researcher("Patient Member")
    make_affiliation(member, institution)
    make_paper(authors=[member], categories=["cs.DL", "cs.IR"])
    make_paper(authors=[member], categories=["cs.DL"])
    fields = institution_fields(institution)
    assert [(field["category"], field["paper_count"]) for field in fields.categories] == [
        ("cs.DL", 2),
        ("cs.IR", 1),
    ]
    assert fields.paper_count == 2
    make_paper(authors=[member], categories=["cs.IR"])
    page = client.get(institution.get_absolute_url(), {"category": "cs.IR"})
    assert len(texts(page, "//ul[@class='paper-list']/li//h3")) == 2
    # The cached histogram still says one until it expires.
    assert institution_fields(institution).categories[1] == {"category": "cs.IR", "paper_count": 1}
    cache.delete(f"institution-fields:{institution.pk}")
    assert {"category": "cs.IR", "paper_count": 2} in institution_fields(institution).categories


def test_the_paper_list_pages_on_the_cached_count_and_counts_its_last_page_exactly(client, settings):
    settings.PAGE_FIGURES_TTL = 600
    institution = make_institution("Institute of Growth")
    member = make_researcher("Growing Member")
    make_affiliation(member, institution)
    for day in range(1, 51):
        make_paper(
            title=f"Early paper {day}", authors=[member], published=datetime.date(2024, 1, day % 28 + 1)
        )
    url = institution.get_absolute_url()
    client.get(url)  # caches the fields and their count: 50 papers, three pages of 24
    for day in range(1, 31):
        make_paper(title=f"Later paper {day}", authors=[member], published=datetime.date(2025, 1, day))

    def papers_on(page: object) -> tuple[list[str], list[str]]:
        response = client.get(url, {"page": page})
        return texts(response, "//ul[@class='paper-list']/li//h3"), texts(
            response, "//nav[@class='pager']//li"
        )

    first, pager = papers_on(1)
    assert len(first) == 24 and first[0] == "Later paper 30"  # the list itself is never stale
    assert "Page 1 of 3" in pager  # the total can be behind for PAGE_FIGURES_TTL
    third, pager = papers_on(3)  # the last page by the cached count is counted exactly: 80 papers
    assert len(third) == 24 and "Page 3 of 4" in pager and "Next →" in pager
    fourth, _ = papers_on(4)
    assert len(set(first + papers_on(2)[0] + third + fourth)) == 80  # every paper, once
    assert papers_on(-1)[0] == fourth  # out of range: the last page, counted exactly
