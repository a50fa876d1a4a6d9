from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.postgres.search import TrigramSimilarity
from django.db import models
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

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

    def with_search_summary(self) -> ResearcherQuerySet:
        """Annotates `paper_count` (papers in this corpus) and `last_institution_id`/`_name` (their last
        known affiliation). Correlated subqueries rather than a join and GROUP BY: PostgreSQL works them out
        only for the rows that survive ORDER BY and LIMIT, however many researchers match a name."""
        from institutions.models import Affiliation
        from papers.models import Authorship

        papers = (
            Authorship.objects.filter(researcher=OuterRef("pk"))
            .order_by()
            .values("researcher")
            .annotate(count=Count("paper", distinct=True))
            .values("count")
        )
        last = Affiliation.objects.filter(researcher=OuterRef("pk"), last_known=True).order_by("-id")
        return self.annotate(
            paper_count=Coalesce(Subquery(papers, output_field=IntegerField()), Value(0)),
            last_institution_id=Subquery(last.values("institution_id")[:1]),
            last_institution_name=Subquery(last.values("institution__name")[:1]),
        )
