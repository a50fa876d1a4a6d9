import datetime

import pytest

from researchers.models import ResearcherRedirect
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db


def test_the_home_page_shows_the_search_box_counts_and_latest_papers(client, django_assert_max_num_queries):
    researcher = make_researcher("Grace Hopper")
    # Newer than anything in the demo corpus, which other tests in the session may have loaded.
    paper = make_paper(
        title="Compilers for <b>everyone</b>",
        authors=[researcher, "Ada Lovelace"],
        published=datetime.date(2099, 1, 1),
    )
    # 1-3 the three corpus counts, 4 the latest papers, 5 their authorships with researchers
    with django_assert_max_num_queries(5):
        response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<label class="visually-hidden" for="home-search">' in html
    assert "Compilers for &lt;b&gt;everyone&lt;/b&gt;" in html  # harvested text is escaped
    assert f'href="{paper.get_absolute_url()}"' in html
    assert f'<a href="{researcher.get_absolute_url()}">Grace Hopper</a>' in html
    assert "researchers</span>" in html


def test_every_page_has_the_frame_footer_and_site_json_ld(client):
    html = client.get("/about").content.decode()
    for link in ("/search", "/researchers", "/institutions", "https://arxiv.org/", "https://www.semanticscholar.org/",
                 "https://openalex.org/", "/rss/latest.xml", "/about", "/contact", "/privacy", "/developers",
                 "/llms.txt", "/openapi.json"):  # fmt: skip
        assert f'href="{link}"' in html
    assert "Not affiliated with arXiv. Researcher data from Semantic Scholar (ODC-BY) and OpenAlex." in html
    assert (
        '"@type":"WebSite"' in html
        and '"urlTemplate":"http://127.0.0.1:8000/search?q={search_term_string}"' in html
    )
    assert '<main id="main"' in html and 'role="search"' in html


@pytest.mark.parametrize("path", ["/about", "/contact", "/privacy", "/developers", "/healthz"])
def test_the_plain_pages_answer(client, path):
    assert client.get(path).status_code == 200


def test_an_unknown_path_gets_the_404_page(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    html = response.content.decode()
    assert "This page isn't here" in html
    assert "New papers are harvested continuously" in html
    assert "Go home" in html and "Where to look next" in html


def test_paper_urls_redirect_to_the_canonical_one(client):
    paper = make_paper(title="Woven graphs")
    canonical = paper.get_absolute_url()
    assert canonical == f"/papers/{paper.arxiv_id}-woven-graphs"
    for variant in (
        f"/papers/{paper.arxiv_id}",
        f"/papers/{paper.arxiv_id}v3",
        f"/papers/{paper.arxiv_id}-wrong",
    ):
        response = client.get(variant)
        assert (response.status_code, response["Location"]) == (301, canonical)
    assert client.get(canonical).status_code == 200


def test_old_style_paper_ids_work(client):
    paper = make_paper(arxiv_id="astro-ph/9901001", title="Old style")
    assert client.get("/papers/astro-ph/9901001")["Location"] == "/papers/astro-ph/9901001-old-style"
    assert client.get("/papers/astro-ph/9901001-old-style").status_code == 200
    assert paper.slug == "old-style"


def test_an_unknown_paper_is_a_404(client):
    assert client.get("/papers/2201.99999").status_code == 404


def test_an_absorbed_researcher_id_redirects_to_the_survivor(client):
    survivor = make_researcher("Grace Hopper")
    ResearcherRedirect.objects.create(old_id=999_999, researcher=survivor)
    response = client.get("/researchers/999999-anything")
    assert (response.status_code, response["Location"]) == (301, survivor.get_absolute_url())
