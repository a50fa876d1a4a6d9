from django.urls import reverse

from core.sitemaps import CanonicalSitemap


class PageSitemap(CanonicalSitemap):
    """The site's own pages that are worth indexing (not search results, not account pages)."""

    def items(self) -> list[str]:
        return [
            "pages:home",
            "pages:about",
            "pages:developers",
            "pages:contact",
            "pages:privacy",
            "researchers:index",
            "institutions:index",
        ]

    def location(self, item: str) -> str:
        return reverse(item)
