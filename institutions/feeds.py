from django.conf import settings
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse

from core.links import absolute_url
from institutions.models import Institution
from papers.feeds import FEED_LENGTH, PaperFeed
from papers.models import Paper


class InstitutionFeed(PaperFeed):
    """The latest papers with an author affiliated with the institution."""

    def get_object(self, request: HttpRequest, institution_id: int) -> Institution:
        return get_object_or_404(Institution, pk=institution_id)

    def title(self, institution: Institution) -> str:
        return f"{settings.SITE_NAME}: papers from {institution.name}"

    def description(self, institution: Institution) -> str:
        return f"The {FEED_LENGTH} latest papers with an author at {institution.name}."

    def link(self, institution: Institution) -> str:
        return absolute_url(institution.get_absolute_url())

    def feed_url(self, institution: Institution) -> str:
        return absolute_url(reverse("institutions:feed", kwargs={"institution_id": institution.pk}))

    def items(self, institution: Institution) -> list[Paper]:
        return list(Paper.objects.by_institution(institution).newest_first()[:FEED_LENGTH])
