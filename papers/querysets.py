from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.db.models import F, Prefetch
from pgvector.django import CosineDistance

from papers.search.querysets import PaperSearchQuerySet

if TYPE_CHECKING:
    from institutions.models import Institution
    from papers.models import Paper
    from researchers.models import Researcher


class PaperQuerySet(PaperSearchQuerySet):
    def newest_first(self) -> PaperQuerySet:
        return self.order_by("-published", "-arxiv_id")

    def most_cited(self) -> PaperQuerySet:
        return self.order_by(F("cited_by_count").desc(nulls_last=True), "-published", "-arxiv_id")

    def by_researcher(self, researcher: Researcher) -> PaperQuerySet:
        return self.filter(authorships__researcher=researcher)

    def by_institution(self, institution: Institution) -> PaperQuerySet:
        """Papers with an author affiliated with the institution (each paper once)."""
        from papers.models import Authorship

        authored = Authorship.objects.filter(researcher__affiliations__institution=institution)
        return self.filter(pk__in=authored.values("paper_id"))

    def in_category(self, category: str) -> PaperQuerySet:
        return self.filter(categories__contains=[category])

    def references_of(self, paper: Paper) -> PaperQuerySet:
        """The papers in the corpus that `paper` cites: what it builds on."""
        return self.filter(citations_in__citing=paper)

    def citations_of(self, paper: Paper) -> PaperQuerySet:
        """The papers in the corpus that cite `paper`: what builds on it."""
        return self.filter(references_out__cited=paper)

    def similar_to(self, paper: Paper) -> PaperQuerySet:
        """Nearest neighbours by embedding (cosine, through the HNSW index), nearest first."""
        if paper.embedding is None:
            return self.none()
        return (
            self.exclude(pk=paper.pk)
            .filter(embedding__isnull=False)
            .annotate(distance=CosineDistance("embedding", paper.embedding))
            .order_by("distance")
        )

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

    def first_of(self, paper_ids: list[int], count: int) -> AuthorshipQuerySet:
        """The first `count` authorships of each paper, in order: a list of papers shows a few authors,
        and a collaboration paper has thousands (the full count is `len(paper.authors)`)."""
        return self.filter(paper_id__in=paper_ids, position__lte=count).order_by("paper_id", "position")
