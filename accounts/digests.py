"""E-mail digests: what is new since an account's last digest, among the papers of the researchers it
follows and the matches of its saved searches (those with alerts on), sent only to accounts that opted in.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts import emails
from accounts.models import AccountSettings, SavedSearch
from accounts.querysets import DIGEST_PERIODS
from accounts.saved_searches import new_matches, run_url
from accounts.tokens import unsubscribe_path
from core.links import absolute_url
from papers.models import Paper
from researchers.models import Researcher

logger = logging.getLogger(__name__)

PAPERS_PER_SECTION = 20


@dataclass(frozen=True)
class DigestSection:
    title: str
    url: str  # the page with all of them
    papers: list[Paper]
    saved_search: SavedSearch | None = None


@dataclass(frozen=True)
class Digest:
    since: datetime.datetime
    sections: list[DigestSection]

    @property
    def paper_count(self) -> int:
        return sum(len(section.papers) for section in self.sections)


def digest_compose(account: AccountSettings, *, since: datetime.datetime) -> Digest:
    """What came into the corpus after `since` (a saved search's matches only after it was saved)."""
    sections = []
    if account.digest_following:
        followed = Researcher.objects.followed_by(account.user)
        papers = Paper.objects.by_researchers(followed).filter(created_at__gt=since)
        fresh = list(papers.newest_first().for_lists()[:PAPERS_PER_SECTION])
        if fresh:
            sections.append(
                DigestSection("Researchers you follow", absolute_url(reverse("accounts:following")), fresh)
            )
    for saved_search in SavedSearch.objects.owned_by(account.user).with_alerts().order_by("name", "id"):
        fresh = new_matches(saved_search, since=max(since, saved_search.created_at), limit=PAPERS_PER_SECTION)
        if fresh:
            sections.append(
                DigestSection(saved_search.name, absolute_url(run_url(saved_search)), fresh, saved_search)
            )
    return Digest(since=since, sections=sections)


def digest_send(*, user_id: int, now: datetime.datetime | None = None) -> int:
    """Sends the account's digest if it is due and has anything new; returns how many papers it listed.

    Safe to run twice: the account is claimed by moving `last_digest_at` on with a conditional UPDATE, in
    the same transaction as the sending, so a second run finds it no longer due, and a failed send leaves
    it due for the next run."""
    now = now or timezone.now()
    account = AccountSettings.objects.due_for_digest(now).select_related("user").filter(pk=user_id).first()
    if account is None:  # gone, opted out, or sent already
        return 0
    since = account.last_digest_at or now - DIGEST_PERIODS[account.digest_frequency]
    digest = digest_compose(account, since=since)
    with transaction.atomic():
        claimed = AccountSettings.objects.filter(pk=user_id, last_digest_at=account.last_digest_at).update(
            last_digest_at=now
        )
        if not claimed:
            return 0
        if digest.paper_count:
            _send(account, digest)
            searches = [section.saved_search.pk for section in digest.sections if section.saved_search]
            SavedSearch.objects.filter(pk__in=searches).update(last_notified_at=now)
    logger.info("digest for account %s: %s papers", user_id, digest.paper_count)
    return digest.paper_count


def _send(account: AccountSettings, digest: Digest) -> None:
    unsubscribe = absolute_url(unsubscribe_path(account.user))
    frequency = account.get_digest_frequency_display().lower()
    context = {
        "digest": digest,
        "frequency": frequency,
        "unsubscribe_url": unsubscribe,
        "account_url": absolute_url(f"{reverse('accounts:account')}#alerts"),
    }
    emails.send(
        to=account.user.email,
        subject=f"{digest.paper_count} new paper{'s' if digest.paper_count != 1 else ''} for you",
        template="accounts/email/digest.txt",
        html_template="accounts/email/digest.html",
        context=context,
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",  # RFC 8058: the mail program POSTs
            "Auto-Submitted": "auto-generated",
        },
    )


def due_digest_account_ids(now: datetime.datetime | None = None) -> list[int]:
    return list(AccountSettings.objects.due_for_digest(now or timezone.now()).values_list("pk", flat=True))
