"""The read questions search asks of papers, as QuerySet methods (mixed into PaperQuerySet): full-text
matching and ranking, highlighted snippets, filters and nearest neighbours by embedding."""

from __future__ import annotations

import datetime
import operator
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import reduce
from typing import Self

import numpy as np
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection, models, transaction
from django.db.models import F
from pgvector.django import CosineDistance

from analysis.models import PaperTopic  # topic: filters on it; analysis.models imports no papers module
from papers.search.query import Clause, Field, Filters, Term

# ts_rank's weights for D, C, B, A: a word in the title counts most, then the abstract, then author names.
RANK_WEIGHTS = [0.1, 0.2, 0.4, 1.0]
RANK_NORMALISATION = 1  # divide by 1 + log(length): a long abstract does not win by repetition alone
_FIELD_WEIGHTS = {Field.TITLE: ":A", Field.ABSTRACT: ":B", Field.AUTHOR: ":C"}


def term_query(term: Term) -> SearchQuery:
    """One term as a tsquery. Its text goes in quotes, so PostgreSQL's parser splits it exactly as it
    split the papers (`GPT-3.5`, `state-of-the-art`; several words make a phrase) and nothing in it is
    tsquery syntax. A field restricts it to that part of the weighted vector; author names were indexed
    with the `simple` configuration (no stemming), so they are searched with it."""
    text = term.text.replace("'", " ").replace("\\", " ")
    config = "simple" if term.field is Field.AUTHOR else "english"
    return SearchQuery(f"'{text}'{_FIELD_WEIGHTS.get(term.field, '')}", search_type="raw", config=config)


def words_query(clauses: Iterable[Clause], excluded: Iterable[Term] = ()) -> SearchQuery | None:
    """Every clause (any of its alternatives) and none of the excluded terms; None when nothing is asked."""
    parts = [reduce(operator.or_, map(term_query, clause.alternatives)) for clause in clauses]
    parts += [~term_query(term) for term in excluded]
    return reduce(operator.and_, parts) if parts else None


class PaperSearchQuerySet(models.QuerySet):
    def filtered_by(self, filters: Filters) -> Self:
        """Papers in any of the categories, none of the excluded ones, within the years, cited if asked,
        of any of the types and none of the excluded ones, with any of the topics."""
        papers = self
        if filters.categories:
            papers = papers.filter(categories__overlap=list(filters.categories))
        if filters.excluded_categories:
            papers = papers.exclude(categories__overlap=list(filters.excluded_categories))
        if filters.year_from is not None:
            papers = papers.filter(published__gte=datetime.date(filters.year_from, 1, 1))
        if filters.year_to is not None:
            papers = papers.filter(published__lte=datetime.date(filters.year_to, 12, 31))
        if filters.cited_only:
            papers = papers.filter(cited_by_count__gt=0)
        if filters.paper_types:
            papers = papers.filter(analysis__paper_type__in=list(filters.paper_types))
        if filters.topics:
            chosen = PaperTopic.objects.filter(topic_id__in=[int(topic) for topic in filters.topics])
            papers = papers.filter(pk__in=chosen.values("paper_id"))
        if filters.excluded_paper_types:
            # A paper not analysed yet has no type, and no type is not one of those left out.
            papers = papers.exclude(analysis__paper_type__in=list(filters.excluded_paper_types))
        return papers

    def matching_words(self, query: SearchQuery | None) -> Self:
        """Papers whose weighted search vector matches the full-text query (through the GIN index)."""
        return self if query is None else self.filter(search_vector=query)

    def with_word_rank(self, query: SearchQuery) -> Self:
        """Annotates `rank`: ts_rank of the weighted vector for the query (title over abstract over
        authors). It reads each paper's vector, so rank a bounded set: see `ranking_candidates`."""
        return self.annotate(
            rank=SearchRank(F("search_vector"), query, weights=RANK_WEIGHTS, normalization=RANK_NORMALISATION)
        )

    def ranking_candidates(
        self, query: SearchQuery, *, limit: int, recent_since: datetime.date | None = None
    ) -> Self:
        """The newest `limit` papers matching the query, annotated with their rank (unordered: the caller
        sorts). Ranking every match of a common word ("learning", "model") would read a large share of
        the corpus. The newest matches come first, without their rank: PostgreSQL walks the `published`
        index back and stops at `limit` matches, or collects rarer words' matches through the GIN index
        and sorts them by date; only then are those `limit` papers ranked.

        Sorting by date reads the row of every match: thousands for a pair of everyday words
        ("reinforcement learning"). With `recent_since` (see `start_of_newest`), the papers posted since
        then are searched first, the GIN and date indexes combined so that only their matches' rows are
        read, and the older papers only when fewer than `limit` recent ones match. The two parts meet at
        that date, so the candidates are the same whatever the date."""
        matches = self.matching_words(query).order_by("-published", "-id").values("pk")
        if recent_since is None:
            newest = matches[:limit]
        else:
            recent = matches.filter(published__gte=recent_since)[:limit]
            older = matches.filter(published__lt=recent_since)[:limit]
            newest = recent.union(older, all=True)[:limit]
        return self.model.objects.filter(pk__in=newest).with_word_rank(query)

    def estimated_total(self) -> int:
        """How many rows the whole table holds by the planner's statistics (pg_class.reltuples, kept by
        autovacuum): free, where a count reads every row; 0 before the first ANALYZE."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [self.model._meta.db_table]
            )
            return max(0, int(cursor.fetchone()[0]))

    def start_of_newest(self, count: int) -> datetime.date | None:
        """The date the newest `count` of these papers were posted since (None when there are fewer):
        an index-only walk of `count` dates."""
        dates = self.order_by("-published").values_list("published", flat=True)
        return next(iter(dates[count - 1 : count]), None)

    def nearest_to(self, vector: np.ndarray) -> Self:
        """Papers by cosine distance of their embedding to `vector` (annotated `distance`), nearest first,
        through the HNSW index; run it inside `iterative_index_scan()` so filters still fill a page."""
        return (
            self.filter(embedding__isnull=False)
            .annotate(distance=CosineDistance("embedding", vector))
            .order_by("distance")
        )


@contextmanager
def iterative_index_scan(*, ef_search: int) -> Iterator[None]:
    """Inside: HNSW scans go on past `ef_search` candidates until the query's filters let enough rows
    through (pgvector 0.8 iterative scans, in relaxed order: callers sort by distance again). The settings
    are local to the transaction this opens (or joins, without a savepoint)."""
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
            "set_config('hnsw.ef_search', %s, true)",
            [str(ef_search)],
        )
        yield
