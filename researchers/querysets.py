from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.postgres.search import TrigramSimilarity
from django.db import models
from django.db.models import Count

from researchers.names import normalise_name

if TYPE_CHECKING:
    from researchers.models import Researcher

NAME_SIMILARITY_THRESHOLD = 0.3  # pg_trgm's own default for the % operator


class ResearcherQuerySet(models.QuerySet):
    def with_paper_counts(self) -> ResearcherQuerySet:
        """Annotates `paper_count`: papers in this corpus."""
        return self.annotate(paper_count=Count("authorships__paper", distinct=True))

    def with_same_name_as(self, researcher: Researcher) -> ResearcherQuerySet:
        return self.filter(normalised_name=researcher.normalised_name).exclude(pk=researcher.pk)

    def matching_name(self, name: str) -> ResearcherQuerySet:
        """Researchers whose normalised name is like `name` (trigram similarity), most similar first."""
        normalised = normalise_name(name)
        if not normalised:
            return self.none()
        return (
            self.filter(normalised_name__trigram_similar=normalised)
            .annotate(similarity=TrigramSimilarity("normalised_name", normalised))
            .order_by("-similarity", "id")
        )
