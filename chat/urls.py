from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("chat", views.conversation_list, name="index"),
    path("chat/ask", views.ask, name="ask"),
    path("chat/delete-all", views.conversations_delete_all, name="delete-all"),
    path("chat/answers/<int:message_id>/stream", views.answer_stream, name="stream"),
    path("chat/<int:conversation_id>", views.conversation_detail, name="conversation"),
    path("chat/<int:conversation_id>/ask", views.follow_up, name="follow-up"),
    path("chat/<int:conversation_id>/rename", views.conversation_rename, name="rename"),
    path("chat/<int:conversation_id>/delete", views.conversation_delete, name="delete"),
    path("chat/<int:conversation_id>.md", views.conversation_export, name="export"),
]
