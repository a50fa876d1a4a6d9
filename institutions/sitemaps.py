from core.sitemaps import CanonicalSitemap
from institutions.models import Institution
from institutions.querysets import InstitutionQuerySet


class InstitutionSitemap(CanonicalSitemap):
    lastmod_field = "updated_at"

    def items(self) -> InstitutionQuerySet:
        return Institution.objects.order_by("pk").only("name", "updated_at")
