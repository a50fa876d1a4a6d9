from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from institutions.models import Institution
from papers.models import Paper
from researchers.models import Researcher
from wovepaper.negotiation import markdown_alternative


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    counts = {
        "papers": Paper.objects.count(),
        "researchers": Researcher.objects.count(),
        "institutions": Institution.objects.count(),
    }
    latest = Paper.objects.newest_first().with_authors()[:12]
    return render(request, "pages/home.html", {"counts": counts, "latest": latest})


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and container health checks: the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")


@require_GET
@markdown_alternative
def static_page(request: HttpRequest, template: str) -> TemplateResponse:
    return TemplateResponse(request, template)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", {"missing": getattr(exception, "missing", None)}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    # Rendered without the request's context processors: whatever broke may be among them.
    html = loader.get_template("500.html").render({"SITE_NAME": settings.SITE_NAME})
    return HttpResponse(html, status=500)
