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
        latest = self.filter(source=source, parameters=parameters).recent().first()
        if latest is None or latest.state == self.model.State.SUCCEEDED:
            return None
        return latest

    def last_succeeded(self, source: str, **parameters: Any) -> HarvestRun | None:
        matching = self.filter(source=source, state=self.model.State.SUCCEEDED)
        for name, value in parameters.items():
            matching = matching.filter(**{f"parameters__{name}": value})
        return matching.order_by("-finished_at", "-id").first()


# A source that knew a paper is asked again after a month (counts change); one that did not know it,
# after a week (arXiv papers reach OpenAlex and Semantic Scholar days after they appear).
RECHECK_FOUND_AFTER = datetime.timedelta(days=30)
RECHECK_MISSING_AFTER = datetime.timedelta(days=7)


class UpstreamCheckQuerySet(models.QuerySet):
    def fresh(self, subject: str, source: str) -> UpstreamCheckQuerySet:
        """The checks of `source` on rows of `subject` that are too recent to ask again: a row it knew,
        asked within a month; a row it did not know, within a week."""
        now = timezone.now()
        return self.filter(subject=subject, source=source).filter(
            Q(found=True, checked_at__gte=now - RECHECK_FOUND_AFTER)
            | Q(found=False, checked_at__gte=now - RECHECK_MISSING_AFTER)
        )

    def due_among(self, queryset: models.QuerySet, subject: str, source: str) -> models.QuerySet:
        """The rows of `queryset` (papers, researchers or institutions) that `source` should be asked
        about: never asked, or asked long enough ago."""
        return queryset.exclude(pk__in=self.fresh(subject, source).values("subject_id"))
