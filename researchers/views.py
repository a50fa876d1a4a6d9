from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from papers.models import Paper
from researchers.models import Researcher, ResearcherRedirect
from wovepaper.pagination import paginate


@require_GET
def researcher_index(request: HttpRequest) -> HttpResponse:
    researchers = paginate(request, Researcher.objects.order_by("display_name", "id"), 50)
    return render(request, "researchers/index.html", {"researchers": researchers})


@require_GET
def researcher_detail(request: HttpRequest, researcher_id: int, slug: str | None = None) -> HttpResponse:
    researcher = Researcher.objects.filter(pk=researcher_id).first()
    if researcher is None:
        absorbed = get_object_or_404(
            ResearcherRedirect.objects.select_related("researcher"), old_id=researcher_id
        )
        return redirect(absorbed.researcher, permanent=True)
    if slug != researcher.slug:
        return redirect(researcher, permanent=True)
    papers = paginate(request, Paper.objects.by_researcher(researcher).newest_first().with_authors(), 24)
    return render(request, "researchers/detail.html", {"researcher": researcher, "papers": papers})
