"""An institution's fields: how many of its papers carry each arXiv category.

The histogram reads every paper of every researcher affiliated with the institution, tens of thousands for
a large university, and changes only when a harvest adds papers or affiliations; so it is cached for
PAGE_FIGURES_TTL seconds rather than counted on every page view. (The paper count beside it is not: a
stale count would cut the last page of the list short.)
"""

from django.conf import settings
from django.core.cache import cache

from institutions.models import Institution
from papers.models import Paper


def institution_fields(institution: Institution) -> list[dict]:
    """{"category", "paper_count"} for each category of its papers (cross-lists included), largest first."""

    def count() -> list[dict]:
        return list(Paper.objects.by_institution(institution).category_counts())

    return cache.get_or_set(f"institution-fields:{institution.pk}", count, settings.PAGE_FIGURES_TTL)
