"""/sitemap.xml: an index of section sitemaps, each within the 50,000-URL limit, listing canonical
addresses only, with lastmod from the records."""

import pytest
from lxml import etree

from core.sitemaps import CanonicalSitemap
from institutions.models import Institution
from papers.models import Paper
from researchers.models import ResearcherRedirect
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
SITE = "http://127.0.0.1:8000"


def xml(client, path: str) -> etree._Element:
    response = client.get(path)
    assert response.status_code == 200, path
    assert response["Content-Type"] == "application/xml"
    return etree.fromstring(response.content)


def local(url: str) -> str:
    assert url.startswith(f"{SITE}/"), url  # absolute, under the canonical origin
    return url.removeprefix(SITE)


def section_urls(client, index_root: etree._Element) -> dict[str, list[str]]:
    """Every URL of every page of every section, by the page's address."""
    urls = {}
    for loc in index_root.xpath("s:sitemap/s:loc/text()", namespaces=NS):
        root = xml(client, local(loc))
        assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
        urls[loc] = root.xpath("s:url/s:loc/text()", namespaces=NS)
        assert len(urls[loc]) <= 50_000
    return urls


def test_the_index_points_to_every_section_and_every_section_resolves(client):
    paper = make_paper(title="Woven graphs")
    researcher = make_researcher("Grace Hopper")
    institution = Institution.objects.create(name="University of Woven Studies")
    index = xml(client, "/sitemap.xml")
    assert index.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}sitemapindex"
    assert client.get("/sitemap.xml")["X-Robots-Tag"] == "noindex, noodp, noarchive"
    locs = index.xpath("s:sitemap/s:loc/text()", namespaces=NS)
    assert locs[:5] == [
        f"{SITE}/sitemaps/{section}.xml"
        for section in ("pages", "papers", "researchers", "institutions", "topics")
    ]
    everything = [url for urls in section_urls(client, index).values() for url in urls]
    for record in (paper, researcher, institution):
        assert f"{SITE}{record.get_absolute_url()}" in everything
    for page in ("/", "/about", "/developers", "/researchers", "/institutions"):
        assert f"{SITE}{page}" in everything
    assert not any("/search" in url or "/account" in url or "?" in url for url in everything)


def test_every_listed_address_is_canonical(client):
    survivor = make_researcher("Grace Hopper")
    ResearcherRedirect.objects.create(old_id=987_654_321, researcher=survivor)
    papers = [make_paper(title=f"Canonical {n}") for n in range(3)]
    urls = section_urls(client, xml(client, "/sitemap.xml"))
    listed = [url for page in urls.values() for url in page]
    assert len(listed) == len(set(listed))
    assert not any("/researchers/987654321" in url for url in listed)
    for record in (*papers, survivor):
        response = client.get(local(f"{SITE}{record.get_absolute_url()}"))
        assert response.status_code == 200  # no redirect: the listed address is the canonical one
    for page_url in urls:
        for url in urls[page_url][:3] + urls[page_url][-3:]:  # the ends of each page, demo rows or ours
            assert client.get(local(url)).status_code == 200, url


def test_lastmod_comes_from_the_records(client):
    paper = make_paper(title="Dated")
    root = xml(client, "/sitemaps/papers.xml")
    [entry] = [
        url
        for url in root.xpath("s:url", namespaces=NS)
        if url.findtext("s:loc", namespaces=NS).endswith(paper.get_absolute_url())
    ]
    assert entry.findtext("s:lastmod", namespaces=NS) == paper.updated_at.date().isoformat()
    index = xml(client, "/sitemap.xml")
    papers_lastmod = index.xpath(
        "s:sitemap[s:loc='http://127.0.0.1:8000/sitemaps/papers.xml']/s:lastmod/text()", namespaces=NS
    )
    assert papers_lastmod and papers_lastmod[0] >= paper.updated_at.date().isoformat()


def test_sections_are_paginated_at_the_limit(client, monkeypatch):
    for n in range(5):
        make_paper(title=f"Paged {n}")
    total = Paper.objects.count()  # with the demo corpus, when the session has loaded it
    limit = total // 3 + 1  # so that the papers take three pages, the last one partly full
    monkeypatch.setattr(CanonicalSitemap, "limit", limit)
    index = xml(client, "/sitemap.xml")
    paper_pages = [
        loc for loc in index.xpath("s:sitemap/s:loc/text()", namespaces=NS) if "/papers.xml" in loc
    ]
    assert paper_pages == [
        f"{SITE}/sitemaps/papers.xml",
        f"{SITE}/sitemaps/papers.xml?p=2",
        f"{SITE}/sitemaps/papers.xml?p=3",
    ]
    urls = section_urls(client, index)
    listed = [url for page in paper_pages for url in urls[page]]
    assert [len(urls[page]) for page in paper_pages] == [limit, limit, total - 2 * limit]
    assert len(listed) == len(set(listed)) == total
    assert client.get("/sitemaps/papers.xml?p=4").status_code == 404
    assert client.get("/sitemaps/papers.xml?p=x").status_code == 404
    assert client.get("/sitemaps/nothing.xml").status_code == 404


def test_the_sitemaps_run_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    for n in range(30):
        make_paper(title=f"Counted {n}")
        make_researcher(f"Researcher {n}")
    # per section of records (papers, researchers, institutions, topics): 1 latest lastmod, 2 count (the
    # site's pages take none)
    with django_assert_max_num_queries(8):
        client.get("/sitemap.xml")
    # 1 count, 2 the page of rows
    with django_assert_max_num_queries(2):
        client.get("/sitemaps/papers.xml")
    with django_assert_max_num_queries(2):
        client.get("/sitemaps/researchers.xml")
