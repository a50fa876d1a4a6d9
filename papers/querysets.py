from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NamedTuple

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection, models
from django.db.models import (
    Case,
    CharField,
    Count,
    Exists,
    F,
    Func,
    OuterRef,
    Prefetch,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import TruncMonth
from pgvector.django import CosineDistance

from analysis.models import PaperTopic  # a paper's topics; analysis.models imports no papers module
from core.expressions import in_array
from core.pipelining import Pending, rows_meanwhile
from institutions.models import Affiliation
from papers.identifiers import ArxivId, parse_arxiv_id
from papers.search.querysets import PaperSearchQuerySet, iterative_index_scan

if TYPE_CHECKING:
    from institutions.models import Institution
    from papers.models import Paper
    from researchers.models import Researcher
    from researchers.querysets import ResearcherQuerySet


# How a normalised name's first and last words are read, in SQL: one rule for the expressions below and
# for name_word_counts' statement. The last word is greedy: everything up to the last space goes.
_FIRST_WORD = "split_part({name}, ' ', 1)"
_LAST_WORD = "regexp_replace({name}, '^.* ', '')"


def _first_word() -> Func:
    return Func(
        F("normalised_name"), template=_FIRST_WORD.format(name="%(expressions)s"), output_field=CharField()
    )


def _last_word() -> Func:
    return Func(
        F("normalised_name"), template=_LAST_WORD.format(name="%(expressions)s"), output_field=CharField()
    )


# A similar-papers list's candidate list: pgvector's default, as many as the longest list asks for (25).
SIMILAR_EF_SEARCH = 40
# The closest-earlier walk's candidate list: pgvector's default, not the search's 100. On the 100,000-
# paper benchmark corpus (2026-12-03, load average 6-7) a batch of 256 walks took 580-640 ms at 40 and
# 720-1,850 ms at 100, with recall@3 1.000 at both against an exact scan of 200 papers (0.998 at 20).
CLOSEST_EARLIER_EF_SEARCH = 40
# The corpus's oldest papers have their earlier papers compared exactly, not walked: a walk filtered to
# the few papers before a date goes through many candidates for each one it keeps, and at pgvector's
# hnsw.max_scan_tuples gives up with some missed. On the 100,000-paper benchmark corpus (2026-12-03, load
# average 1.5) the batch of its 256 oldest sampled papers took 2.0-2.4 s walked and 1.0 s with its
# papers among the oldest 1,000 compared exactly (0.99 of the walks' top 3 the same, the rest closer);
# 3,000 was slower again (2.1-2.3 s), each exact comparison fetching thousands of rows.
CLOSEST_EARLIER_EXACT_PAPERS = 1000


class NameWordCounts(NamedTuple):
    given: dict[str, int]  # distinct names by their first word
    family: dict[str, int]  # ... by their last word
    total: int  # distinct names of two words or more


class PaperQuerySet(PaperSearchQuerySet):
    def by_arxiv_id(self, arxiv_id: str | ArxivId) -> PaperQuerySet:
        """The paper an arXiv id names, in any of its written forms (with a version, as a URL…); none
        when the text is not an arXiv id."""
        parsed = arxiv_id if isinstance(arxiv_id, ArxivId) else parse_arxiv_id(arxiv_id)
        return self.filter(arxiv_id=parsed.id) if parsed is not None else self.none()

    def newest_first(self) -> PaperQuerySet:
        return self.order_by("-published", "-arxiv_id")

    def oldest_first(self) -> PaperQuerySet:
        return self.order_by("published", "arxiv_id")

    def most_cited(self) -> PaperQuerySet:
        return self.order_by(F("cited_by_count").desc(nulls_last=True), "-published", "-arxiv_id")

    def by_researcher(self, researcher: Researcher) -> PaperQuerySet:
        """Each of the researcher's papers once (no duplicates, safe to aggregate over)."""
        from papers.models import Authorship  # cycle: papers.models imports this module

        authored = Authorship.objects.filter(researcher=researcher)
        return self.filter(in_array("pk", authored.values("paper_id")))

    def by_researchers(self, researchers: ResearcherQuerySet) -> PaperQuerySet:
        """Each paper with an author among `researchers` (a queryset, run as a subquery) once."""
        from papers.models import Authorship  # cycle: papers.models imports this module

        authored = Authorship.objects.filter(in_array("researcher_id", researchers.values("pk")))
        return self.filter(in_array("pk", authored.values("paper_id")))

    def by_institution(self, institution: Institution) -> PaperQuerySet:
        """Papers with an author affiliated with the institution (each paper once).

        A semi-join (`IN`), unlike by_researcher: an institution's papers can be a sizeable share of the
        corpus, and fetching them all by primary key to sort them costs tens of milliseconds, where
        walking the date index and probing membership finds a page in a few. PostgreSQL's statistics on
        affiliations per institution let it choose the other way round for a small institution."""
        from papers.models import Authorship  # cycle: papers.models imports this module

        return self.filter(pk__in=Authorship.objects.by_members_of(institution).values("paper_id"))

    def with_topic(self, topic_id: int) -> PaperQuerySet:
        """Papers with this topic among their nearest (the analysis's PaperTopic rows; a paper has a
        topic at most once, so the join repeats none)."""
        return self.filter(topic_links__topic_id=topic_id)

    def in_category(self, category: str) -> PaperQuerySet:
        return self.filter(categories__contains=[category])

    def references_of(self, paper: Paper) -> PaperQuerySet:
        """The papers in the corpus that `paper` cites: what it builds on."""
        return self.filter(citations_in__citing=paper)

    def citations_of(self, paper: Paper) -> PaperQuerySet:
        """The papers in the corpus that cite `paper`: what builds on it."""
        return self.filter(references_out__cited=paper)

    def similar_to(self, paper: Paper) -> PaperQuerySet:
        """Nearest neighbours by embedding (cosine, through the HNSW index), nearest first."""
        if paper.embedding is None:
            return self.none()
        return (
            self.exclude(pk=paper.pk)
            .filter(embedding__isnull=False)
            .annotate(distance=CosineDistance("embedding", paper.embedding))
            .order_by("distance")
        )

    def most_similar_to(self, paper: Paper, *, count: int) -> list[Paper]:
        """The `count` papers nearest to `paper` by meaning, nearest first. An iterative walk: index
        entries of rows no longer there (updated or deleted, until a vacuum) take candidates' places, and
        a plain walk then came back short (19 of 25)."""
        with iterative_index_scan(ef_search=max(SIMILAR_EF_SEARCH, count)):
            nearest = list(self.similar_to(paper)[:count])
        return sorted(nearest, key=lambda similar: similar.distance)  # relaxed order: nearly sorted

    def closest_earlier(
        self, paper_ids: list[int], *, count: int, exact_papers: int = CLOSEST_EARLIER_EXACT_PAPERS
    ) -> dict[int, list[tuple[int, float]]]:
        """For each of these papers with a vector, the `count` nearest papers posted before it (an earlier
        date, or the same date and a smaller arXiv id), nearest first: {id: [(earlier id, cosine
        distance), …]}."""
        with self.closest_earlier_meanwhile(paper_ids, count=count, exact_papers=exact_papers) as earlier:
            pass
        return earlier.result

    @contextmanager
    def closest_earlier_meanwhile(
        self, paper_ids: list[int], *, count: int, exact_papers: int = CLOSEST_EARLIER_EXACT_PAPERS
    ) -> Iterator[Pending[dict[int, list[tuple[int, float]]]]]:
        """`closest_earlier`, sent ahead: the block runs while PostgreSQL finds them (for Python work: see
        core.pipelining), and the answer is in `result` after it.

        One statement. A paper among the corpus's `exact_papers` oldest is compared with every paper
        before it (they are few; `+ 0` keeps the vector index out of that ordering). Any other walks the
        HNSW index, continued past the candidates the date filter rejects (iterative scan), and asks for
        three times as many as kept, because a relaxed-order scan returns its rows only roughly by
        distance."""
        sql = """
            WITH cutoff AS (
                SELECT published, arxiv_id FROM papers_paper
                ORDER BY published, arxiv_id OFFSET %(exact_papers)s LIMIT 1
            )
            SELECT paper.id, earlier.id, earlier.distance
            FROM papers_paper paper
            -- a cutoff only for the papers from it on: theirs are walked
            LEFT JOIN cutoff ON (paper.published, paper.arxiv_id) >= (cutoff.published, cutoff.arxiv_id)
            CROSS JOIN LATERAL (
                (
                    SELECT other.id, other.embedding <=> paper.embedding AS distance
                    FROM papers_paper other
                    WHERE cutoff.published IS NOT NULL
                      AND other.embedding IS NOT NULL
                      AND (other.published, other.arxiv_id) < (paper.published, paper.arxiv_id)
                    ORDER BY other.embedding <=> paper.embedding
                    LIMIT %(walked)s
                )
                UNION ALL
                (
                    SELECT other.id, other.embedding <=> paper.embedding AS distance
                    FROM papers_paper other
                    WHERE cutoff.published IS NULL
                      AND other.published <= paper.published
                      AND other.embedding IS NOT NULL
                      AND (other.published, other.arxiv_id) < (paper.published, paper.arxiv_id)
                    ORDER BY (other.embedding <=> paper.embedding) + 0
                    LIMIT %(count)s
                )
            ) earlier
            WHERE paper.id = ANY(%(papers)s) AND paper.embedding IS NOT NULL
            ORDER BY paper.id, earlier.distance, earlier.id
        """
        answer: Pending[dict[int, list[tuple[int, float]]]] = Pending()
        if not paper_ids:
            answer.result = {}
            yield answer
            return
        params = {
            "exact_papers": exact_papers,
            "walked": count * 3,
            "count": count,
            "papers": list(paper_ids),
        }
        with (
            iterative_index_scan(ef_search=CLOSEST_EARLIER_EF_SEARCH),
            rows_meanwhile(sql, params) as rows,
        ):
            yield answer
        found: dict[int, list[tuple[int, float]]] = {}
        for paper_id, earlier_id, distance in rows.result:
            nearest = found.setdefault(paper_id, [])
            if len(nearest) < count:
                nearest.append((earlier_id, float(distance)))
        answer.result = found

    def closest_earlier_of(self, paper: Paper) -> list[Paper]:
        """The earlier papers the analysis found closest to `paper` (its `closest_earlier`), closest
        first; none before it has been analysed."""
        analysis = paper.analysis_or_none
        order = (analysis.closest_earlier if analysis else None) or []
        found = {earlier.pk: earlier for earlier in self.filter(pk__in=order)}
        return [found[pk] for pk in order if pk in found]

    def citation_totals(self) -> dict[str, int | None]:
        """`total`: the cited-by counts of these papers added up (None when none has one);
        `papers_counted`: how many of them have a count."""
        return self.aggregate(total=Sum("cited_by_count"), papers_counted=Count("cited_by_count"))

    def category_counts(self) -> models.QuerySet:
        """How many of these papers carry each arXiv category (cross-lists included, so a count is what
        the category filter shows): dicts of `category` and `paper_count`, largest first."""
        return (
            self.order_by()
            .annotate(category=Func(F("categories"), function="unnest", output_field=CharField()))
            .values("category")
            .annotate(paper_count=Count("pk"))
            .order_by("-paper_count", "category")
        )

    def topic_counts(self) -> models.QuerySet:
        """How many of these papers have each topic among their nearest: dicts of `topic_id` and
        `paper_count`, largest first."""
        return (
            PaperTopic.objects.filter(paper__in=self.order_by().values("pk"))
            .values("topic_id")
            .annotate(paper_count=Count("paper_id"))
            .order_by("-paper_count", "topic_id")
        )

    def with_topic_ids(self) -> PaperQuerySet:
        """Annotates `topic_ids`: the ids of each paper's nearest topics, nearest first (a subquery a
        paper, answered by the (paper, rank) index, rather than an aggregate over a join)."""
        return self.annotate(
            topic_ids=ArraySubquery(
                PaperTopic.objects.filter(paper=OuterRef("pk")).order_by("rank").values("topic_id")
            )
        )

    def papers_per_month(self) -> list[tuple[datetime.date, int]]:
        """How many of these papers were first posted in each month, oldest first; months without any
        are left out."""
        return list(
            self.order_by()
            .annotate(month=TruncMonth("published"))
            .values_list("month")
            .annotate(paper_count=Count("pk"))
            .order_by("month")
        )

    def with_total_count(self) -> PaperQuerySet:
        """Annotates `total_count`: how many rows the whole query has, so a slice carries its total
        (one query instead of a slice and a COUNT)."""
        return self.annotate(total_count=Window(Count("*")))

    def for_lists(self) -> PaperQuerySet:
        """Leaves out the columns no list shows: the embedding (384 floats a row) and the search vector."""
        return self.defer("embedding", "search_vector")

    def without_embedding(self) -> PaperQuerySet:
        return self.filter(embedding__isnull=True)

    def not_analysed(self) -> PaperQuerySet:
        return self.filter(analysis__isnull=True)

    def with_authors(self) -> PaperQuerySet:
        """Authorships in order with their researchers, for lists that link matched authors. Only what
        an author link and the API's Last-Modified need: a page lists a hundred or more of them."""
        from papers.models import Authorship  # cycle: papers.models imports this module

        return self.prefetch_related(
            Prefetch(
                "authorships",
                queryset=Authorship.objects.select_related("researcher")
                .only(
                    "paper_id",
                    "position",
                    "name",
                    "affiliations",
                    "is_collaboration",
                    "researcher__display_name",
                    "researcher__updated_at",
                )
                .order_by("position"),
            )
        )

    def for_records(self) -> PaperQuerySet:
        """What a paper's full record (the API's) shows beyond its columns: its authors, its analysis and
        the analysis's topics, fetched with the page rather than a query a paper."""
        return self.select_related("analysis").with_authors().with_topic_ids()


AUTHOR_POSITIONS = ("first", "middle", "last", "sole")


class AuthorshipQuerySet(models.QuerySet):
    def people(self) -> AuthorshipQuerySet:
        """Authorships of persons: teams and collaborations are listed as authors but are no researcher."""
        return self.filter(is_collaboration=False)

    def unmatched(self) -> AuthorshipQuerySet:
        return self.people().filter(researcher__isnull=True)

    def with_family_name_in(self, families: Iterable[str]) -> AuthorshipQuerySet:
        """Authorships whose normalised name of two words or more ends with one of these words."""
        names = self.filter(normalised_name__contains=" ")
        return names.alias(family=_last_word()).filter(family__any_of=families)

    def coauthors_among(self, names: Iterable[str], *, most_authors: int) -> dict[str, set[str]]:
        """For each of these normalised names, the others of them it shares a paper of at most
        `most_authors` people with (a harvest page asks this of thousands of names).

        Two indexed lookups and the pairing in Python, rather than one statement joining authorships to
        papers to authorships: on a corpus loaded since its statistics were gathered, PostgreSQL planned
        that join as nested loops that ran for minutes, where these steps take a second whatever the plan."""
        names_on: dict[int, set[str]] = defaultdict(set)
        people = self.people().order_by()
        for paper_id, name in people.filter(normalised_name__any_of=names).values_list(
            "paper_id", "normalised_name"
        ):
            names_on[paper_id].add(name)
        shared = [paper_id for paper_id, on in names_on.items() if len(on) > 1]
        short = (
            people.filter(paper_id__any_of=shared)
            .values("paper_id")
            .annotate(people=Count("normalised_name", distinct=True))
            .filter(people__lte=most_authors)
            .values_list("paper_id", flat=True)
        )
        among: dict[str, set[str]] = defaultdict(set)
        for paper_id in short:
            for name in names_on[paper_id]:
                among[name] |= names_on[paper_id]
        return {name: others - {name} for name, others in among.items()}

    def name_word_counts(self, *, given: Iterable[str], family: Iterable[str]) -> NameWordCounts:
        """Of the distinct normalised names of two words or more among these authorships: how many begin
        with each of these given names, how many end with each of these family names, and how many there
        are. Counted in the database, so the corpus's names never travel (the grouping asks this of every
        embedded batch): one statement that finds the distinct names once and counts them three ways
        (three COUNT(DISTINCT) over the authorships took 1.6-1.9 s at 100,000 papers, this 0.26-0.31)."""
        names = (
            self.order_by().filter(normalised_name__contains=" ").values_list("normalised_name").distinct()
        )
        names_sql, names_params = names.query.sql_with_params()
        given_word, family_word = _FIRST_WORD.format(name="name"), _LAST_WORD.format(name="name")
        # The words are read after DISTINCT: once a name, not once an authorship.
        sql = f"""
            WITH names (name) AS MATERIALIZED ({names_sql}),
            words AS (SELECT {given_word} AS given, {family_word} AS family FROM names)
            SELECT 'given', given, count(*) FROM words WHERE given = ANY(%s::text[]) GROUP BY given
            UNION ALL
            SELECT 'family', family, count(*) FROM words WHERE family = ANY(%s::text[]) GROUP BY family
            UNION ALL
            SELECT 'total', '', count(*) FROM names
        """  # noqa: S608 - the ORM's own SQL and parameters, and the word rules above
        counts: dict[str, dict[str, int]] = {"given": {}, "family": {}, "total": {}}
        with connection.cursor() as cursor:
            cursor.execute(sql, [*names_params, list(given), list(family)])
            for kind, word, count in cursor.fetchall():
                counts[kind][word] = count
        return NameWordCounts(given=counts["given"], family=counts["family"], total=counts["total"][""])

    def by_members_of(self, institution: Institution) -> AuthorshipQuerySet:
        """Authorships of the researchers affiliated with the institution."""
        members = Affiliation.objects.filter(institution=institution).values("researcher_id")
        return self.filter(researcher_id__in=members)

    def paper_count(self) -> int:
        """How many distinct papers these authorships are on (from the authorship index alone)."""
        return self.order_by().values("paper_id").distinct().count()

    def author_position_counts(self) -> dict[str, int]:
        """Papers per author position (first, middle, last, sole) among these authorships, counting only
        papers where every author was matched: elsewhere a position says little about who is who.
        Positions are among people: a team heading the list ("Xiaomi LLM-Core Team: Bingquan Xia, …")
        is no author before the first person (the writer numbers people first, teams after them)."""
        people_after = self.model.objects.people().filter(
            paper=OuterRef("paper"), position__gt=OuterRef("position")
        )
        people_before = self.model.objects.people().filter(
            paper=OuterRef("paper"), position__lt=OuterRef("position")
        )
        position_class = Case(
            When(~Exists(people_before) & ~Exists(people_after), then=Value("sole")),
            When(~Exists(people_before), then=Value("first")),
            When(~Exists(people_after), then=Value("last")),
            default=Value("middle"),
            output_field=CharField(),
        )
        rows = (
            self.order_by()
            .filter(is_collaboration=False)
            .filter(~Exists(self.model.objects.unmatched().filter(paper=OuterRef("paper"))))
            .annotate(position_class=position_class)
            .values("position_class")
            .annotate(paper_count=Count("paper", distinct=True))
        )
        counts = dict.fromkeys(AUTHOR_POSITIONS, 0)
        counts.update({row["position_class"]: row["paper_count"] for row in rows})
        return counts

    def coauthor_pairs(self, researcher: Researcher, among: list[int]) -> list[tuple[int, int, int]]:
        """Pairs of the researchers `among` who wrote papers with `researcher` together:
        (one id, the other id, shared papers), each pair once with the smaller id first."""
        if len(among) < 2:
            return []
        papers = self.model.objects.filter(researcher=researcher).values("paper_id")
        rows = (
            self.filter(in_array("paper_id", papers))
            .filter(
                researcher_id__in=among,
                paper__authorships__researcher_id__in=among,
                researcher_id__lt=F("paper__authorships__researcher_id"),
            )
            .order_by()
            .values_list("researcher_id", "paper__authorships__researcher_id")
            .annotate(shared=Count("paper_id", distinct=True))
        )
        return list(rows)

    def first_of(self, paper_ids: list[int], count: int) -> AuthorshipQuerySet:
        """The first `count` authorships of each paper, in order: a list of papers shows a few authors,
        and a collaboration paper has thousands (the full count is `len(paper.authors)`)."""
        return self.filter(paper_id__in=paper_ids, position__lte=count).order_by("paper_id", "position")
