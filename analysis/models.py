from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.urls import reverse
from pgvector.django import VectorField

from analysis.querysets import TopicQuerySet
from core.text import slug_of


class Topic(models.Model):
    """A cluster of the corpus's papers by meaning, named by its most distinctive words. Its id outlives a
    recomputation that finds the same cluster again; a topic that no longer has one of its own is merged
    into the nearest new one, and its address redirects there."""

    label = models.CharField(max_length=100)
    keywords = ArrayField(models.CharField(max_length=60), default=list, blank=True)
    size = models.PositiveIntegerField(default=0, help_text="Papers whose nearest topic this is.")
    centroid = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS, editable=False)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged_topics"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TopicQuerySet.as_manager()

    class Meta:
        ordering = ["-size", "id"]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return reverse("analysis:topic", kwargs={"topic_id": self.pk, "slug": self.slug})

    @property
    def slug(self) -> str:
        return slug_of(self.label, fallback="topic")
