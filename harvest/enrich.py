"""Writes from OpenAlex and Semantic Scholar records into the corpus: upstream ids and counts of papers,
researcher identity by author position, institutions and affiliations, citation edges between papers of
the corpus, and researcher metrics. Every write compares first, so applying the same records twice
changes nothing."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from harvest.models import UpstreamCheck, UpstreamReference
from harvest.records import AuthorRecord, InstitutionRecord, UpstreamWork
from institutions.models import Affiliation, Institution
from papers.models import Citation, Paper
from researchers.models import Researcher
from researchers.services import (
    UPSTREAM_ID_FIELDS,
    UpstreamAuthor,
    researcher_update_metrics,
    researchers_link_upstream,
)

OPENALEX = "openalex"
_INSTITUTION_DETAILS = ("name", "country_code", "type", "homepage")


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


def _institution_key(record: InstitutionRecord) -> str:
    return record.openalex_id or record.ror_id


def institutions_upsert(*, records: Iterable[InstitutionRecord]) -> dict[str, Institution]:
    """Institutions by OpenAlex id, else ROR id; known details are never erased by empty ones. Returns them
    by the record's key (OpenAlex id, or ROR id without one)."""
    unique = {_institution_key(r): r for r in records if _institution_key(r)}
    if not unique:
        return {}
    openalex_ids = [r.openalex_id for r in unique.values() if r.openalex_id]
    ror_ids = [r.ror_id for r in unique.values() if r.ror_id]
    existing = Institution.objects.filter(Q(openalex_id__in=openalex_ids) | Q(ror_id__in=ror_ids))
    by_openalex = {i.openalex_id: i for i in existing if i.openalex_id}
    by_ror = {i.ror_id: i for i in existing if i.ror_id}
    result = {}
    for key, record in unique.items():
        institution = by_openalex.get(record.openalex_id) if record.openalex_id else None
        if institution is None and record.ror_id:
            institution = by_ror.get(record.ror_id)
        if institution is None:
            institution = Institution.objects.create(
                name=record.name[:255],
                openalex_id=record.openalex_id or None,
                ror_id=record.ror_id or None,
                country_code=record.country_code,
                type=record.type,
                homepage=record.homepage,
            )
        else:
            changed = [
                name for name in _INSTITUTION_DETAILS
                if getattr(record, name) and getattr(institution, name) != getattr(record, name)
            ]  # fmt: skip
            for name in changed:
                setattr(institution, name, getattr(record, name))
            for name in ("openalex_id", "ror_id"):
                value = getattr(record, name)
                if (
                    value
                    and not getattr(institution, name)
                    and not Institution.objects.filter(**{name: value}).exclude(pk=institution.pk).exists()
                ):
                    setattr(institution, name, value)
                    changed.append(name)
            if changed:
                institution.save(update_fields=[*changed, "updated_at"])
        if institution.openalex_id:
            by_openalex.setdefault(institution.openalex_id, institution)
        if institution.ror_id:
            by_ror.setdefault(institution.ror_id, institution)
        result[key] = institution
    return result


def _affiliate(researcher: Researcher, institution: Institution, years: Iterable[int]) -> None:
    affiliation, created = Affiliation.objects.get_or_create(
        researcher=researcher, institution=institution, defaults={"years": sorted(set(years))}
    )
    merged = sorted(set(affiliation.years) | set(years))
    if not created and merged != affiliation.years:
        affiliation.years = merged
        affiliation.save(update_fields=["years"])


def _mark_last_known(researcher_ids: Iterable[int]) -> None:
    """Without an author profile to say so, the last-known institutions are those of the latest year."""
    with_profile = UpstreamCheck.objects.filter(
        subject=UpstreamCheck.Subject.RESEARCHER, source=OPENALEX, found=True
    ).values("subject_id")
    affiliations = Affiliation.objects.filter(researcher_id__in=list(researcher_ids)).exclude(
        researcher_id__in=with_profile
    )
    by_researcher: dict[int, list[Affiliation]] = defaultdict(list)
    for affiliation in affiliations:
        by_researcher[affiliation.researcher_id].append(affiliation)
    for group in by_researcher.values():
        latest = max((max(a.years) for a in group if a.years), default=None)
        for affiliation in group:
            last_known = latest is not None and latest in affiliation.years
            if affiliation.last_known != last_known:
                affiliation.last_known = last_known
                affiliation.save(update_fields=["last_known"])


def _replace_references(paper: Paper, work: UpstreamWork) -> bool:
    # One row per cited work (a source may list a work twice).
    wanted = set(
        {(ref.upstream_id or f"arXiv:{ref.arxiv_id}")[:64]: ref.arxiv_id for ref in work.references}.items()
    )
    current = set(
        UpstreamReference.objects.filter(citing=paper, source=work.source).values_list(
            "cited_upstream_id", "cited_arxiv_id"
        )
    )
    if wanted == current:
        return False
    UpstreamReference.objects.filter(citing=paper, source=work.source).delete()
    UpstreamReference.objects.bulk_create(
        UpstreamReference(citing=paper, source=work.source, cited_upstream_id=key, cited_arxiv_id=arxiv_id)
        for key, arxiv_id in wanted
    )
    # The edges out of this paper are rebuilt from all its references, of every source.
    Citation.objects.filter(citing=paper).delete()
    return True


def citations_link(*, paper_ids: Sequence[int]) -> int:
    """Citation edges for references that point at papers of the corpus, out of and into these papers.
    Returns the number of new edges. One statement: each branch walks an index (references by citing
    paper, by cited upstream id or arXiv id; papers by their unique ids)."""
    if not paper_ids:
        return 0
    references, papers, citations = (
        UpstreamReference._meta.db_table,
        Paper._meta.db_table,
        Citation._meta.db_table,
    )
    sql = f"""
        WITH targets AS (SELECT id, openalex_id, s2_id, arxiv_id FROM {papers} WHERE id = ANY(%(ids)s)),
        edges AS (
            SELECT r.citing_id, p.id AS cited_id FROM {references} r
              JOIN {papers} p ON r.source = 'openalex' AND p.openalex_id = r.cited_upstream_id
             WHERE r.citing_id = ANY(%(ids)s)
            UNION SELECT r.citing_id, p.id FROM {references} r
              JOIN {papers} p ON r.source = 's2' AND p.s2_id = r.cited_upstream_id
             WHERE r.citing_id = ANY(%(ids)s)
            UNION SELECT r.citing_id, p.id FROM {references} r
              JOIN {papers} p ON r.cited_arxiv_id <> '' AND p.arxiv_id = r.cited_arxiv_id
             WHERE r.citing_id = ANY(%(ids)s)
            UNION SELECT r.citing_id, t.id FROM {references} r
              JOIN targets t ON r.source = 'openalex' AND r.cited_upstream_id = t.openalex_id
            UNION SELECT r.citing_id, t.id FROM {references} r
              JOIN targets t ON r.source = 's2' AND r.cited_upstream_id = t.s2_id
            UNION SELECT r.citing_id, t.id FROM {references} r
              JOIN targets t ON r.cited_arxiv_id <> '' AND r.cited_arxiv_id = t.arxiv_id
        )
        INSERT INTO {citations} (citing_id, cited_id, created_at)
        SELECT citing_id, cited_id, now() FROM edges WHERE citing_id <> cited_id
        ON CONFLICT (citing_id, cited_id) DO NOTHING
    """  # noqa: S608 - table names come from the models, values are parameters
    with connection.cursor() as cursor:
        cursor.execute(sql, {"ids": list(paper_ids)})
        return cursor.rowcount


def _apply_paper(paper: Paper, work: UpstreamWork) -> tuple[bool, bool]:
    """Upstream id and counts: returns (first time this source describes it, anything changed)."""
    id_field = UPSTREAM_ID_FIELDS[work.source]
    first_time = getattr(paper, id_field) is None
    values: dict[str, object] = {id_field: work.upstream_id}
    # OpenAlex counts win; Semantic Scholar's fill in for papers OpenAlex does not know.
    if work.source == OPENALEX or paper.openalex_id is None:
        if work.cited_by_count is not None:
            values["cited_by_count"] = work.cited_by_count
        if work.reference_count is not None:
            values["reference_count"] = work.reference_count
    changed = [name for name, value in values.items() if getattr(paper, name) != value]
    references_changed = _replace_references(paper, work)
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
                    institution = institutions.get(_institution_key(record))
                    if institution is not None:
                        # The year of the paper as arXiv dates it: upstream years follow later venues.
                        _affiliate(researcher, institution, [paper.published.year])
            if first_time:
                applied.identified += 1
            elif changed:
                applied.refreshed += 1
            else:
                applied.unchanged += 1
            linked_papers.append(paper.pk)
        applied.citations_added = citations_link(paper_ids=linked_papers)
        _mark_last_known(applied.researchers)
    return applied


def authors_apply(*, records: Sequence[AuthorRecord]) -> int:
    """Upstream author profiles: metrics, ORCID, and (from OpenAlex) affiliations with their years and
    last-known flags. Profiles of people not in the corpus are left out. Returns researchers changed."""
    changed = 0
    with transaction.atomic():
        by_source: dict[str, list[AuthorRecord]] = defaultdict(list)
        for record in records:
            by_source[record.source].append(record)
        for source, group in by_source.items():
            id_field = UPSTREAM_ID_FIELDS[source]
            researchers = {
                getattr(r, id_field): r
                for r in Researcher.objects.filter(**{f"{id_field}__in": [g.upstream_id for g in group]})
            }
            institutions = institutions_upsert(
                records=[a.institution for g in group for a in g.affiliations]
                + [i for g in group for i in g.last_known_institutions]
            )
            for record in group:
                researcher = researchers.get(record.upstream_id)
                if researcher is None:
                    continue
                changed += researcher_update_metrics(
                    researcher=researcher,
                    source=source,
                    h_index=record.h_index,
                    citation_count=record.citation_count,
                    works_count=record.works_count,
                    orcid=record.orcid,
                )
                if record.affiliations or record.last_known_institutions:
                    _apply_profile_affiliations(researcher, record, institutions)
    return changed


def _apply_profile_affiliations(
    researcher: Researcher, record: AuthorRecord, institutions: dict[str, Institution]
) -> None:
    for affiliation in record.affiliations:
        institution = institutions.get(_institution_key(affiliation.institution))
        if institution is not None:
            _affiliate(researcher, institution, affiliation.years)
    last_known = {
        institutions[key].pk
        for institution in record.last_known_institutions
        if (key := _institution_key(institution)) in institutions
    }
    for institution_id in last_known:
        Affiliation.objects.get_or_create(researcher=researcher, institution_id=institution_id)
    Affiliation.objects.filter(researcher=researcher, institution_id__in=last_known, last_known=False).update(
        last_known=True
    )
    Affiliation.objects.filter(researcher=researcher, last_known=True).exclude(
        institution_id__in=last_known
    ).update(last_known=False)


def checks_record(*, subject: str, source: str, found: Iterable[int], missing: Iterable[int]) -> None:
    """Remember that `source` was asked about these rows, and whether it knew them."""
    now = timezone.now()
    rows = [
        UpstreamCheck(subject=subject, source=source, subject_id=pk, checked_at=now, found=True)
        for pk in found
    ]
    rows += [
        UpstreamCheck(subject=subject, source=source, subject_id=pk, checked_at=now, found=False)
        for pk in missing
    ]
    UpstreamCheck.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["subject", "source", "subject_id"],
        update_fields=["checked_at", "found"],
    )
