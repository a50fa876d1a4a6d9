from django.urls import path

from analysis.sitemaps import TopicSitemap
from core.sitemaps import sitemap_index, sitemap_section
from institutions.sitemaps import InstitutionSitemap
from pages import crawlers, views
from pages.sitemaps import PageSitemap
from papers.sitemaps import PaperSitemap
from researchers.sitemaps import ResearcherSitemap

app_name = "pages"

# Each app routes its own section; the index lists them all (by URL name), the site's pages first.
SITEMAP_SECTIONS = [
    ("pages:sitemap", PageSitemap),
    ("papers:sitemap", PaperSitemap),
    ("researchers:sitemap", ResearcherSitemap),
    ("institutions:sitemap", InstitutionSitemap),
    ("analysis:sitemap", TopicSitemap),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("about", views.static_page, {"template": "pages/about.html"}, name="about"),
    path("contact", views.static_page, {"template": "pages/contact.html"}, name="contact"),
    path("privacy", views.static_page, {"template": "pages/privacy.html"}, name="privacy"),
    path("developers", views.static_page, {"template": "pages/developers.html"}, name="developers"),
    path("favicon.ico", views.icon, {"name": "favicon.ico"}, name="favicon"),
    path("apple-touch-icon.png", views.icon, {"name": "apple-touch-icon.png"}, name="apple-touch-icon"),
    path("manifest.webmanifest", views.web_manifest, name="manifest"),
    path("robots.txt", crawlers.robots_txt, name="robots"),
    path("llms.txt", crawlers.llms_txt, name="llms"),
    path(".well-known/security.txt", crawlers.security_txt, name="security-txt"),
    path("sitemap.xml", sitemap_index, {"sections": SITEMAP_SECTIONS}, name="sitemap-index"),
    path("sitemaps/pages.xml", sitemap_section, {"sitemap_class": PageSitemap}, name="sitemap"),
]
