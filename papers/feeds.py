"""RSS 2.0 feeds of papers: the latest across the corpus and the latest in one arXiv category. The feeds
of a researcher's and an institution's papers build on PaperFeed."""

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.feedgenerator import Rss201rev2Feed
from django.utils.html import escape

from core.latex import readable_text
from core.links import absolute_url
from papers.categories import is_arxiv_category
from papers.models import Paper

FEED_LENGTH = 50


def _midnight_utc(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)


class PaperFeed(Feed):
    """Items are papers: their canonical page, first-posted date, authors and categories. A title is plain
    text, as feedparser and most readers take RSS titles; a description is HTML by the RSS spec, so the
    abstract is HTML-escaped there and reads as the text it is."""

    feed_type = Rss201rev2Feed
    language = "en"

    def item_title(self, paper: Paper) -> str:
        return readable_text(paper.title)  # 'On α-nets', not 'On $\\alpha$-nets'

    def item_description(self, paper: Paper) -> str:
        return escape(paper.abstract)

    def item_link(self, paper: Paper) -> str:
        return absolute_url(paper.get_absolute_url())

    def item_guid(self, paper: Paper) -> str:
        return absolute_url(paper.get_absolute_url())

    item_guid_is_permalink = True

    def item_pubdate(self, paper: Paper) -> datetime.datetime:
        return _midnight_utc(paper.published)

    def item_updateddate(self, paper: Paper) -> datetime.datetime:
        return _midnight_utc(paper.updated or paper.published)

    def item_author_name(self, paper: Paper) -> str:
        return ", ".join(paper.authors)

    def item_categories(self, paper: Paper) -> list[str]:
        return paper.categories


class LatestPapersFeed(PaperFeed):
    title = f"{settings.SITE_NAME}: latest papers"
    description = f"The {FEED_LENGTH} papers most recently posted to arXiv in {settings.SITE_NAME}'s corpus."

    def link(self) -> str:
        return absolute_url(reverse("pages:home"))

    def feed_url(self) -> str:
        return absolute_url(reverse("papers:feed-latest"))

    def items(self) -> list[Paper]:
        return list(Paper.objects.newest_first()[:FEED_LENGTH])


@dataclass(frozen=True)
class CategoryPapers:
    category: str
    papers: list[Paper]


class CategoryFeed(PaperFeed):
    def get_object(self, request: HttpRequest, category: str) -> CategoryPapers:
        """The category's latest papers, fetched here so that a category without any is a 404."""
        if not is_arxiv_category(category):
            raise Http404("Not an arXiv category")
        papers = list(Paper.objects.in_category(category).newest_first()[:FEED_LENGTH])
        if not papers:
            raise Http404(f"No papers in {category}")
        return CategoryPapers(category, papers)

    def title(self, subject: CategoryPapers) -> str:
        return f"{settings.SITE_NAME}: latest papers in {subject.category}"

    def description(self, subject: CategoryPapers) -> str:
        return f"The {FEED_LENGTH} papers most recently posted to arXiv in {subject.category}."

    def link(self) -> str:
        return absolute_url(reverse("pages:home"))

    def feed_url(self, subject: CategoryPapers) -> str:
        return absolute_url(reverse("papers:feed-category", kwargs={"category": subject.category}))

    def items(self, subject: CategoryPapers) -> list[Paper]:
        return subject.papers
