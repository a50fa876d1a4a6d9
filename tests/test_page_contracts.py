"""What other parts of the site rely on: pages answer with TemplateResponse (so a content-negotiation
decorator can swap the template) and name their context as agreed."""

import datetime

import pytest
from django.template.response import TemplateResponse

from tests.factories import make_affiliation, make_citation, make_institution, make_paper, make_researcher

pytestmark = pytest.mark.django_db


def test_the_paper_page_context(client):
    paper = make_paper(authors=[make_researcher("Grace Weftwright"), "Ada Warpley"])
    make_citation(citing=paper, cited=make_paper(published=datetime.date(2020, 1, 1)))
    response = client.get(paper.get_absolute_url())
    assert isinstance(response, TemplateResponse) and response.template_name == "papers/detail.html"
    context = response.context_data
    assert context["paper"] == paper
    assert "authorships" in context["paper"]._prefetched_objects_cache
    assert context["references_total"] == 1 and len(context["references"]) == 1
    assert context["citations_total"] == 0 and context["citations"] == []
    assert isinstance(context["similar"], list) and context["bibtex"].startswith("@misc{")


def test_the_researcher_page_context(client):
    researcher = make_researcher("Grace Weftwright")
    make_paper(authors=[researcher])
    response = client.get(researcher.get_absolute_url())
    assert isinstance(response, TemplateResponse) and response.template_name == "researchers/detail.html"
    assert response.context_data["researcher"] == researcher
    papers = response.context_data["papers"]
    assert papers.paginator.per_page == 24 and len(papers) == 1


def test_the_institution_page_context(client):
    institution = make_institution("Loom Institute")
    make_affiliation(make_researcher("Ada Warpley"), institution)
    response = client.get(institution.get_absolute_url())
    assert isinstance(response, TemplateResponse) and response.template_name == "institutions/detail.html"
    context = response.context_data
    assert context["institution"] == institution
    assert len(context["researchers"]) == 1 and len(context["papers"]) == 0


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/", "pages/home.html"),
        ("/about", "pages/about.html"),
        ("/contact", "pages/contact.html"),
        ("/privacy", "pages/privacy.html"),
        ("/developers", "pages/developers.html"),
    ],
)
def test_the_plain_pages_are_template_responses(client, path, template):
    response = client.get(path)
    assert isinstance(response, TemplateResponse) and response.template_name == template
