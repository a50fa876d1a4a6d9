"""The home page: the corpus's size and its newest papers."""

import datetime

import pytest
from django.contrib.humanize.templatetags.humanize import intcomma
from django.core.cache import cache

from pages.views import CORPUS_COUNTS_KEY
from papers.models import Paper
from tests.factories import make_paper
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db


def shown_paper_count(client) -> str:
    counts = tree(client.get("/")).xpath("//ul[@class='counts']/li")
    return text_of(counts[0])


def test_it_says_how_many_papers_there_are_counted_once_in_a_while(
    client, settings, django_assert_max_num_queries
):
    settings.PAGE_FIGURES_TTL = 600
    cache.delete(CORPUS_COUNTS_KEY)
    make_paper(title="A first woven paper")
    assert shown_paper_count(client) == f"{intcomma(Paper.objects.count())} papers"

    posted_since = Paper.objects.latest("published").published + datetime.timedelta(days=1)
    make_paper(title="A paper posted since", published=posted_since)
    # The counts come from the cache: two queries, the newest papers and their authors.
    with django_assert_max_num_queries(2):
        response = client.get("/")
    assert "A paper posted since" in response.text  # the list is not cached
    assert shown_paper_count(client) == f"{intcomma(Paper.objects.count() - 1)} papers"

    cache.delete(CORPUS_COUNTS_KEY)  # as when PAGE_FIGURES_TTL has passed
    assert shown_paper_count(client) == f"{intcomma(Paper.objects.count())} papers"
