from core.sitemaps import CanonicalSitemap
from researchers.models import Researcher
from researchers.querysets import ResearcherQuerySet


class ResearcherSitemap(CanonicalSitemap):
    lastmod_field = "updated_at"

    def items(self) -> ResearcherQuerySet:
        # An absorbed researcher's row is gone (its id redirects), so every row here is canonical.
        return Researcher.objects.order_by("pk").only("display_name", "updated_at")
