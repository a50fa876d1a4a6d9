"""How well researchers built from arXiv names alone match who people really are, measured two ways
(researchers/evaluation/, see its PROVENANCE.md):

- B³ precision and recall on 200 OpenAlex works (536 authorships) whose author ids are known: the works
  are stored through the harvest writer with the ids hidden, grouped by `researchers_group_by_names`, and
  the groups compared with the ids; everything is rolled back afterwards.
- pairwise precision and recall on hand-judged same-name pairs of the demo corpus, read from the
  researchers the database holds (run it on a loaded demo corpus).
"""

from __future__ import annotations

import datetime
import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import Count

from harvest.parsers.openalex import openalex_authorships, openalex_key
from harvest.records import PaperRecord, ParsedAuthor, RecordError
from harvest.services.papers import lock_paper_writes, papers_upsert
from papers.models import Authorship
from papers.services import papers_embed
from researchers.models import Researcher
from researchers.names import normalise_name
from researchers.querysets import made_from_arxiv_names_alone
from researchers.services import researchers_group_by_names

EVALUATION = Path(__file__).resolve().parent.parent / "researchers" / "evaluation"
OPENALEX_WORKS = EVALUATION / "openalex_works_biodiversity_finance_200.json.gz"
SAME_NAME_PAIRS = EVALUATION / "same_name_pairs.json"
# The works are no arXiv papers: they are stored under ids of a month arXiv never used (9912, as the
# tests' papers are), inside a transaction that is rolled back.
UNUSED_ARXIV_MONTH = "9912"


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    items: int  # authorships (B³) or judged pairs (pairwise)


def b_cubed(predicted: Mapping[Hashable, Hashable], truth: Mapping[Hashable, Hashable]) -> Scores:
    """B³ (Bagga and Baldwin, 1998): for each item, the share of its predicted cluster that truly belongs
    with it (precision) and the share of its true cluster that was predicted with it (recall), averaged."""
    items = [item for item in truth if item in predicted]
    predicted_members: dict[Hashable, set] = defaultdict(set)
    true_members: dict[Hashable, set] = defaultdict(set)
    for item in items:
        predicted_members[predicted[item]].add(item)
        true_members[truth[item]].add(item)
    if not items:
        return Scores(1.0, 1.0, 0)
    precision = recall = 0.0
    for item in items:
        together = len(predicted_members[predicted[item]] & true_members[truth[item]])
        precision += together / len(predicted_members[predicted[item]])
        recall += together / len(true_members[truth[item]])
    return Scores(precision / len(items), recall / len(items), len(items))


def _openalex_records() -> tuple[list[PaperRecord], dict[tuple[str, int], str]]:
    """The works as paper records (names and institutions, no author ids), and each authorship's id."""
    with gzip.open(OPENALEX_WORKS, "rt", encoding="utf-8") as file:
        works = json.load(file)["results"]
    records, truth = [], {}
    for number, item in enumerate(works, start=1):
        work_id = openalex_key(item.get("id"), "W")
        try:
            authorships = openalex_authorships(item, work_id)
            published = datetime.date.fromisoformat(str(item.get("publication_date")))
        except (RecordError, ValueError):
            continue
        arxiv_id = f"{UNUSED_ARXIV_MONTH}.{number:05d}"
        authors = tuple(
            ParsedAuthor(
                name=authorship.name,
                position=authorship.position,
                affiliations=tuple(institution.name for institution in authorship.institutions),
            )
            for authorship in authorships
        )
        records.append(
            PaperRecord(
                arxiv_id=arxiv_id,
                title=str(item.get("title") or work_id),
                published=published,
                authors=tuple(author.name for author in authors),
                author_details=authors,
            )
        )
        for authorship in authorships:
            if authorship.upstream_id:
                truth[(arxiv_id, authorship.position)] = authorship.upstream_id
    return records, truth


def openalex_b_cubed(*, weak_evidence: bool = True) -> Scores:
    """B³ of name-only grouping against OpenAlex's author ids (the works embedded as a harvest embeds
    them, for the evidence of their meaning); stores nothing."""
    records, truth = _openalex_records()
    with transaction.atomic():
        lock_paper_writes()
        _counts, touched = papers_upsert(records=records)
        papers_embed(paper_ids=touched)
        researchers_group_by_names(paper_ids=touched, weak_evidence=weak_evidence)
        predicted = {
            (arxiv_id, position): researcher_id
            for arxiv_id, position, researcher_id in Authorship.objects.filter(
                paper_id__in=touched
            ).values_list("paper__arxiv_id", "position", "researcher_id")
            if researcher_id is not None
        }
        transaction.set_rollback(True)
    return b_cubed(predicted, truth)


def same_name_pairwise() -> Scores:
    """Pairwise precision and recall of the stored researchers on the judged same-name pairs (those
    judged "cannot tell", and those whose papers are not stored, are left out)."""
    pairs = json.loads(SAME_NAME_PAIRS.read_text(encoding="utf-8"))["pairs"]
    judged = [pair for pair in pairs if pair["judgement"] in ("same", "different")]
    wanted = {
        (pair[paper], normalise_name(pair["name"])) for pair in judged for paper in ("paper_a", "paper_b")
    }
    researcher_of = {
        (arxiv_id, name): researcher_id
        for arxiv_id, name, researcher_id in Authorship.objects.people()
        .filter(paper__arxiv_id__in={arxiv_id for arxiv_id, _ in wanted}, researcher__isnull=False)
        .values_list("paper__arxiv_id", "normalised_name", "researcher_id")
        if (arxiv_id, name) in wanted
    }
    outcomes: Counter = Counter()
    for pair in judged:
        name = normalise_name(pair["name"])
        first, second = researcher_of.get((pair["paper_a"], name)), researcher_of.get((pair["paper_b"], name))
        if first is None or second is None:
            continue
        outcomes[(pair["judgement"], first == second)] += 1
    merged_same, merged_different = outcomes[("same", True)], outcomes[("different", True)]
    same = merged_same + outcomes[("same", False)]
    merged = merged_same + merged_different
    return Scores(
        precision=merged_same / merged if merged else 1.0,
        recall=merged_same / same if same else 1.0,
        items=sum(outcomes.values()),
    )


def researchers_per_common_name(limit: int = 8) -> list[tuple[str, int]]:
    """The names held by the most researchers, with how many."""
    rows = (
        Researcher.objects.people()
        .values("normalised_name")
        .annotate(researchers=Count("id"))
        .order_by("-researchers", "normalised_name")[:limit]
    )
    return [(row["normalised_name"], row["researchers"]) for row in rows]


def _researchers_per_name(names: set[str]) -> dict[str, int]:
    rows = (
        Researcher.objects.people()
        .filter(normalised_name__in=names)
        .values("normalised_name")
        .annotate(researchers=Count("id"))
    )
    return {row["normalised_name"]: row["researchers"] for row in rows}


@dataclass(frozen=True)
class Regrouping:
    """The demo corpus's judged names and commonest names grouped again from their authorships alone."""

    pairs: Scores
    researchers_per_name: dict[str, int]


# Names the README follows from before the grouping's evidence to after, besides the commonest.
NAMES_FOLLOWED = ("yang liu", "dacheng tao", "min zhang")


def demo_regrouped(*, weak_evidence: bool, common_names: int = 8) -> Regrouping:
    """Unlink the researchers (known from arXiv names only) of the judged names, the followed names and
    the commonest names, group them again from nothing, with or without the weaker evidence, measure,
    and roll back: what the grouping makes of the corpus as it stands, whatever grouped it before."""
    pairs = json.loads(SAME_NAME_PAIRS.read_text(encoding="utf-8"))["pairs"]
    names = {normalise_name(pair["name"]) for pair in pairs} | set(NAMES_FOLLOWED)
    names |= {name for name, _count in researchers_per_common_name(common_names)}
    with transaction.atomic():
        lock_paper_writes()
        Authorship.objects.filter(
            made_from_arxiv_names_alone("researcher__"), normalised_name__in=names
        ).update(researcher=None)
        researchers_group_by_names(names=names, weak_evidence=weak_evidence)
        regrouping = Regrouping(same_name_pairwise(), _researchers_per_name(names))
        transaction.set_rollback(True)
    return regrouping
