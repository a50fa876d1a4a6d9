from django.urls import path

from institutions import views

app_name = "institutions"

urlpatterns = [
    path("institutions", views.institution_index, name="index"),
    path("institutions/<int:institution_id>-<slug:slug>", views.institution_detail, name="detail"),
    path("institutions/<int:institution_id>", views.institution_detail, name="by-id"),
]
