"""Every kind of page renders for the real demo corpus: real titles (TeX, HTML), old-style ids, long author
lists, researchers grouped from names."""

import pytest
from django.db.models import Count, Q

from papers.models import Paper
from researchers.models import Researcher
from tests.html import tree

pytestmark = pytest.mark.django_db


def test_the_busiest_researchers_render_whole_and_in_fragments(client, demo_corpus):
    researchers = Researcher.objects.annotate(papers=Count("authorships")).order_by("-papers", "id")[:25]
    assert researchers
    for researcher in researchers:
        page = client.get(researcher.get_absolute_url())
        assert page.status_code == 200, researcher
        assert tree(page).xpath("//section[@id='paper-list']//li[@class='paper-item']")
        for params in ({"sort": "cited"}, {"sort": "oldest", "page": "2"}):
            fragment = client.get(researcher.get_absolute_url(), params, headers={"HX-Request": "true"})
            assert fragment.status_code == 200 and "<html" not in fragment.content.decode()


def test_papers_of_every_source_render(client, demo_corpus):
    samples = [
        *Paper.objects.filter(title__contains="$")[:15],  # TeX in the title
        *Paper.objects.filter(arxiv_id__contains="/")[:10],  # old-style ids (the 2007 snapshot)
        *Paper.objects.filter(Q(abstract__contains="<") | Q(title__contains="<"))[:10],
        *Paper.objects.annotate(authors_here=Count("authorships")).order_by("-authors_here")[:5],
        *Paper.objects.order_by("?")[:10],
    ]
    assert len(samples) >= 20
    for paper in samples:
        response = client.get(paper.get_absolute_url())
        assert response.status_code == 200, paper.arxiv_id
        assert tree(response).xpath("//code[@id='bibtex']")[0].text.startswith("@misc{")


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/researchers",
        "/researchers?q=zhang",
        "/researchers?page=3",
        "/institutions",
        "/about",
        "/developers",
    ],
)
def test_the_site_pages_render(client, demo_corpus, path):
    assert client.get(path).status_code == 200
