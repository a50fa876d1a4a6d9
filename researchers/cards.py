"""What a researcher's social card shows (drawn by core.cards)."""

from collections.abc import Sequence

from django.urls import reverse

from core.cards import Card, card_url
from institutions.models import Institution
from researchers.models import Researcher


def researcher_card(researcher: Researcher, *, institutions: Sequence[Institution]) -> Card:
    """Expects the researcher `with_paper_counts()`; `institutions`, the last known ones."""
    papers = researcher.paper_count
    figures = [(f"{papers:,}", "paper here" if papers == 1 else "papers here")]
    if researcher.h_index is not None:
        figures.append((f"{researcher.h_index:,}", "h-index"))
    if researcher.citation_count is not None:
        figures.append((f"{researcher.citation_count:,}", "citations"))
    byline = " · ".join(institution.name for institution in institutions[:2])
    return Card(
        name=f"researcher-{researcher.pk}",
        eyebrow="Researcher",
        title=researcher.display_name,
        byline=byline,
        figures=tuple(figures),
        alt=f"{researcher.display_name}: {papers:,} papers on wovepaper",
    )


def researcher_card_url(researcher: Researcher, card: Card) -> str:
    return card_url(reverse("researchers:card", kwargs={"researcher_id": researcher.pk}), card)
