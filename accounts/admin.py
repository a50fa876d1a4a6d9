from django.contrib import admin

from accounts.models import AccountSettings, Follow, SavedSearch


@admin.register(AccountSettings)
class AccountSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "digest_frequency", "digest_following", "last_digest_at", "created_at"]
    list_filter = ["digest_frequency"]
    search_fields = ["user__email"]
    raw_id_fields = ["user"]
    exclude = ["feed_token"]  # a secret: staff have no reason to read it
    readonly_fields = ["last_digest_at", "created_at", "updated_at"]


@admin.register(SavedSearch)
class SavedSearchAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "email_alerts", "created_at", "last_notified_at"]
    search_fields = ["name", "owner__email"]
    raw_id_fields = ["owner"]
    readonly_fields = ["created_at", "last_notified_at"]


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ["user", "researcher", "created_at"]
    search_fields = ["user__email", "researcher__display_name"]
    raw_id_fields = ["user", "researcher"]
