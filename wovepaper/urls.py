from django.contrib import admin
from django.urls import include, path

from wovepaper import views

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
    path("admin/", admin.site.urls),
]

handler404 = "wovepaper.views.page_not_found"
handler500 = "wovepaper.views.server_error"
