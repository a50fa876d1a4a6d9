"""Reads of the accounts app: whose digest is due, whose saved searches, what a follower sees."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Count, F, Q, Sum

from wovepaper.expressions import in_array

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from papers.querysets import PaperQuerySet
    from researchers.querysets import ResearcherQuerySet

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


def researchers_followed_by(user: AbstractBaseUser) -> ResearcherQuerySet:
    """The researchers `user` follows, latest followed first, with their follower counts."""
    from researchers.models import Researcher

    return (
        Researcher.objects.filter(follows__user=user)
        .with_followers(user)
        .order_by("-follows__created_at", "id")
    )


def papers_by_researchers_followed_by(user: AbstractBaseUser) -> PaperQuerySet:
    """Every paper with an author `user` follows, each once."""
    from papers.models import Authorship, Paper
    from researchers.models import Follow

    followed = Follow.objects.filter(user=user).values("researcher_id")
    authored = Authorship.objects.filter(in_array("researcher_id", followed)).values("paper_id")
    return Paper.objects.filter(in_array("pk", authored))


def researchers_most_cited_in(categories: list[str]) -> ResearcherQuerySet:
    """Researchers with papers in any of `categories`, most cited there first: the citations of their
    papers in those fields added up (papers without a count add nothing), then how many such papers."""
    from researchers.models import Researcher

    return (
        Researcher.objects.filter(authorships__paper__categories__overlap=categories)
        .annotate(
            citations_in_fields=Sum("authorships__paper__cited_by_count"),
            papers_in_fields=Count("authorships__paper", distinct=True),
        )
        .order_by(F("citations_in_fields").desc(nulls_last=True), "-papers_in_fields", "id")
    )
