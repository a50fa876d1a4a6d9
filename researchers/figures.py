"""A researcher profile's figures: fields, author positions, co-authors and their network, the most cited
paper, last known institutions and others of the same name.

Each is an SQL aggregate over all the researcher's papers (hundreds for a prolific one) and changes only
when a harvest attaches papers or refreshes metrics; so together they are cached for PAGE_FIGURES_TTL
seconds rather than computed on every view of the profile.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from analysis.models import Topic  # the profile links the topics of the researcher's papers
from institutions.models import Institution
from papers.models import Authorship, Paper
from researchers.models import Researcher

COAUTHORS_SHOWN = 12
TOPICS_SHOWN = 5
SAME_NAME_SHOWN = 10


@dataclass(frozen=True)
class ProfileFigures:
    fields: list[dict]  # {"category", "paper_count"}, largest first, as category_counts() gives them
    positions: dict[str, int]  # papers as first, middle, last and sole author
    coauthors: list[Researcher]  # annotated with shared_papers and coauthor_total, most shared first
    coauthor_pairs: list[tuple[int, int, int]]  # co-authors who also wrote together: (id, id, papers)
    most_cited: Paper | None
    citations: dict[str, int | None]  # their papers' cited-by counts: `total` and `papers_counted`
    institutions: list[Institution]  # last known
    same_name: list[Researcher]  # annotated by with_identity_summary: what tells them apart
    topics: list[Topic]  # of their papers, annotated with paper_count, most first

    @property
    def positions_known(self) -> int:
        return sum(self.positions.values())

    @property
    def coauthor_total(self) -> int:
        return self.coauthors[0].coauthor_total if self.coauthors else 0


def profile_figures(researcher: Researcher) -> ProfileFigures:
    def compute() -> ProfileFigures:
        their_papers = Paper.objects.by_researcher(researcher)
        coauthors = list(Researcher.objects.coauthors_of(researcher)[:COAUTHORS_SHOWN])
        return ProfileFigures(
            fields=list(their_papers.category_counts()),
            positions=Authorship.objects.filter(researcher=researcher).author_position_counts(),
            coauthors=coauthors,
            coauthor_pairs=Authorship.objects.coauthor_pairs(researcher, among=[c.pk for c in coauthors]),
            most_cited=their_papers.filter(cited_by_count__isnull=False).most_cited().for_lists().first(),
            citations=their_papers.citation_totals(),
            institutions=list(Institution.objects.last_known_for(researcher)),
            same_name=list(
                Researcher.objects.with_same_name_as(researcher)
                .people()
                .with_identity_summary()
                .order_by("-paper_count", "id")[:SAME_NAME_SHOWN]
            ),
            topics=Topic.objects.most_common_among(their_papers, limit=TOPICS_SHOWN),
        )

    return cache.get_or_set(f"researcher-profile-figures:{researcher.pk}", compute, settings.PAGE_FIGURES_TTL)
