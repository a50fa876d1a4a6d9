"""When each source was last asked about each paper, researcher and institution, for the sweeps."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone

from harvest.models import UpstreamCheck


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
