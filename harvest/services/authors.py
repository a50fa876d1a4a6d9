"""Upstream author profiles (OpenAlex, Semantic Scholar) applied to the researchers they identify:
metrics, ORCID, and (from OpenAlex) affiliations with their years and last-known flags."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db import transaction

from harvest.records import AuthorRecord
from harvest.services.institutions import affiliation_add, institution_key, institutions_upsert
from institutions.models import Affiliation, Institution
from researchers.models import Researcher
from researchers.services import UPSTREAM_ID_FIELDS, researcher_update_metrics


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
        institution = institutions.get(institution_key(affiliation.institution))
        if institution is not None:
            affiliation_add(researcher, institution, affiliation.years)
    last_known = {
        institutions[key].pk
        for institution in record.last_known_institutions
        if (key := institution_key(institution)) in institutions
    }
    for institution_id in last_known:
        Affiliation.objects.get_or_create(researcher=researcher, institution_id=institution_id)
    Affiliation.objects.filter(researcher=researcher, institution_id__in=last_known, last_known=False).update(
        last_known=True
    )
    Affiliation.objects.filter(researcher=researcher, last_known=True).exclude(
        institution_id__in=last_known
    ).update(last_known=False)
