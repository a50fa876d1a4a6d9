"""An institution's fields: how many of its papers carry each arXiv category.

The histogram reads every paper of every researcher affiliated with the institution, tens of thousands for
a large university, and changes only when a harvest adds papers or affiliations; so it is cached for
PAGE_FIGURES_TTL seconds rather than counted on every page view. The count of the papers it is over comes
with it: it scales the bars and is the paper list's estimated count (paginate() counts the last page
exactly).
"""

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from institutions.models import Institution
from papers.models import Authorship, Paper


@dataclass(frozen=True)
class InstitutionFields:
    categories: list[dict]  # {"category", "paper_count"}, largest first (cross-lists included)
    paper_count: int  # the papers they count, each once: 100% of a bar, and the list's estimated count


def institution_fields(institution: Institution) -> InstitutionFields:
    def count() -> InstitutionFields:
        return InstitutionFields(
            categories=list(Paper.objects.by_institution(institution).category_counts()),
            paper_count=Authorship.objects.by_members_of(institution).paper_count(),
        )

    return cache.get_or_set(f"institution-fields:{institution.pk}", count, settings.PAGE_FIGURES_TTL)
