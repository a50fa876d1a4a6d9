import secrets

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models

from accounts.querysets import AccountSettingsQuerySet, SavedSearchQuerySet

FEED_TOKEN_BYTES = 32  # 43 URL-safe characters: as hard to guess as a password manager's


def new_feed_token() -> str:
    return secrets.token_urlsafe(FEED_TOKEN_BYTES)


class DigestFrequency(models.TextChoices):
    NEVER = "never", "Never"
    DAILY = "daily", "Daily"
    WEEKLY = "weekly", "Weekly"


class AccountSettings(models.Model):
    """What an account chose beyond Django's User: fields of interest, its secret feed token and e-mail
    digests. Every account has one (made with the account; `account_settings_for` makes missing ones)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="account_settings"
    )
    fields = ArrayField(
        models.CharField(max_length=32), default=list, blank=True, help_text="arXiv categories chosen."
    )
    feed_token = models.CharField(
        max_length=64, unique=True, default=new_feed_token, help_text="In the private feeds' URLs."
    )
    digest_frequency = models.CharField(
        max_length=8, choices=DigestFrequency.choices, default=DigestFrequency.NEVER
    )
    digest_following = models.BooleanField(
        default=True, help_text="The digest has new papers by the researchers followed."
    )
    last_digest_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Digests have covered new papers until then: set on opting in, moved on by each digest.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = AccountSettingsQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "account settings"
        indexes = [
            # The digest task looks for opted-in accounts whose digest is due.
            models.Index(
                fields=["digest_frequency", "last_digest_at"],
                name="account_digest_due",
                condition=~models.Q(digest_frequency="never"),
            )
        ]

    def __str__(self) -> str:
        return f"settings of {self.user}"

    @property
    def wants_digest(self) -> bool:
        return self.digest_frequency != DigestFrequency.NEVER


class SavedSearch(models.Model):
    """A search kept by its owner: /search's query string, as read and rewritten by read_params."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_searches"
    )
    name = models.CharField(max_length=120)
    query_string = models.TextField(
        help_text="The search's parameters for /search: q, mode, cat (repeated), from, to, cited, sort."
    )
    email_alerts = models.BooleanField(default=True, help_text="New matches go in the owner's digest.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_notified_at = models.DateTimeField(
        null=True, blank=True, help_text="When a digest last carried new matches of this search."
    )

    objects = SavedSearchQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "saved searches"
        constraints = [
            models.UniqueConstraint(fields=["owner", "query_string"], name="saved_search_unique_per_owner")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.owner})"


class Follow(models.Model):
    """An account following a researcher: their new papers reach /following, the feeds and the digests."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    researcher = models.ForeignKey("researchers.Researcher", on_delete=models.CASCADE, related_name="follows")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "researchers_follow"  # the model moved here from researchers; its table did not
        constraints = [models.UniqueConstraint(fields=["user", "researcher"], name="follow_unique")]

    def __str__(self) -> str:
        return f"{self.user} follows {self.researcher}"
