from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import F
from django.urls import reverse

from researchers.names import name_slug
from researchers.querysets import ResearcherQuerySet


class Researcher(models.Model):
    display_name = models.TextField()
    normalised_name = models.TextField(db_index=True)
    openalex_id = models.CharField(max_length=32, null=True, blank=True, unique=True)
    s2_id = models.CharField(max_length=32, null=True, blank=True, unique=True)
    orcid = models.CharField(max_length=19, blank=True, help_text="0000-0002-1825-0097")
    h_index = models.PositiveIntegerField(null=True, blank=True)
    citation_count = models.PositiveIntegerField(null=True, blank=True)
    works_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="All their works upstream, not only those here."
    )
    metrics_refreshed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ResearcherQuerySet.as_manager()

    class Meta:
        ordering = ["display_name", "id"]
        indexes = [
            GinIndex(fields=["normalised_name"], opclasses=["gin_trgm_ops"], name="researcher_name_trgm"),
            # The /researchers index pages through everyone in name order.
            models.Index(fields=["display_name", "id"], name="researcher_display_name"),
            # An institution lists its researchers most cited first: a large one finds a page by walking
            # this index and probing membership.
            models.Index(
                F("citation_count").desc(nulls_last=True),
                F("h_index").desc(nulls_last=True),
                "display_name",
                "id",
                name="researcher_most_cited",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("researchers:detail", kwargs={"researcher_id": self.pk, "slug": self.slug})

    @property
    def slug(self) -> str:
        return name_slug(self.display_name)

    @property
    def has_upstream_identity(self) -> bool:
        return bool(self.openalex_id or self.s2_id)


class ResearcherRedirect(models.Model):
    """A researcher id that was absorbed into another; its URL answers 301 to the survivor forever."""

    old_id = models.BigIntegerField(primary_key=True)
    researcher = models.ForeignKey(Researcher, on_delete=models.CASCADE, related_name="absorbed_ids")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.old_id} → {self.researcher_id}"


class RemovedResearcher(models.Model):
    """A researcher id that was not a person (a team, a punctuation fragment) and was removed; its URL
    answers 410 Gone, so that links to it learn it is gone for good rather than mistyped."""

    old_id = models.BigIntegerField(primary_key=True)
    display_name = models.TextField()
    reason = models.TextField(help_text="Why it was no researcher: a collaboration, a fragment of a name.")
    removed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.old_id} ({self.display_name}): {self.reason}"
