"""Upstream works (OpenAlex, Semantic Scholar) applied to the papers of the corpus: upstream ids and counts,
researcher identity by author position, affiliations and citation edges. Every write compares first, so
applying the same records twice changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from harvest.models import HarvestRun
from harvest.records import UpstreamWork
from harvest.services.citations import citations_link, references_replace
from harvest.services.institutions import (
    affiliation_add,
    affiliations_mark_last_known,
    institution_key,
    institutions_upsert,
)
from papers.models import Paper
from researchers.services import UPSTREAM_ID_FIELDS, UpstreamAuthor, researchers_link_upstream


@dataclass
class Applied:
    """What applying a page of works did, for the run's counts and the command's summary."""

    identified: int = 0  # papers the source described for the first time
    refreshed: int = 0  # papers whose upstream data changed
    unchanged: int = 0
    not_in_corpus: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    researchers: set[int] = field(default_factory=set)
    citations_added: int = 0


def _apply_paper(paper: Paper, work: UpstreamWork) -> tuple[bool, bool]:
    """Upstream id and counts: returns (first time this source describes it, anything changed)."""
    id_field = UPSTREAM_ID_FIELDS[work.source]
    first_time = getattr(paper, id_field) is None
    values: dict[str, object] = {id_field: work.upstream_id}
    # OpenAlex counts win; Semantic Scholar's fill in for papers OpenAlex does not know.
    if work.source == HarvestRun.Source.OPENALEX or paper.openalex_id is None:
        if work.cited_by_count is not None:
            values["cited_by_count"] = work.cited_by_count
        if work.reference_count is not None:
            values["reference_count"] = work.reference_count
    changed = [name for name, value in values.items() if getattr(paper, name) != value]
    references_changed = references_replace(paper, work)
    if changed or references_changed or paper.citations_refreshed_at is None:
        for name in changed:
            setattr(paper, name, values[name])
        paper.citations_refreshed_at = timezone.now()
        paper.save(update_fields=[*changed, "citations_refreshed_at", "updated_at"])
        return first_time, True
    return first_time, False


def works_apply(*, works: Sequence[UpstreamWork]) -> Applied:
    """Store one page of upstream works in one transaction. Works of papers not in the corpus are left
    out; papers are matched newest first, so a researcher's recent work decides their identity first."""
    applied = Applied()
    with transaction.atomic():
        papers = {
            paper.arxiv_id: paper
            for paper in Paper.objects.select_for_update().filter(arxiv_id__in=[w.arxiv_id for w in works])
        }
        present = [w for w in works if w.arxiv_id in papers]
        applied.not_in_corpus = [w.arxiv_id for w in works if w.arxiv_id not in papers]
        present.sort(key=lambda w: (papers[w.arxiv_id].published, papers[w.arxiv_id].pk), reverse=True)
        institutions = institutions_upsert(
            records=(i for w in present for a in w.authorships for i in a.institutions)
        )
        linked_papers = []
        for work in present:
            paper = papers[work.arxiv_id]
            id_field = UPSTREAM_ID_FIELDS[work.source]
            holder = Paper.objects.filter(**{id_field: work.upstream_id}).exclude(pk=paper.pk).first()
            if holder is not None:
                applied.conflicts.append(
                    f"{work.upstream_id} is already arXiv {holder.arxiv_id}, not {paper.arxiv_id}"
                )
                continue
            first_time, changed = _apply_paper(paper, work)
            authors = [UpstreamAuthor(a.upstream_id, (a.name, a.raw_name), a.orcid) for a in work.authorships]
            linked = researchers_link_upstream(paper_id=paper.pk, source=work.source, authors=authors)
            for index, researcher in linked.items():
                applied.researchers.add(researcher.pk)
                for record in work.authorships[index].institutions:
                    institution = institutions.get(institution_key(record))
                    if institution is not None:
                        # The year of the paper as arXiv dates it: upstream years follow later venues.
                        affiliation_add(researcher, institution, [paper.published.year])
            if first_time:
                applied.identified += 1
            elif changed:
                applied.refreshed += 1
            else:
                applied.unchanged += 1
            linked_papers.append(paper.pk)
        applied.citations_added = citations_link(paper_ids=linked_papers)
        affiliations_mark_last_known(applied.researchers)
    return applied
