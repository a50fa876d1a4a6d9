from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse

from core.links import absolute_url
from papers.feeds import FEED_LENGTH, PaperFeed
from papers.models import Paper
from researchers.models import Researcher, ResearcherRedirect


class ResearcherFeed(PaperFeed):
    """A researcher's latest papers. An absorbed researcher's feed moves, like their page, to the survivor."""

    def __call__(self, request: HttpRequest, researcher_id: int) -> HttpResponse:
        try:
            return super().__call__(request, researcher_id=researcher_id)
        except Http404:
            absorbed = get_object_or_404(ResearcherRedirect, old_id=researcher_id)
            return HttpResponsePermanentRedirect(
                reverse("researchers:feed", kwargs={"researcher_id": absorbed.researcher_id})
            )

    def get_object(self, request: HttpRequest, researcher_id: int) -> Researcher:
        return get_object_or_404(Researcher, pk=researcher_id)

    def title(self, researcher: Researcher) -> str:
        return f"{settings.SITE_NAME}: papers by {researcher.display_name}"

    def description(self, researcher: Researcher) -> str:
        return f"The {FEED_LENGTH} latest papers by {researcher.display_name} on {settings.SITE_NAME}."

    def link(self, researcher: Researcher) -> str:
        return absolute_url(researcher.get_absolute_url())

    def feed_url(self, researcher: Researcher) -> str:
        return absolute_url(reverse("researchers:feed", kwargs={"researcher_id": researcher.pk}))

    def items(self, researcher: Researcher) -> list[Paper]:
        return list(Paper.objects.by_researcher(researcher).newest_first()[:FEED_LENGTH])
