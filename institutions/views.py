from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from institutions.models import Institution
from wovepaper.pagination import paginate


@require_GET
def institution_index(request: HttpRequest) -> HttpResponse:
    institutions = paginate(request, Institution.objects.order_by("name", "id"), 50)
    return render(request, "institutions/index.html", {"institutions": institutions})


@require_GET
def institution_detail(request: HttpRequest, institution_id: int, slug: str | None = None) -> HttpResponse:
    institution = get_object_or_404(Institution, pk=institution_id)
    if slug != institution.slug:
        return redirect(institution, permanent=True)
    return render(request, "institutions/detail.html", {"institution": institution})
