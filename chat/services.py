"""Writes of the chat app: conversations started, questions asked, answers claimed, composed and saved,
conversations renamed and deleted."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import Truncator

from chat.answers import Answer, Event, compose
from chat.models import Conversation, Message
from chat.retrieval import retrieve
from chat.scopes import CORPUS, Scope

logger = logging.getLogger(__name__)

TITLE_CHARS = 120
FAILED_NOTE = "This answer could not be composed. Ask again in a moment."


def conversation_start(*, owner: AbstractBaseUser, scope: Scope, question: str) -> Message:
    """A new conversation about `scope` with its first question; returns the answer waiting to be composed
    (2 writes and the conversation's, in one transaction)."""
    with transaction.atomic():
        conversation = Conversation.objects.create(
            owner=owner,
            title=Truncator(question).chars(TITLE_CHARS),
            scope_kind=scope.kind,
            scope_key=scope.key,
            scope_label=scope.label,
        )
        return _ask(conversation, question)


def question_ask(*, conversation: Conversation, question: str, widen: bool = False) -> Message:
    """A follow-up question; `widen` asks the whole corpus from now on. Returns the pending answer."""
    with transaction.atomic():
        if widen and not conversation.scope.is_corpus:
            conversation.scope_kind, conversation.scope_key, conversation.scope_label = CORPUS.kind, "", ""
        conversation.save()  # and its updated_at: the list shows recent conversations first
        return _ask(conversation, question)


def _ask(conversation: Conversation, question: str) -> Message:
    Message.objects.create(conversation=conversation, role=Message.Role.QUESTION, content=question)
    return Message.objects.create(
        conversation=conversation, role=Message.Role.ANSWER, state=Message.State.PENDING
    )


def answer_claim(*, message: Message) -> bool:
    """Claims a waiting answer for this request (a conditional UPDATE: of two tabs, one composes it).
    False when it is done or being composed elsewhere."""
    now = timezone.now()
    claimed = (
        Message.objects.claimable(now)
        .filter(pk=message.pk)
        .update(state=Message.State.ANSWERING, claimed_at=now)
    )
    return claimed == 1


def answer_release(*, message: Message) -> None:
    """Gives back a claimed answer that was not finished (its stream was closed half-way)."""
    Message.objects.filter(pk=message.pk, state=Message.State.ANSWERING).update(state=Message.State.PENDING)


def answer_events(*, message: Message) -> Iterator[Event]:
    """Composes a claimed answer: its text in pieces as it comes, then the Answer once it is saved.
    Retrieval follows the conversation: the previous question joins this one in finding papers, and the
    papers cited before are candidates."""
    earlier = list(
        Message.objects.filter(conversation_id=message.conversation_id, pk__lt=message.pk).order_by("pk")
    )
    question = next(m.content for m in reversed(earlier) if m.role == Message.Role.QUESTION)
    history, asked = [], ""
    for item in earlier[:-1]:
        if item.role == Message.Role.QUESTION:
            asked = item.content
        elif item.state == Message.State.DONE and asked:
            history.append((asked, item.content))
    cited_before = [  # the latest answer's sources first
        source["paper_id"]
        for item in reversed(earlier)
        if item.role == Message.Role.ANSWER
        for source in item.sources
    ]
    retrieval = retrieve(
        question,
        message.conversation.scope,
        context=history[-1][0] if history else "",
        earlier_paper_ids=list(dict.fromkeys(cited_before)),
    )
    for event in compose(retrieval, history):
        if isinstance(event, Answer):
            answer_save(message=message, answer=event)
        yield event


def answer_save(*, message: Message, answer: Answer) -> None:
    message.content = answer.text
    message.sources = [source.as_json() for source in answer.sources]
    message.generator = answer.generator
    message.note = answer.note
    message.state = Message.State.DONE
    message.save(update_fields=["content", "sources", "generator", "note", "state"])


def answer_fail(*, message: Message) -> None:
    """Something broke while composing (logged by the caller): the answer says so, and is done."""
    message.content, message.sources, message.note = "", [], FAILED_NOTE
    message.state = Message.State.DONE
    message.save(update_fields=["content", "sources", "note", "state"])


def message_answer(*, message: Message) -> Message:
    """Composes a claimed answer whole (the page without JavaScript waits for it)."""
    try:
        for _ in answer_events(message=message):
            pass
    except Exception:
        logger.exception("chat: composing answer %s failed", message.pk)
        answer_fail(message=message)
    return message


def conversation_rename(*, conversation: Conversation, title: str) -> None:
    conversation.title = Truncator(" ".join(title.split())).chars(TITLE_CHARS) or conversation.title
    conversation.save(update_fields=["title"])  # renaming is not activity: the list order stays


def conversation_delete(*, conversation: Conversation) -> None:
    conversation.delete()


def conversations_delete_all(*, owner: AbstractBaseUser) -> int:
    _, counts = Conversation.objects.owned_by(owner).delete()
    return counts.get(Conversation._meta.label, 0)
