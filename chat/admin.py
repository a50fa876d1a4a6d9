"""Staff see how chat is used, not what was asked: conversations are private, so the admin lists counts
and dates only (no titles, questions, answers or scopes' labels), and changes nothing."""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from chat.models import Conversation


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ["pk", "owner", "scope_kind", "questions", "created_at", "updated_at"]
    list_filter = ["scope_kind", "created_at"]
    search_fields = ["owner__email"]
    fields = ["owner", "scope_kind", "questions", "created_at", "updated_at"]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Conversation]:
        return super().get_queryset(request).with_message_count().select_related("owner")

    @admin.display(description="questions", ordering="question_count")
    def questions(self, conversation: Conversation) -> int:
        return conversation.question_count

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Conversation | None = None) -> bool:
        return False
