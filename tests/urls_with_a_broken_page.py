"""The site's URLs plus one page that fails, to see the 500 page the way a visitor would."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from wovepaper.urls import handler400, handler404, handler500  # noqa: F401 - Django reads them from here
from wovepaper.urls import urlpatterns as site_urlpatterns


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("broken on purpose")


urlpatterns = [path("broken", broken), *site_urlpatterns]
