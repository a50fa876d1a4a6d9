"""A reader's conversations with the papers: questions and the answers composed from the corpus, each
answer with the sources it cites (a snapshot: the list renders without reading the papers again)."""

from django.conf import settings
from django.db import models
from django.urls import reverse

from chat.querysets import ConversationQuerySet, MessageQuerySet, PaperSentenceVectorsQuerySet
from chat.scopes import Scope, ScopeKind


class Conversation(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(max_length=200, help_text="The first question, until the reader renames it.")
    scope_kind = models.CharField(max_length=16, choices=ScopeKind.choices, default=ScopeKind.CORPUS)
    scope_key = models.CharField(
        max_length=600, blank=True, help_text="The arXiv id, researcher or institution id, or search query."
    )
    scope_label = models.CharField(max_length=300, blank=True, help_text="What the reader saw it called.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ConversationQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"], name="conversation_owner_recent")]

    def __str__(self) -> str:
        return f"conversation {self.pk}"  # not its title: staff see counts, not contents

    def get_absolute_url(self) -> str:
        return reverse("chat:conversation", kwargs={"conversation_id": self.pk})

    @property
    def scope(self) -> Scope:
        return Scope(ScopeKind(self.scope_kind), self.scope_key, self.scope_label)


class Message(models.Model):
    class Role(models.TextChoices):
        QUESTION = "question"
        ANSWER = "answer"

    class State(models.TextChoices):
        PENDING = "pending"  # asked, not yet being answered
        ANSWERING = "answering"  # claimed by one request, which streams it
        DONE = "done"

    class Generator(models.TextChoices):
        EXTRACTIVE = "extractive", "Quoted from the abstracts"
        MODEL = "model", "Written by a language model from the abstracts"

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    role = models.CharField(max_length=16, choices=Role.choices)
    content = models.TextField(blank=True, help_text="The question, or the answer as Markdown with [n].")
    sources = models.JSONField(default=list, blank=True, help_text="The cited papers, numbered.")
    generator = models.CharField(max_length=16, choices=Generator.choices, blank=True)
    note = models.CharField(max_length=300, blank=True, help_text="Said under the answer, e.g. a fallback.")
    state = models.CharField(max_length=16, choices=State.choices, default=State.DONE)
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MessageQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["conversation", "created_at"], name="message_conversation_order")]

    def __str__(self) -> str:
        return f"{self.role} {self.pk}"

    @property
    def is_pending(self) -> bool:
        return self.state != self.State.DONE


class PaperSentenceVectors(models.Model):
    """A paper's abstract sentences as the embedding model sees them, encoded once (when the paper is
    embedded, or when a question first reaches it) so that a question only encodes itself."""

    paper = models.OneToOneField("papers.Paper", primary_key=True, on_delete=models.CASCADE, related_name="+")
    digest = models.CharField(
        max_length=32, help_text="Of the model and the abstract: vectors of an older text are encoded again."
    )
    vectors = models.BinaryField(help_text="float16 unit vectors, one row per sentence, in order.")
    encoded_at = models.DateTimeField(auto_now=True)

    objects = PaperSentenceVectorsQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "paper sentence vectors"

    def __str__(self) -> str:
        return f"sentence vectors of paper {self.paper_id}"
