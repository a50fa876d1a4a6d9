"""The analysis pipeline: fills a paper's research field, type, one-sentence summary, novelty (with its
closest earlier papers) and significance, one transaction per batch, and is safe to run again (the same
papers give the same values; only `analysed` moves on). It writes analysis.PaperAnalysis rows, never the
papers' own (see PaperAnalysis for why).

Novelty and significance are percentiles within the paper's field (primary category) and year, so a
batch also re-ranks the other papers of the fields and years it touches, in the same transaction."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from analysis.paper_types import paper_types_of
from analysis.summaries import abstract_sentences, central_sentences, generated_summaries
from core import llm
from papers.categories import research_field
from papers.models import Paper

CLOSEST_EARLIER_COUNT = 3
# One statement for the batch's rows (Django's bulk_create with update_conflicts builds its VALUES in
# Python, which costs more than the rest of the analysis). closest_earlier travels as array literals, as
# unnest cannot carry arrays of different lengths. The percentiles are left as they were: the ranking
# (percentiles_refresh) writes them.
_WRITE = """
    INSERT INTO analysis_paperanalysis AS analysis (
        paper_id, research_field, paper_type, summary, summary_generated, novelty_distance,
        closest_earlier, analysed
    )
    SELECT new.id, new.research_field, new.paper_type, new.summary, new.summary_generated,
        new.novelty_distance, new.closest_earlier::integer[], %s
    FROM unnest(
        %s::integer[], %s::varchar[], %s::varchar[], %s::text[], %s::boolean[], %s::float8[], %s::text[]
    ) AS new(id, research_field, paper_type, summary, summary_generated, novelty_distance, closest_earlier)
    ON CONFLICT (paper_id) DO UPDATE SET
        research_field = excluded.research_field, paper_type = excluded.paper_type,
        summary = excluded.summary, summary_generated = excluded.summary_generated,
        novelty_distance = excluded.novelty_distance, closest_earlier = excluded.closest_earlier,
        analysed = excluded.analysed
"""


@dataclass
class AnalysisCounts:
    analysed: int = 0
    summarised: int = 0
    generated: int = 0  # of the summaries, those a language model wrote
    with_earlier_work: int = 0

    def add(self, other: AnalysisCounts) -> None:
        self.analysed += other.analysed
        self.summarised += other.summarised
        self.generated += other.generated
        self.with_earlier_work += other.with_earlier_work


def papers_analyse(*, paper_ids: Iterable[int], rerank: bool = True) -> AnalysisCounts:
    """Analyse these papers (gone ones are skipped) and re-rank their fields and years. A paper without
    an abstract still gets its field and type; one without a vector yet gets no novelty (its embedding
    is followed by another analysis).

    `rerank=False` leaves the percentiles to the caller, which ranks once after many batches
    (`manage.py analyse`): each re-ranking rewrites every row of the touched fields and years whose
    percentile moved, and a row rewritten is a row the vector index takes in again."""
    ids = list(paper_ids)
    papers = list(
        Paper.objects.filter(pk__in=ids).only(
            "id", "arxiv_id", "title", "abstract", "comments", "primary_category", "published", "embedding"
        )
    )
    if not papers:
        return AnalysisCounts()
    # The model's work and the index walks come before the transaction, which then only writes. The walks
    # are sent first: PostgreSQL does them while this process classifies, splits the abstracts and asks
    # the language model, if one is configured.
    with Paper.objects.closest_earlier_meanwhile(
        [paper.pk for paper in papers], count=CLOSEST_EARLIER_COUNT
    ) as closest:
        types = paper_types_of(papers)
        split = abstract_sentences((paper.pk, paper.abstract) for paper in papers if paper.abstract)
        # A model's sentence where one is configured and answers; the quoted one where not.
        generated = (
            generated_summaries(
                (paper.pk, paper.title, paper.abstract) for paper in papers if paper.pk in split
            )
            if llm.configured()
            else {}
        )
    earlier = closest.result
    summaries = central_sentences(split)
    columns = ("id", "field", "type", "summary", "generated", "distance", "earlier")
    rows: dict[str, list] = {name: [] for name in columns}
    for paper in papers:
        nearest = earlier.get(paper.pk, [])
        rows["id"].append(paper.pk)
        rows["field"].append(research_field(paper.primary_category) or None)
        rows["type"].append(types[paper.pk])
        rows["summary"].append(generated.get(paper.pk) or summaries.get(paper.pk))
        rows["generated"].append(paper.pk in generated)
        rows["distance"].append(nearest[0][1] if nearest else None)
        rows["earlier"].append("{" + ",".join(str(pk) for pk, _ in nearest) + "}" if nearest else None)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(_WRITE, [timezone.now(), *rows.values()])
        if rerank:
            percentiles_refresh(paper_ids=rows["id"])
    return AnalysisCounts(
        analysed=len(papers),
        summarised=len(summaries),
        generated=len(generated),
        with_earlier_work=sum(1 for distance in rows["distance"] if distance is not None),
    )


# A percentile that means the same in a field of one paper as in one of thousands: the share of the
# field-and-year's papers below this one, ties counted half (a lone paper, or one tied with all, is at
# 50). PostgreSQL's percent_rank would put a lone paper at 0 and cume_dist at 100.
_PERCENTILE = """
    100.0 * (rank() OVER (PARTITION BY {group} ORDER BY {value}) - 1
             + 0.5 * count(*) OVER (PARTITION BY {group}, {value}))
    / count(*) OVER (PARTITION BY {group})
"""
_GROUP = "paper.primary_category, date_part('year', paper.published)"
# Citations a year since posting; a paper younger than a month counts as a month old, so a day-old
# paper with one citation is not the field's fastest.
_VELOCITY = "paper.cited_by_count / GREATEST((CURRENT_DATE - paper.published) / 365.25, 1.0 / 12)"
# Among the analysed papers: a paper's rank is written to its analysis, so one not analysed yet has
# none, and joins its field and year's ranking when it is.
_REFRESH = """
    WITH ranked AS (
        SELECT analysis.paper_id, {percentile} AS percentile
        FROM analysis_paperanalysis analysis JOIN papers_paper paper ON paper.id = analysis.paper_id
        WHERE {value} IS NOT NULL AND {partitions}
    )
    UPDATE analysis_paperanalysis SET {column} = ranked.percentile
    FROM ranked
    WHERE analysis_paperanalysis.paper_id = ranked.paper_id
      AND analysis_paperanalysis.{column} IS DISTINCT FROM ranked.percentile
"""
_TOUCHED = f"({_GROUP}) IN (SELECT {_GROUP} FROM papers_paper paper WHERE paper.id = ANY(%s))"  # noqa: S608 - constants


def percentiles_refresh(*, paper_ids: list[int] | None = None) -> None:
    """Rank novelty and significance again within each field and year: those of these papers, or all.
    In SQL with window functions, writing only the rows whose percentile changed."""
    partitions, params = (_TOUCHED, [paper_ids]) if paper_ids is not None else ("TRUE", [])
    with connection.cursor() as cursor:
        for column, value in (("novelty", "analysis.novelty_distance"), ("significance_score", _VELOCITY)):
            percentile = _PERCENTILE.format(group=_GROUP, value=value)
            cursor.execute(
                _REFRESH.format(percentile=percentile, value=value, partitions=partitions, column=column),
                params,
            )
