"""Chat's pages: the question form (the dock's panel, or a page of its own without JavaScript), asking
and following up, the answer's stream, a conversation, the list of them, rename, delete, export.

Every page is the signed-in reader's own: another reader's conversation or answer is not found. With htmx
a question's answer streams in (Server-Sent Events from `answer_stream`); without JavaScript the form
posts, the answer is composed whole and the conversation page shows it."""

from __future__ import annotations

import json
import logging
import time
import unicodedata
from collections.abc import Iterator

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat import services
from chat.answers import Answer
from chat.models import Conversation, Message
from chat.scopes import CORPUS, Scope, resolve_scope
from core.pagination import paginate
from core.ratelimits import too_many_requests, wait_seconds

logger = logging.getLogger(__name__)

CONVERSATIONS_PER_PAGE = 30
RATE_GROUP = "chat.questions"
DAY_GROUP = "chat.questions.day"
WAIT_FOR_OTHER_SECONDS = 30  # a stream that finds its answer composed elsewhere waits this long for it
WAIT_STEP_SECONDS = 0.25


def _limited(request: HttpRequest, form_context: dict, template: str) -> HttpResponse | None:
    """Counts a question against the account's CHAT_RATE_LIMIT, then its daily budget; past either, 429
    with Retry-After (the form again, saying so, for htmx)."""
    daily = f"{settings.CHAT_DAILY_QUESTIONS}/d"
    wait = wait_seconds(request, group=RATE_GROUP, rate=settings.CHAT_RATE_LIMIT, key="user") or wait_seconds(
        request, group=DAY_GROUP, rate=daily, key="user"
    )
    if not wait:
        return None
    minutes = max(1, round(wait / 60))
    error = f"You have asked as many questions as we can answer for now. Ask again in {minutes} minutes."
    if request.htmx:
        response = render(request, template, form_context | {"error": error}, status=429)
        response["Retry-After"] = str(wait)
        return response
    return too_many_requests(request, wait, template="chat/too_many_questions.html", context={"error": error})


def _question(request: HttpRequest) -> tuple[str, str]:
    """The question typed (control characters dropped, spaces kept), and what is wrong with it, if
    anything."""
    raw = request.POST.get("question", "")
    text = "".join(c for c in raw if c in "\n\t" or unicodedata.category(c)[0] != "C").strip()
    if not text:
        return "", "Type a question first."
    if len(text) > settings.CHAT_MAX_QUESTION_CHARS:
        return text, (
            f"A question can be at most {settings.CHAT_MAX_QUESTION_CHARS:,} characters long; "
            f"this one has {len(text):,}. Shorten it and ask again."
        )
    return text, ""


def _form_context(scope: Scope, **extra: object) -> dict:
    return {"scope": scope, "max_question_chars": settings.CHAT_MAX_QUESTION_CHARS} | extra


def _answered(request: HttpRequest, answer: Message) -> HttpResponse:
    """After a question: with htmx, the conversation's thread with the answer waiting to stream in;
    without, the answer composed whole and the conversation page."""
    conversation = answer.conversation
    if request.htmx:
        context = {"conversation": conversation, "messages": list(conversation.messages.all())}
        context |= _form_context(conversation.scope)
        return render(request, "chat/conversation.html#thread", context)
    if services.answer_claim(message=answer):
        services.message_answer(message=answer)
    return redirect(f"{conversation.get_absolute_url()}#message-{answer.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def ask(request: HttpRequest) -> HttpResponse:
    """A new conversation: GET shows the form for the scope the dock was opened on (`scope`), POST asks."""
    token = request.POST.get("scope", "") if request.method == "POST" else request.GET.get("scope", "corpus")
    widen = request.method == "POST" and request.POST.get("widen") == "1"
    scope = CORPUS if widen else resolve_scope(token or "corpus")
    fragment = "chat/ask.html#panel" if request.htmx else "chat/ask.html"
    if scope is None:
        context = _form_context(CORPUS, error="That page cannot be asked about; ask the whole corpus.")
        return render(request, fragment, context, status=400)
    context = _form_context(scope)
    if request.method == "GET":
        return render(request, fragment, context)
    form = "chat/ask.html#ask-form" if request.htmx else "chat/ask.html"
    if limited := _limited(request, context, form):
        return limited
    question, error = _question(request)
    if error:
        return render(request, form, context | {"error": error, "question": question}, status=400)
    answer = services.conversation_start(owner=request.user, scope=scope, question=question)
    return _answered(request, answer)


@login_required
@require_POST
def follow_up(request: HttpRequest, conversation_id: int) -> HttpResponse:
    conversation = get_object_or_404(Conversation.objects.owned_by(request.user), pk=conversation_id)
    template = "chat/conversation.html#thread" if request.htmx else "chat/conversation.html"
    context = {"conversation": conversation, "messages": list(conversation.messages.all())}
    context |= _form_context(conversation.scope)
    if limited := _limited(request, context, template):
        return limited
    question, error = _question(request)
    if error:
        return render(request, template, context | {"error": error, "question": question}, status=400)
    widen = request.POST.get("widen") == "1"
    answer = services.question_ask(conversation=conversation, question=question, widen=widen)
    return _answered(request, answer)


@login_required
@require_GET
def answer_stream(request: HttpRequest, message_id: int) -> StreamingHttpResponse:
    """The answer as Server-Sent Events: `delta` events with its text as it is composed, then `done` with
    the answer's HTML (sources, citations linked). An answer already composed is sent `done` at once."""
    answers = Message.objects.select_related("conversation").filter(
        conversation__owner=request.user, role=Message.Role.ANSWER
    )
    message = get_object_or_404(answers, pk=message_id)
    response = StreamingHttpResponse(_events(message), content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    return response


def _sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def _events(message: Message) -> Iterator[str]:
    yield "retry: 2000\n\n"
    if services.answer_claim(message=message):
        try:
            for event in services.answer_events(message=message):
                if not isinstance(event, Answer):
                    yield _sse("delta", {"text": event})
        except GeneratorExit:  # the reader went away half-way: the next request composes it again
            services.answer_release(message=message)
            raise
        except Exception:
            logger.exception("chat: composing answer %s failed", message.pk)
            services.answer_fail(message=message)
    else:
        deadline = time.monotonic() + WAIT_FOR_OTHER_SECONDS
        while message.is_pending and time.monotonic() < deadline:
            time.sleep(WAIT_STEP_SECONDS)
            message.refresh_from_db()
        if message.is_pending:
            return  # the browser asks again (after `retry`) and waits on
    html = render_to_string("chat/_message.html", {"message": message})
    yield _sse("done", {"html": html})


@login_required
@require_GET
def conversation_detail(request: HttpRequest, conversation_id: int) -> HttpResponse:
    conversation = get_object_or_404(Conversation.objects.owned_by(request.user), pk=conversation_id)
    context = {"conversation": conversation, "messages": list(conversation.messages.all())}
    return render(request, "chat/conversation.html", context | _form_context(conversation.scope))


@login_required
@require_GET
def conversation_list(request: HttpRequest) -> HttpResponse:
    conversations = paginate(
        request,
        Conversation.objects.owned_by(request.user).with_message_count().recent_first(),
        CONVERSATIONS_PER_PAGE,
    )
    return render(request, "chat/index.html", {"conversations": conversations} | _form_context(CORPUS))


@login_required
@require_POST
def conversation_rename(request: HttpRequest, conversation_id: int) -> HttpResponse:
    conversation = get_object_or_404(Conversation.objects.owned_by(request.user), pk=conversation_id)
    services.conversation_rename(conversation=conversation, title=request.POST.get("title", ""))
    return redirect(conversation)


@login_required
@require_POST
def conversation_delete(request: HttpRequest, conversation_id: int) -> HttpResponse:
    conversation = get_object_or_404(Conversation.objects.owned_by(request.user), pk=conversation_id)
    services.conversation_delete(conversation=conversation)
    messages.success(request, "The conversation is deleted.")
    return redirect("chat:index")


@login_required
@require_POST
def conversations_delete_all(request: HttpRequest) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm, then delete all your conversations.")
        return redirect(f"{reverse('chat:index')}#delete-all")
    count = services.conversations_delete_all(owner=request.user)
    messages.success(request, f"{count} conversation{'s' if count != 1 else ''} deleted.")
    return redirect("chat:index")


@login_required
@require_GET
def conversation_export(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """The conversation as a Markdown file, answers with their numbered sources."""
    conversation = get_object_or_404(Conversation.objects.owned_by(request.user), pk=conversation_id)
    context = {"conversation": conversation, "messages": list(conversation.messages.all())}
    text = render_to_string("chat/conversation.md", context, request=request)
    response = HttpResponse(text, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="wovepaper-conversation-{conversation.pk}.md"'
    return response
