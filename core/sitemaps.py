"""Sitemaps: an index at /sitemap.xml pointing to one sitemap per section (papers, researchers,
institutions, the site's own pages), each paginated at 50,000 URLs with `?p=`. Every address in them is
the canonical one under SITE_URL, whatever host the request came to."""

import datetime
from typing import Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps.views import SitemapIndexItem, x_robots_tag
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import http_date
from django.views.decorators.http import require_GET

URLSET_OPEN = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)
URLSET_CLOSE = "</urlset>\n"


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


@require_GET
@x_robots_tag
def sitemap_index(
    request: HttpRequest, sections: list[tuple[str, type[CanonicalSitemap]]]
) -> TemplateResponse:
    """Every page of every section (the URL name of its sitemap_section view, and its class), with the
    section's latest lastmod (two aggregate queries a section)."""
    entries = []
    for url_name, sitemap_class in sections:
        sitemap = sitemap_class()
        location = f"{settings.SITE_URL}{reverse(url_name)}"
        latest = sitemap.get_latest_lastmod()
        entries.append(SitemapIndexItem(location, latest))
        entries.extend(
            SitemapIndexItem(f"{location}?p={page}", latest)
            for page in range(2, sitemap.paginator.num_pages + 1)
        )
    return TemplateResponse(
        request, "sitemap_index.xml", {"sitemaps": entries}, content_type="application/xml"
    )


@require_GET
@x_robots_tag
def sitemap_section(request: HttpRequest, sitemap_class: type[CanonicalSitemap]) -> HttpResponse:
    """One page (`?p=`) of a section, which each app routes for its own sitemap class: written out
    directly rather than through a template, since a full page of 50,000 addresses took Django's sitemap
    template about five seconds."""
    sitemap = sitemap_class()
    try:
        items = sitemap.paginator.page(request.GET.get("p", 1)).object_list
    except (EmptyPage, PageNotAnInteger):
        raise Http404("No such sitemap page") from None
    origin = settings.SITE_URL
    entries, latest = [], None
    for item in items:
        lastmod = sitemap.lastmod(item)
        tag = f"<lastmod>{lastmod.date().isoformat()}</lastmod>" if lastmod else ""
        entries.append(f"<url><loc>{escape(origin + sitemap.location(item))}</loc>{tag}</url>\n")
        if lastmod and (latest is None or lastmod > latest):
            latest = lastmod
    response = HttpResponse([URLSET_OPEN, *entries, URLSET_CLOSE], content_type="application/xml")
    if latest:
        response["Last-Modified"] = http_date(latest.timestamp())
    return response
