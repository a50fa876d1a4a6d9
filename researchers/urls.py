from django.urls import path

from core.sitemaps import sitemap_section
from researchers import views
from researchers.feeds import ResearcherFeed
from researchers.sitemaps import ResearcherSitemap

app_name = "researchers"

urlpatterns = [
    path("researchers", views.researcher_index, name="index"),
    path("researchers/<int:researcher_id>-<slug:slug>", views.researcher_detail, name="detail"),
    path("researchers/<int:researcher_id>", views.researcher_detail, name="by-id"),
    path("researchers/<int:researcher_id>/card.png", views.researcher_card_image, name="card"),
    path("rss/researchers/<int:researcher_id>.xml", ResearcherFeed(), name="feed"),
    path("sitemaps/researchers.xml", sitemap_section, {"sitemap_class": ResearcherSitemap}, name="sitemap"),
]
