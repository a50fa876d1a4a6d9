from django.urls import path

from harvest import views

app_name = "harvest"

urlpatterns = [
    path("harvest/status", views.harvest_status, name="status"),
]
