from core.sitemaps import CanonicalSitemap
from papers.models import Paper
from papers.querysets import PaperQuerySet


class PaperSitemap(CanonicalSitemap):
    lastmod_field = "updated_at"

    def items(self) -> PaperQuerySet:
        # Only what the canonical address and lastmod need; ordered by key so pages are stable.
        return Paper.objects.order_by("pk").only("arxiv_id", "slug", "updated_at")
