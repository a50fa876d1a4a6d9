from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("topics", views.topic_list, name="topics"),
    path("topics/<int:topic_id>", views.topic_detail, name="topic-by-id"),
    path("topics/<int:topic_id>-<slug:slug>", views.topic_detail, name="topic"),
]
