from django.contrib import admin
from django.urls import include, path

from institutions.feeds import InstitutionFeed
from institutions.sitemaps import InstitutionSitemap
from papers.feeds import CategoryFeed, LatestPapersFeed
from papers.sitemaps import PaperSitemap
from researchers.feeds import ResearcherFeed
from researchers.sitemaps import ResearcherSitemap
from wovepaper import api, crawlers, views
from wovepaper.sitemaps import PageSitemap, sitemap_index, sitemap_section

SITEMAPS = {
    "pages": PageSitemap,
    "papers": PaperSitemap,
    "researchers": ResearcherSitemap,
    "institutions": InstitutionSitemap,
}

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("about", views.static_page, {"template": "pages/about.html"}, name="about"),
    path("contact", views.static_page, {"template": "pages/contact.html"}, name="contact"),
    path("privacy", views.static_page, {"template": "pages/privacy.html"}, name="privacy"),
    path("developers", views.static_page, {"template": "pages/developers.html"}, name="developers"),
    path("", include("papers.urls")),
    path("", include("papers.search.urls")),
    path("", include("researchers.urls")),
    path("", include("institutions.urls")),
    path("", include("harvest.urls")),
    path("", include("wovepaper.accounts.urls")),
    path("admin/", admin.site.urls),
    path("robots.txt", crawlers.robots_txt, name="robots"),
    path("llms.txt", crawlers.llms_txt, name="llms"),
    path("sitemap.xml", sitemap_index, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("sitemaps/<slug:section>.xml", sitemap_section, {"sitemaps": SITEMAPS}, name="sitemap-section"),
    path("rss/latest.xml", LatestPapersFeed(), name="feed-latest"),
    path("rss/category/<str:category>.xml", CategoryFeed(), name="feed-category"),
    path("rss/researchers/<int:researcher_id>.xml", ResearcherFeed(), name="feed-researcher"),
    path("rss/institutions/<int:institution_id>.xml", InstitutionFeed(), name="feed-institution"),
    path("openapi.json", api.openapi_json, name="openapi"),
    path("api/docs", api.api_docs, name="api-docs"),
    path("api/", api.api.urls),
]

handler400 = "wovepaper.views.bad_request"
handler404 = "wovepaper.views.page_not_found"
handler500 = "wovepaper.views.server_error"
