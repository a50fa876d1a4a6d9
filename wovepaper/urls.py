"""Every app's URLs under one root; the JSON API's frame and the admin are the project's own."""

from django.contrib import admin
from django.urls import include, path

from accounts.views.auth import admin_sign_in
from wovepaper import api

urlpatterns = [
    path("", include("pages.urls")),
    path("", include("papers.urls")),
    path("", include("papers.search.urls")),
    path("", include("researchers.urls")),
    path("", include("institutions.urls")),
    path("", include("harvest.urls")),
    path("", include("accounts.urls")),
    path("admin/login/", admin_sign_in),  # the site's sign-in limits, before the admin's own URLs
    path("", include("chat.urls")),
    path("", include("analysis.urls")),
    path("admin/", admin.site.urls),
    path("openapi.json", api.openapi_json, name="openapi"),
    path("api/docs", api.api_docs, name="api-docs"),
    path("api/", api.api.urls),
]

handler400 = "pages.views.bad_request"
handler404 = "pages.views.page_not_found"
handler500 = "pages.views.server_error"
