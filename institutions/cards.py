"""What an institution's social card shows (drawn by core.cards)."""

from django.urls import reverse

from core.cards import Card, card_url
from institutions.models import Institution


def institution_card(institution: Institution, *, researcher_count: int, paper_count: int) -> Card:
    figures = (
        (f"{researcher_count:,}", "researcher here" if researcher_count == 1 else "researchers here"),
        (f"{paper_count:,}", "paper here" if paper_count == 1 else "papers here"),
    )
    byline = " · ".join(part for part in (institution.type.capitalize(), institution.country_code) if part)
    return Card(
        name=f"institution-{institution.pk}",
        eyebrow="Institution",
        title=institution.name,
        byline=byline,
        figures=figures,
        footer=f"ROR {institution.ror_id}" if institution.ror_id else "",
        alt=f"{institution.name}: {researcher_count:,} researchers and {paper_count:,} papers on wovepaper",
    )


def institution_card_url(institution: Institution, card: Card) -> str:
    return card_url(reverse("institutions:card", kwargs={"institution_id": institution.pk}), card)
