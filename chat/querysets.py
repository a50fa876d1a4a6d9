"""Reads of the chat app: whose conversations, in what order, and which answers are waiting."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Count, Q

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

# An answer claimed this long ago and still not done was left by a request that died: claim it again.
STALE_CLAIM = datetime.timedelta(minutes=5)


class ConversationQuerySet(models.QuerySet):
    def owned_by(self, user: AbstractBaseUser) -> ConversationQuerySet:
        """The reader's own conversations: anyone else's are not found."""
        return self.filter(owner=user) if user.is_authenticated else self.none()

    def recent_first(self) -> ConversationQuerySet:
        return self.order_by("-updated_at", "-id")

    def with_message_count(self) -> ConversationQuerySet:
        """Annotates `question_count`."""
        return self.annotate(question_count=Count("messages", filter=Q(messages__role="question")))


class MessageQuerySet(models.QuerySet):
    def claimable(self, now: datetime.datetime) -> MessageQuerySet:
        """Answers waiting to be written, or left half-written by a request that died."""
        return self.filter(
            Q(state="pending") | Q(state="answering", claimed_at__lt=now - STALE_CLAIM), role="answer"
        )

    def asked_by_since(self, user: AbstractBaseUser, since: datetime.datetime) -> MessageQuerySet:
        return self.filter(conversation__owner=user, role="question", created_at__gte=since)


class PaperSentenceVectorsQuerySet(models.QuerySet):
    def current_for(self, digests: dict[int, str]) -> dict[int, bytes]:
        """Of these papers ({id: digest of its model and abstract}), the stored vectors that are still
        theirs (1 query)."""
        rows = self.filter(paper_id__in=list(digests)).values_list("paper_id", "digest", "vectors")
        return {paper_id: bytes(raw) for paper_id, digest, raw in rows if digests[paper_id] == digest}
