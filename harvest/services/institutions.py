"""Institutions and affiliations from upstream records (OpenAlex, ROR): upserted by OpenAlex id, else ROR
id; known details are never erased by empty ones."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Q

from harvest.models import HarvestRun, UpstreamCheck
from harvest.records import InstitutionRecord
from institutions.models import Affiliation, Institution
from researchers.models import Researcher

_INSTITUTION_DETAILS = ("name", "country_code", "type", "homepage")


def institution_key(record: InstitutionRecord) -> str:
    return record.openalex_id or record.ror_id


def institutions_upsert(*, records: Iterable[InstitutionRecord]) -> dict[str, Institution]:
    """Institutions by OpenAlex id, else ROR id; known details are never erased by empty ones. Returns them
    by the record's key (OpenAlex id, or ROR id without one)."""
    unique = {institution_key(r): r for r in records if institution_key(r)}
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


def affiliation_add(researcher: Researcher, institution: Institution, years: Iterable[int]) -> None:
    affiliation, created = Affiliation.objects.get_or_create(
        researcher=researcher, institution=institution, defaults={"years": sorted(set(years))}
    )
    merged = sorted(set(affiliation.years) | set(years))
    if not created and merged != affiliation.years:
        affiliation.years = merged
        affiliation.save(update_fields=["years"])


def affiliations_mark_last_known(researcher_ids: Iterable[int]) -> None:
    """Without an author profile to say so, the last-known institutions are those of the latest year."""
    with_profile = UpstreamCheck.objects.filter(
        subject=UpstreamCheck.Subject.RESEARCHER, source=HarvestRun.Source.OPENALEX, found=True
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
