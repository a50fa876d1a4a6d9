"""What a paper's social card shows (drawn by core.cards)."""

from django.urls import reverse
from django.utils.dateformat import format as format_date

from core.cards import Card, card_url
from core.latex import readable_text
from papers.models import Paper

AUTHORS_NAMED = 4


def paper_card(paper: Paper) -> Card:
    names = paper.authors
    byline = ", ".join(names[:AUTHORS_NAMED])
    if len(names) > AUTHORS_NAMED:
        byline += f" and {len(names) - AUTHORS_NAMED:,} more"
    figures = [(format_date(paper.published, "j M Y"), "first posted")]
    if paper.cited_by_count is not None:
        figures.append(
            (f"{paper.cited_by_count:,}", "citation" if paper.cited_by_count == 1 else "citations")
        )
    eyebrow = f"Paper · {paper.primary_category}" if paper.primary_category else "Paper"
    title = readable_text(paper.title)
    return Card(
        name=f"paper-{paper.arxiv_id}",
        eyebrow=eyebrow,
        title=title,
        byline=byline,
        figures=tuple(figures),
        footer=f"arXiv:{paper.arxiv_id}",
        alt=f"{title}, by {byline}" if byline else title,
    )


def paper_card_url(paper: Paper, card: Card) -> str:
    return card_url(reverse("papers:card", kwargs={"arxiv_id": paper.arxiv_id}), card)
