from django.urls import path

from analysis import views
from analysis.feeds import TopicFeed
from analysis.sitemaps import TopicSitemap
from core.sitemaps import sitemap_section

app_name = "analysis"

urlpatterns = [
    path("topics", views.topic_list, name="topics"),
    path("topics/<int:topic_id>", views.topic_detail, name="topic-by-id"),
    path("topics/<int:topic_id>-<slug:slug>", views.topic_detail, name="topic"),
    path("rss/topics/<int:topic_id>.xml", TopicFeed(), name="feed"),
    path("sitemaps/topics.xml", sitemap_section, {"sitemap_class": TopicSitemap}, name="sitemap"),
]
