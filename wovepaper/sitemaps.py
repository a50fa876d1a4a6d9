"""Sitemaps: an index at /sitemap.xml pointing to one sitemap per section (papers, researchers,
institutions, the site's own pages), each paginated at 50,000 URLs with `?p=`. Every address in them is
the canonical one under SITE_URL, whatever host the request came to."""

import datetime
from typing import Any

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps.views import SitemapIndexItem, x_robots_tag
from django.db.models import Max
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET


class CanonicalSitemap(Sitemap):
    """A section whose addresses start with SITE_URL. Sections of records name the field their lastmod
    comes from; the section's latest lastmod is then one aggregate, not a walk through every row."""

    limit = 50_000  # the sitemaps.org maximum per file
    lastmod_field: str | None = None

    def get_protocol(self, protocol: str | None = None) -> str:
        return settings.SITE_URL.split("://", 1)[0]

    def get_domain(self, site: Any = None) -> str:
        return settings.SITE_URL.split("://", 1)[1]

    def lastmod(self, item: Any) -> datetime.datetime | None:
        return getattr(item, self.lastmod_field) if self.lastmod_field else None

    def get_latest_lastmod(self) -> datetime.datetime | None:
        if self.lastmod_field is None:
            return None
        return self.items().aggregate(latest=Max(self.lastmod_field))["latest"]


class PageSitemap(CanonicalSitemap):
    """The site's own pages that are worth indexing (not search results, not account pages)."""

    def items(self) -> list[str]:
        return [
            "home",
            "about",
            "developers",
            "contact",
            "privacy",
            "researchers:index",
            "institutions:index",
        ]

    def location(self, item: str) -> str:
        return reverse(item)


@require_GET
@x_robots_tag
def sitemap_index(request: HttpRequest, sitemaps: dict[str, type[CanonicalSitemap]]) -> TemplateResponse:
    """Every page of every section, with the section's latest lastmod (two aggregate queries a section)."""
    entries = []
    for section, sitemap_class in sitemaps.items():
        sitemap = sitemap_class()
        location = f"{settings.SITE_URL}{reverse('sitemap-section', kwargs={'section': section})}"
        latest = sitemap.get_latest_lastmod()
        entries.append(SitemapIndexItem(location, latest))
        entries.extend(
            SitemapIndexItem(f"{location}?p={page}", latest)
            for page in range(2, sitemap.paginator.num_pages + 1)
        )
    return TemplateResponse(
        request, "sitemap_index.xml", {"sitemaps": entries}, content_type="application/xml"
    )
