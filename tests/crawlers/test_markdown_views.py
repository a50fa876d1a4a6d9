"""The detail pages answer their Markdown twin when asked, and advertise it and their feeds when not."""

import pytest
from django.conf import settings

from institutions.models import Affiliation, Institution
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db


@pytest.fixture
def pages():
    institution = Institution.objects.create(name="Institute of Woven Studies")
    hopper = make_researcher("Grace Hopper")
    Affiliation.objects.create(researcher=hopper, institution=institution, last_known=True)
    paper = make_paper(title="Compilers for everyone", authors=[hopper])
    return {"paper": paper, "researcher": hopper, "institution": institution}


@pytest.mark.parametrize("kind", ["paper", "researcher", "institution"])
def test_each_detail_page_answers_markdown_when_the_client_prefers_it(client, pages, kind):
    url = pages[kind].get_absolute_url()
    markdown = client.get(url, HTTP_ACCEPT="text/markdown, text/html;q=0.5")
    html = client.get(url, HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert markdown.status_code == html.status_code == 200
    assert markdown["Content-Type"] == "text/markdown; charset=utf-8"
    assert markdown.content.decode().startswith("# ")
    assert html["Content-Type"].startswith("text/html")
    assert "Accept" in markdown["Vary"] and "Accept" in html["Vary"]
    alternate = f'<link rel="alternate" type="text/markdown" href="{settings.SITE_URL}{url}">'
    assert alternate in html.content.decode()


def test_the_researcher_and_institution_pages_link_their_feeds(client, pages):
    researcher_html = client.get(pages["researcher"].get_absolute_url()).content.decode()
    institution_html = client.get(pages["institution"].get_absolute_url()).content.decode()
    feed = f'title="Papers by Grace Hopper" href="/rss/researchers/{pages["researcher"].pk}.xml"'
    assert f'<link rel="alternate" type="application/rss+xml" {feed}>' in researcher_html
    assert f'href="/rss/institutions/{pages["institution"].pk}.xml"' in institution_html


def test_a_missing_paper_is_an_html_404_even_when_markdown_is_asked_for(client):
    response = client.get("/papers/2201.99999", HTTP_ACCEPT="text/markdown")
    assert response.status_code == 404
    assert "This page isn't here" in response.content.decode()
