from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from analysis.charts import monthly_chart
from analysis.models import Topic
from core.negotiation import markdown_alternative
from core.pagination import paginate
from core.responses import canonical_redirect
from papers.models import Paper
from researchers.models import Researcher

TOPIC_PAPERS_PER_PAGE = 25
TOP_RESEARCHERS_SHOWN = 10


@require_GET
@markdown_alternative
def topic_list(request: HttpRequest) -> HttpResponse:
    return TemplateResponse(request, "analysis/topic_list.html", {"topics": list(Topic.objects.current())})


@require_GET
@markdown_alternative
def topic_detail(request: HttpRequest, topic_id: int, slug: str | None = None) -> HttpResponse:
    topic = get_object_or_404(Topic, pk=topic_id)
    if topic.merged_into_id is not None:
        return canonical_redirect(request, topic.merged_into)  # a recomputation merged it
    if slug != topic.slug:
        return canonical_redirect(request, topic)
    its_papers = Paper.objects.with_topic(topic.pk)
    context = {
        "topic": topic,
        "papers": paginate(
            request, its_papers.newest_first().for_lists().with_authors(), TOPIC_PAPERS_PER_PAGE
        ),
        "researchers": list(
            Researcher.objects.most_papers_in_topic(topic.pk).only("id", "display_name")[
                :TOP_RESEARCHERS_SHOWN
            ]
        ),
        "chart": monthly_chart(its_papers.papers_per_month()),
    }
    return TemplateResponse(request, "analysis/topic_detail.html", context)
