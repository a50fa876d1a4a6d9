"""The institution fields every API answer that names an institution carries (its own detail, a
researcher's affiliations, search's name matches). Apart from institutions/api.py, which imports the
researchers' API, so that both can build on it."""

from django.urls import reverse
from ninja import Field, Schema

from core.links import absolute_url
from institutions.models import Institution


class InstitutionBriefOut(Schema):
    id: int
    name: str
    ror_id: str | None
    country_code: str = Field(description="ISO 3166-1 alpha-2; empty when not known.")
    url: str = Field(description="The institution's canonical page here.")
    api_url: str

    @staticmethod
    def resolve_url(institution: Institution) -> str:
        return absolute_url(institution.get_absolute_url())

    @staticmethod
    def resolve_api_url(institution: Institution) -> str:
        return absolute_url(reverse("api:institution", kwargs={"key": str(institution.pk)}))
