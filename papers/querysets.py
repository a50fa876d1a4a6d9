from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import F, Prefetch

if TYPE_CHECKING:
    from researchers.models import Researcher


class PaperQuerySet(models.QuerySet):
    def newest_first(self) -> PaperQuerySet:
        return self.order_by("-published", "-arxiv_id")

    def most_cited(self) -> PaperQuerySet:
        return self.order_by(F("cited_by_count").desc(nulls_last=True), "-published", "-arxiv_id")

    def by_researcher(self, researcher: Researcher) -> PaperQuerySet:
        return self.filter(authorships__researcher=researcher)

    def in_category(self, category: str) -> PaperQuerySet:
        return self.filter(categories__contains=[category])

    def without_embedding(self) -> PaperQuerySet:
        return self.filter(embedding__isnull=True)

    def with_authors(self) -> PaperQuerySet:
        """Authorships in order with their researchers, for lists that link matched authors."""
        from papers.models import Authorship

        return self.prefetch_related(
            Prefetch(
                "authorships",
                queryset=Authorship.objects.select_related("researcher").order_by("position"),
            )
        )


class AuthorshipQuerySet(models.QuerySet):
    def unmatched(self) -> AuthorshipQuerySet:
        return self.filter(researcher__isnull=True)
