"""Private RSS 2.0 feeds: the papers of the researchers an account follows, and each saved search's
newest matches. The account's secret token is in the URL (readers cannot sign in); rotating it on the
account page ends every old URL."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse

from accounts.models import AccountSettings, SavedSearch
from accounts.saved_searches import describe, newest_matches, run_url
from core.links import absolute_url
from papers.feeds import FEED_LENGTH, PaperFeed
from papers.models import Paper
from researchers.models import Researcher


def account_for_token(token: str) -> AccountSettings:
    """The active account whose feed token this is, or 404 (also for a token since rotated)."""
    return get_object_or_404(
        AccountSettings.objects.select_related("user"), feed_token=token, user__is_active=True
    )


class PrivateFeed(PaperFeed):
    def __call__(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().__call__(request, *args, **kwargs)
        # Someone's own list behind a secret: not for search engines, nor for shared caches.
        response["X-Robots-Tag"] = "noindex"
        response["Cache-Control"] = "private, max-age=300"
        return response


class FollowingFeed(PrivateFeed):
    def get_object(self, request: HttpRequest, token: str) -> AccountSettings:
        return account_for_token(token)

    def title(self, account: AccountSettings) -> str:
        return f"{settings.SITE_NAME}: new papers by researchers you follow"

    def description(self, account: AccountSettings) -> str:
        return f"The {FEED_LENGTH} newest papers by the researchers you follow on {settings.SITE_NAME}."

    def link(self) -> str:
        return absolute_url(reverse("accounts:following"))

    def feed_url(self, account: AccountSettings) -> str:
        return absolute_url(reverse("accounts:feed-following", kwargs={"token": account.feed_token}))

    def items(self, account: AccountSettings) -> list[Paper]:
        followed = Researcher.objects.followed_by(account.user)
        papers = Paper.objects.by_researchers(followed).newest_first().for_lists()
        return list(papers[:FEED_LENGTH])


@dataclass(frozen=True)
class SearchFeedSubject:
    token: str
    saved_search: SavedSearch


class SavedSearchFeed(PrivateFeed):
    def get_object(self, request: HttpRequest, token: str, saved_search_id: int) -> SearchFeedSubject:
        """The saved search, only through its owner's token: another account's token is a 404."""
        account = account_for_token(token)
        saved_search = get_object_or_404(SavedSearch.objects.owned_by(account.user), pk=saved_search_id)
        return SearchFeedSubject(token, saved_search)

    def title(self, subject: SearchFeedSubject) -> str:
        return f"{settings.SITE_NAME}: {subject.saved_search.name}"

    def description(self, subject: SearchFeedSubject) -> str:
        return f"The newest {describe(subject.saved_search)}, on {settings.SITE_NAME}."

    def link(self, subject: SearchFeedSubject) -> str:
        return absolute_url(run_url(subject.saved_search))

    def feed_url(self, subject: SearchFeedSubject) -> str:
        kwargs = {"token": subject.token, "saved_search_id": subject.saved_search.pk}
        return absolute_url(reverse("accounts:feed-saved-search", kwargs=kwargs))

    def items(self, subject: SearchFeedSubject) -> list[Paper]:
        return newest_matches(subject.saved_search, limit=FEED_LENGTH)
