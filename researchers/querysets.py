from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.search import TrigramSimilarity
from django.db import connection, models
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, ExtractYear

from accounts.models import Follow
from core.expressions import in_array
from institutions.models import Affiliation
from papers.models import Authorship, Paper
from researchers.names import normalise_name

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from institutions.models import Institution
    from researchers.models import Researcher

MAX_NAME_WORDS = 6  # of a name filter; more is no name


def made_from_arxiv_names_alone(path: str = "") -> Q:
    """The researchers the grouping by names may make, join and take apart: those linked to neither
    OpenAlex nor Semantic Scholar, known from arXiv's names alone. `path` leads to the researcher from
    another model ("researcher__" from an authorship)."""
    return Q(**{f"{path}openalex_id__isnull": True, f"{path}s2_id__isnull": True})


class CoauthorPairRow(NamedTuple):
    id: int
    paper_id: int
    normalised_name: str
    researcher_id: int
    coauthor: str


class ResearcherQuerySet(models.QuerySet):
    def with_paper_counts(self) -> ResearcherQuerySet:
        """Annotates `paper_count`: papers in this corpus. A correlated subquery, so a paginated list
        counts only the rows of its page instead of aggregating every researcher first."""
        papers = (
            Authorship.objects.filter(researcher=OuterRef("pk"))
            .order_by()
            .values("researcher")
            .annotate(count=Count("paper", distinct=True))
            .values("count")
        )
        return self.annotate(paper_count=Coalesce(Subquery(papers, output_field=IntegerField()), Value(0)))

    def with_followers(self, viewer: AbstractBaseUser | AnonymousUser | None = None) -> ResearcherQuerySet:
        """Annotates `follower_count` (accounts following each researcher) and `followed` (whether `viewer`
        does; never for a signed-out viewer). Correlated subqueries: no extra query, and a page of
        researchers counts only its own."""
        followers = (
            Follow.objects.filter(researcher=OuterRef("pk"))
            .order_by()
            .values("researcher")
            .annotate(count=Count("*"))
            .values("count")
        )
        counted = self.annotate(follower_count=Coalesce(Subquery(followers), Value(0)))
        if viewer is None or not viewer.is_authenticated:
            return counted.annotate(followed=Value(False, output_field=BooleanField()))
        mine = Follow.objects.filter(researcher=OuterRef("pk"), user=viewer)
        return counted.annotate(followed=Exists(mine))

    def followed_by(self, user: AbstractBaseUser) -> ResearcherQuerySet:
        """The researchers `user` follows, latest followed first."""
        return self.filter(follows__user=user).order_by("-follows__created_at", "id")

    def most_cited_in(self, categories: list[str]) -> ResearcherQuerySet:
        """Researchers with papers in any of `categories`, most cited there first: the citations of their
        papers in those fields added up (papers without a count add nothing), then how many such papers."""
        return (
            self.filter(authorships__paper__categories__overlap=categories)
            .annotate(
                citations_in_fields=Sum("authorships__paper__cited_by_count"),
                papers_in_fields=Count("authorships__paper", distinct=True),
            )
            .order_by(F("citations_in_fields").desc(nulls_last=True), "-papers_in_fields", "id")
        )

    def with_same_name_as(self, researcher: Researcher) -> ResearcherQuerySet:
        return self.filter(normalised_name=researcher.normalised_name).exclude(pk=researcher.pk)

    def coauthors_of(self, researcher: Researcher) -> ResearcherQuerySet:
        """The researchers who share papers here with `researcher`, most shared first. Annotates
        `shared_papers` and `coauthor_total` (how many co-authors there are in all, so a slice knows)."""
        papers = Authorship.objects.filter(researcher=researcher).values("paper_id")
        return (
            self.filter(in_array("authorships__paper_id", papers))
            .exclude(pk=researcher.pk)
            .annotate(
                shared_papers=Count("authorships__paper", distinct=True),
                coauthor_total=Window(Count("*")),
            )
            .order_by("-shared_papers", "display_name", "id")
        )

    def most_papers_in_topic(self, topic_id: int) -> ResearcherQuerySet:
        """The people with the most papers in a topic (the analysis's PaperTopic rows), most first. Only
        people: a team's authorship has no researcher (a check constraint). Annotates `topic_papers`."""
        return (
            self.filter(authorships__paper__topic_links__topic_id=topic_id)
            .annotate(topic_papers=Count("authorships__paper", distinct=True))
            .order_by("-topic_papers", "display_name", "id")
        )

    def at_institution(self, institution: Institution) -> ResearcherQuerySet:
        """Researchers affiliated with the institution. A semi-join (`IN`), like Paper.objects.by_institution:
        PostgreSQL's statistics on affiliations per institution let it walk the most-cited index for a
        large institution and fetch the members by primary key for a small one."""
        return self.filter(pk__in=Affiliation.objects.filter(institution=institution).values("researcher_id"))

    def most_cited_first(self) -> ResearcherQuerySet:
        return self.order_by(
            F("citation_count").desc(nulls_last=True),
            F("h_index").desc(nulls_last=True),
            "display_name",
            "id",
        )

    def from_arxiv_names_alone(self) -> ResearcherQuerySet:
        """Researchers grouped from arXiv's names only: linked to neither OpenAlex nor Semantic Scholar."""
        return self.filter(made_from_arxiv_names_alone())

    def one_authorship_for_each_coauthor_pair(
        self, pairs: Iterable[tuple[str, str]]
    ) -> list[CoauthorPairRow]:
        """For each of these researchers and (normalised name, a person co-author's normalised name on the
        same paper) that is one of these pairs: the researcher's first stored authorship of the pair, with
        the co-author's name.

        A harvest page's grouping asks this of its ~17,000 pairs, whose names are on a third of a
        100,000-paper corpus's authorships: reading them all and pairing them in Python cost 3-4 s a
        page and grew with the corpus, this statement a quarter of a second. The names' authorships are
        read once and joined to themselves on the paper; each pair is one text (the names joined by a
        control character: normalised names are lower-case ASCII words), so the test is a hashed
        `= ANY`, not a join PostgreSQL may order badly. These researchers are applied last, to the few
        rows left (reading the authorships through them read the names' authorships twice: 0.38-0.45 s
        a page, against 0.25-0.28 s this way, the same rows, on the 100,000-paper ingest benchmark's
        next pages)."""
        pairs = list(pairs)
        names = list({name for pair in pairs for name in pair})
        researchers_sql, researchers_params = self.order_by().values("pk").query.sql_with_params()
        sql = f"""
            WITH named (id, paper_id, name, researcher_id) AS MATERIALIZED (
                SELECT id, paper_id, normalised_name, researcher_id FROM {Authorship._meta.db_table}
                WHERE normalised_name = ANY(%s::text[]) AND NOT is_collaboration
            ),
            first (id, researcher_id, coauthor) AS MATERIALIZED (
                SELECT min(one.id), one.researcher_id, other.name
                FROM named one JOIN named other ON other.paper_id = one.paper_id
                WHERE one.researcher_id IS NOT NULL AND one.name || chr(31) || other.name = ANY(%s::text[])
                GROUP BY one.researcher_id, one.name, other.name
            )
            SELECT one.id, one.paper_id, one.name, one.researcher_id, first.coauthor
            FROM first JOIN named one ON one.id = first.id
            WHERE first.researcher_id IN ({researchers_sql})
        """  # noqa: S608 - the ORM's own SQL and parameters, and the model's table
        joined_pairs = [f"{name}\x1f{coauthor}" for name, coauthor in pairs]
        with connection.cursor() as cursor:
            cursor.execute(sql, [names, joined_pairs, *researchers_params])
            return [CoauthorPairRow(*row) for row in cursor.fetchall()]

    def people(self) -> ResearcherQuerySet:
        """Researchers with a paper here as a person: never a team (teams are never researchers) nor a
        profile left without papers. An EXISTS probe of the authorship index per row of a page."""
        return self.filter(Exists(Authorship.objects.people().filter(researcher=OuterRef("pk"))))

    def named(self, text: str, *, alike: bool = True) -> ResearcherQuerySet:
        """Researchers whose name has a word starting with each word of `text`, in any order and any
        spelling ("zhao d" finds Dan Zhao and Zhao Dan, "weft" finds Zoë Weftmaker); only when no name
        reads so, and `alike`, the names alike by trigrams, for a typo ("grace hoper"). The one name filter of
        /researchers?q= and /api/researchers?name=. Which of the two is decided by a query of its own:
        one filter that held both (an OR) made PostgreSQL walk every name in order instead of reading the
        few matches from the trigram index (500 ms instead of 2 for "yang liu" in the demo corpus)."""
        normalised = normalise_name(text)
        words = normalised.split()[:MAX_NAME_WORDS]
        if not words:
            return self.none()
        starting = self
        for word in words:  # normalised words are [a-z0-9]: nothing to escape
            starting = starting.filter(normalised_name__regex=rf"(^| ){word}")
        if starting.exists():
            return starting
        return self.filter(normalised_name__trigram_similar=normalised) if alike else self.none()

    def alike_first(self, text: str) -> ResearcherQuerySet:
        """The exact name first, then the most similar (trigram similarity), then the oldest id."""
        normalised = normalise_name(text)
        return self.annotate(
            exact=ExpressionWrapper(Q(normalised_name=normalised), output_field=BooleanField()),
            similarity=TrigramSimilarity("normalised_name", normalised),
        ).order_by("-exact", "-similarity", "id")

    def matching_name(self, name: str) -> ResearcherQuerySet:
        """Researchers whose normalised name is like `name` (trigram similarity), most similar first."""
        normalised = normalise_name(name)
        if not normalised:
            return self.none()
        return (
            self.filter(normalised_name__trigram_similar=normalised)
            .annotate(similarity=TrigramSimilarity("normalised_name", normalised))
            .order_by("-similarity", "id")
        )

    def with_search_summary(self) -> ResearcherQuerySet:
        """Annotates `paper_count` (papers in this corpus) and `last_institution_id`/`_name` (their last
        known affiliation). Correlated subqueries rather than a join and GROUP BY: PostgreSQL works them out
        only for the rows that survive ORDER BY and LIMIT, however many researchers match a name."""
        last = Affiliation.objects.filter(researcher=OuterRef("pk"), last_known=True).order_by("-id")
        return self.with_paper_counts().annotate(
            last_institution_id=Subquery(last.values("institution_id")[:1]),
            last_institution_name=Subquery(last.values("institution__name")[:1]),
        )

    def with_identity_summary(self) -> ResearcherQuerySet:
        """What tells researchers of one name apart, for the same-name list and name filters: besides
        `paper_count` and the last known institution (`with_search_summary`), `first_year`/`last_year` of
        their papers here, `top_fields` (their two commonest primary categories), and the co-author they
        share most papers with (`top_coauthor_name`, `top_coauthor_papers`). Correlated subqueries: worked
        out for the rows of the page only, one query however many rows."""
        theirs = Authorship.objects.filter(researcher=OuterRef("pk")).order_by().values("researcher")
        fields = (
            Paper.objects.filter(authorships__researcher=OuterRef("pk"))
            .order_by()
            .values("primary_category")
            .annotate(papers=Count("*"))
            .order_by("-papers", "primary_category")
            .values("primary_category")[:2]
        )
        coauthors = (
            Authorship.objects.filter(paper__authorships__researcher=OuterRef("pk"), researcher__isnull=False)
            .exclude(researcher=OuterRef("pk"))
            .order_by()
            .values("researcher")
            .annotate(papers=Count("paper", distinct=True), name=Max("researcher__display_name"))
            .order_by("-papers", "researcher")
        )
        return self.with_search_summary().annotate(
            first_year=Subquery(theirs.annotate(year=Min(ExtractYear("paper__published"))).values("year")),
            last_year=Subquery(theirs.annotate(year=Max(ExtractYear("paper__published"))).values("year")),
            top_fields=ArraySubquery(fields),
            top_coauthor_name=Subquery(coauthors.values("name")[:1]),
            top_coauthor_papers=Subquery(coauthors.values("papers")[:1]),
        )
