import functools
import json
import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_GET

from core.health import dependencies
from core.negotiation import MARKDOWN_CONTENT_TYPE, markdown_alternative, prefers_markdown
from institutions.models import Institution
from papers.models import Paper
from papers.search import keyword_index
from researchers.models import Researcher

logger = logging.getLogger(__name__)

LATEST_PAPERS_SHOWN = 12
CORPUS_COUNTS_KEY = "home:corpus-counts"


@require_GET
@markdown_alternative
def home(request: HttpRequest) -> HttpResponse:
    counts = cache.get_or_set(CORPUS_COUNTS_KEY, _corpus_counts, settings.PAGE_FIGURES_TTL)
    latest = Paper.objects.newest_first().for_lists().with_authors()[:LATEST_PAPERS_SHOWN]
    return TemplateResponse(request, "pages/home.html", {"counts": counts, "latest": latest})


def _corpus_counts() -> dict[str, int]:
    """What the home page says the corpus holds, counted once per PAGE_FIGURES_TTL: exact counts of a
    quarter of a million papers and their researchers took 70 ms of each view, and under 20 readers the
    home page was the slowest of the site's pages (p50 460 ms, bench/results/loadtest-bench-158300.json)."""
    return {
        "papers": Paper.objects.count(),
        "researchers": Researcher.objects.count(),
        "institutions": Institution.objects.count(),
    }


ICONS = settings.BASE_DIR / "static" / "icons"
ICON_FILES = {"favicon.ico": "image/x-icon", "apple-touch-icon.png": "image/png"}
ICON_MAX_AGE = 86400


@functools.cache
def _icon_bytes(name: str) -> bytes:
    return (ICONS / name).read_bytes()


@require_GET
def icon(request: HttpRequest, name: str) -> HttpResponse:
    """/favicon.ico and /apple-touch-icon.png, where browsers look for them unasked (pages link the same
    files under /static/ too)."""
    response = HttpResponse(_icon_bytes(name), content_type=ICON_FILES[name])
    patch_cache_control(response, public=True, max_age=ICON_MAX_AGE)
    return response


@require_GET
def web_manifest(request: HttpRequest) -> HttpResponse:
    manifest = {
        "name": settings.SITE_NAME,
        "short_name": settings.SITE_NAME,
        "description": "Open scholarly search: arXiv papers, their researchers and institutions.",
        "start_url": "/",
        "scope": "/",
        "display": "browser",
        "background_color": "#fbf8f1",
        "theme_color": "#fbf8f1",
        "icons": [
            {"src": static("icons/icon.svg"), "type": "image/svg+xml", "sizes": "any"},
            {
                "src": static("icons/icon-192.png"),
                "type": "image/png",
                "sizes": "192x192",
                "purpose": "any maskable",
            },
            {
                "src": static("icons/icon-512.png"),
                "type": "image/png",
                "sizes": "512x512",
                "purpose": "any maskable",
            },
        ],
    }
    response = HttpResponse(json.dumps(manifest, indent=2), content_type="application/manifest+json")
    patch_cache_control(response, public=True, max_age=ICON_MAX_AGE)
    return response


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness, for container health checks and load balancers: this process serves requests. It does
    not ask the database or Redis: a web process cannot fix them, and restarting it would not help."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness, for monitoring: each dependency, reported separately; 503 when any of them is down.
    Pages degrade without Redis (core.cache), so this is where its absence shows."""
    status = dependencies()
    body = {name: "ok" if up else "unavailable" for name, up in status.items()}
    # Keyword search degrades to PostgreSQL's ranking without its index: reported, not a failure.
    index_state = keyword_index.state() if status["database"] else "unknown"
    body["keyword_index"] = index_state if index_state == "ok" else f"{index_state}: PostgreSQL ranks"
    return JsonResponse(body, status=200 if all(status.values()) else 503)


@require_GET
@markdown_alternative
def static_page(request: HttpRequest, template: str) -> HttpResponse:
    return TemplateResponse(request, template)


def not_found(request: HttpRequest, *, queued_arxiv_id: str | None = None) -> TemplateResponse:
    """The 404 page, a guide to the site's addresses, in HTML or (to `Accept: text/markdown`) Markdown; for
    a paper we do not have yet, it says that a fetch from arXiv has been queued."""
    context = {"queued_arxiv_id": queued_arxiv_id}
    if prefers_markdown(request):
        response = TemplateResponse(
            request, "404.md", context, status=404, content_type=MARKDOWN_CONTENT_TYPE
        )
    else:
        response = TemplateResponse(request, "404.html", context, status=404)
    patch_vary_headers(response, ["Accept"])
    return response


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return not_found(request).render()


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A 400 page that says what was wrong: the views raise BadRequest with a message meant for people."""
    message = str(exception) if exception is not None else ""
    return TemplateResponse(request, "400.html", {"message": message}, status=400).render()


def server_error(request: HttpRequest) -> HttpResponse:
    # Rendered without the request's context processors: whatever broke may be among them.
    context = {
        "SITE_NAME": settings.SITE_NAME,
        "SITE_URL": settings.SITE_URL,
        "CONTACT_EMAIL": settings.CONTACT_EMAIL,
    }
    markdown = prefers_markdown(request)
    try:
        body = loader.get_template("500.md" if markdown else "500.html").render(context)
    except Exception:  # the frame itself failed (static manifest, a template): answer in plain text
        logger.exception("the 500 page could not be rendered")
        return HttpResponse("Something went wrong on our side.", status=500, content_type="text/plain")
    response = HttpResponse(body, status=500, content_type=MARKDOWN_CONTENT_TYPE if markdown else None)
    patch_vary_headers(response, ["Accept"])
    return response
