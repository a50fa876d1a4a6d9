"""An institution's paper figures: how many papers it has here, and how many in each arXiv category.

They aggregate over every paper of every researcher affiliated with it, tens of thousands for a large
university, and change only when a harvest adds papers or affiliations; so they are cached for
INSTITUTION_FIGURES_TTL seconds rather than counted on every page view.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from institutions.models import Institution
from papers.models import Paper


@dataclass(frozen=True)
class PaperFigures:
    total: int
    fields: list[dict]  # {"category", "paper_count"}, largest first, as category_counts() gives them

    def count_in(self, category: str) -> int:
        """Papers in `category` (cross-lists included, as the category filter finds them), or all."""
        if not category:
            return self.total
        return next((field["paper_count"] for field in self.fields if field["category"] == category), 0)


def paper_figures(institution: Institution) -> PaperFigures:
    def count() -> PaperFigures:
        papers = Paper.objects.by_institution(institution)
        return PaperFigures(total=papers.count(), fields=list(papers.category_counts()))

    return cache.get_or_set(
        f"institution-paper-figures:{institution.pk}", count, settings.INSTITUTION_FIGURES_TTL
    )
