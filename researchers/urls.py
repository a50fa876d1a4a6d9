from django.urls import path

from researchers import views

app_name = "researchers"

urlpatterns = [
    path("researchers", views.researcher_index, name="index"),
    path("researchers/<int:researcher_id>-<slug:slug>", views.researcher_detail, name="detail"),
    path("researchers/<int:researcher_id>", views.researcher_detail, name="by-id"),
]
