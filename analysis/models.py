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


class PaperTopic(models.Model):
    """One of a paper's nearest 1–3 topics, `rank` 0 the nearest. A table of its own rather than a column
    of the paper: a recomputation rewrites these for every paper, and every papers_paper row rewritten is
    taken into the vector index again (one UPDATE of 100,000 papers' topics took 1,407 s, 2026-12-01),
    where these narrow rows have two small indexes."""

    # No index of their own: the two constraints' indexes lead with each.
    paper = models.ForeignKey(
        "papers.Paper", on_delete=models.CASCADE, related_name="topic_links", db_index=False
    )
    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="paper_links", db_index=False)
    rank = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            # A paper's topics in order; and `topic:` and the topic pages, which start from the topic.
            models.UniqueConstraint(fields=["paper", "rank"], name="paper_topic_paper_rank"),
            models.UniqueConstraint(fields=["topic", "paper"], name="paper_topic_topic_paper"),
        ]

    def __str__(self) -> str:
        return f"{self.paper_id} → {self.topic_id} ({self.rank})"


class PaperAnalysis(models.Model):
    """What the analysis found of one paper: its field, type, one-sentence summary, novelty with the
    closest earlier papers, and significance. A row exists once the paper has been analysed.

    A table of its own rather than columns of the paper, for the reason PaperTopic is: a papers_paper row
    rewritten is taken into its vector and text indexes again, so writing a batch of 256 papers' analysis
    there took 470-840 ms on the 100,000-paper benchmark corpus, and 3-6 ms into these narrow rows
    (2026-12-03), and ranking a fresh corpus's significance the first time rewrote every paper."""

    paper = models.OneToOneField(
        "papers.Paper", on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    analysed = models.DateTimeField(help_text="When the analysis last ran.")
    summary = models.TextField(
        null=True,
        blank=True,
        help_text="One sentence: the abstract's most central, or a language model's (summary_generated).",
    )
    summary_generated = models.BooleanField(
        default=False, help_text="The summary was written by a language model, not quoted from the abstract."
    )
    research_field = models.CharField(max_length=100, null=True, blank=True)
    paper_type = models.CharField(max_length=50, null=True, blank=True)
    novelty = models.FloatField(
        null=True, blank=True, help_text="Percentile of novelty_distance within field and year, 0–100."
    )
    novelty_distance = models.FloatField(
        null=True, blank=True, help_text="1 − cosine similarity to the closest earlier paper."
    )
    closest_earlier = ArrayField(
        models.IntegerField(), null=True, blank=True, help_text="Ids of the 3 closest earlier papers."
    )
    significance_score = models.FloatField(
        null=True, blank=True, help_text="Percentile of citations a year within field and year, 0–100."
    )

    class Meta:
        verbose_name_plural = "paper analyses"

    def __str__(self) -> str:
        return f"analysis of {self.paper_id}"
