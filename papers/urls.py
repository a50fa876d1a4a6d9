from django.urls import path, re_path

from core.sitemaps import sitemap_section
from papers import views
from papers.feeds import CategoryFeed, LatestPapersFeed
from papers.sitemaps import PaperSitemap

app_name = "papers"

# New style 2201.12423[v2] or old style astro-ph/9901001[v1]; the view sorts out versions and slugs.
ARXIV_ID = r"(?P<arxiv_id>\d{4}\.\d{4,5}(?:v\d+)?|[a-zA-Z][a-zA-Z\-]*(?:\.[A-Za-z]{2})?/\d{7}(?:v\d+)?)"

urlpatterns = [
    re_path(rf"^papers/{ARXIV_ID}-(?P<slug>[-a-zA-Z0-9_]*)$", views.paper_detail, name="detail"),
    re_path(rf"^papers/{ARXIV_ID}/?$", views.paper_detail, name="by-id"),
    re_path(rf"^papers/{ARXIV_ID}/card\.png$", views.paper_card_image, name="card"),
    path("rss/latest.xml", LatestPapersFeed(), name="feed-latest"),
    path("rss/category/<str:category>.xml", CategoryFeed(), name="feed-category"),
    path("sitemaps/papers.xml", sitemap_section, {"sitemap_class": PaperSitemap}, name="sitemap"),
]
