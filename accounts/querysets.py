"""Reads of the accounts app: whose digest is due, whose saved searches. What a follower sees is read
through Researcher.objects.followed_by() and Paper.objects.by_researchers()."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Q

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

DIGEST_PERIODS = {"daily": datetime.timedelta(days=1), "weekly": datetime.timedelta(days=7)}
# The beat runs once a day at a fixed time, and a run takes a while: an hour's slack keeps a daily digest
# from slipping a whole day because yesterday's was marked a few seconds after today's run began.
DIGEST_SLACK = datetime.timedelta(hours=1)


class AccountSettingsQuerySet(models.QuerySet):
    def due_for_digest(self, now: datetime.datetime) -> AccountSettingsQuerySet:
        """Active accounts that opted in to a digest and whose last one is a day (a week) old."""
        due = Q()
        for frequency, period in DIGEST_PERIODS.items():
            due |= Q(digest_frequency=frequency) & (
                Q(last_digest_at__isnull=True) | Q(last_digest_at__lte=now - period + DIGEST_SLACK)
            )
        return self.filter(due, user__is_active=True)


class SavedSearchQuerySet(models.QuerySet):
    def owned_by(self, user: AbstractBaseUser) -> SavedSearchQuerySet:
        return self.filter(owner=user)

    def with_alerts(self) -> SavedSearchQuerySet:
        return self.filter(email_alerts=True)
