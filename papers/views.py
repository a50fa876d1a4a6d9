from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from papers.identifiers import parse_arxiv_id
from papers.models import Paper


@require_GET
def paper_detail(request: HttpRequest, arxiv_id: str, slug: str | None = None) -> HttpResponse:
    parsed = parse_arxiv_id(arxiv_id)
    if parsed is None:
        raise Http404("Not an arXiv identifier")
    paper = get_object_or_404(Paper.objects.with_authors(), arxiv_id=parsed.id)
    if parsed.version is not None or slug != paper.slug:
        return redirect(paper, permanent=True)
    return render(request, "papers/detail.html", {"paper": paper})
