from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import Q
from django.utils import timezone

if TYPE_CHECKING:
    from harvest.models import HarvestRun


class HarvestRunQuerySet(models.QuerySet):
    def recent(self) -> HarvestRunQuerySet:
        return self.order_by("-started_at", "-id")

    def unfinished_with(self, source: str, parameters: dict[str, Any]) -> HarvestRun | None:
        """The latest run with exactly these parameters, if it did not succeed: a new run resumes it."""
        from harvest.models import HarvestRun

        latest = self.filter(source=source, parameters=parameters).recent().first()
        if latest is None or latest.state == HarvestRun.State.SUCCEEDED:
            return None
        return latest

    def last_succeeded(self, source: str, **parameters: Any) -> HarvestRun | None:
        from harvest.models import HarvestRun

        matching = self.filter(source=source, state=HarvestRun.State.SUCCEEDED)
        for name, value in parameters.items():
            matching = matching.filter(**{f"parameters__{name}": value})
        return matching.order_by("-finished_at", "-id").first()


# A source that knew a paper is asked again after a month (counts change); one that did not know it,
# after a week (arXiv papers reach OpenAlex and Semantic Scholar days after they appear).
RECHECK_FOUND_AFTER = datetime.timedelta(days=30)
RECHECK_MISSING_AFTER = datetime.timedelta(days=7)


def due_for_check(queryset: models.QuerySet, subject: str, source: str) -> models.QuerySet:
    """The rows of `queryset` (papers, researchers or institutions) that `source` should be asked about:
    never asked, or asked long enough ago."""
    from harvest.models import UpstreamCheck

    now = timezone.now()
    fresh = UpstreamCheck.objects.filter(subject=subject, source=source).filter(
        Q(found=True, checked_at__gte=now - RECHECK_FOUND_AFTER)
        | Q(found=False, checked_at__gte=now - RECHECK_MISSING_AFTER)
    )
    return queryset.exclude(pk__in=fresh.values("subject_id"))
