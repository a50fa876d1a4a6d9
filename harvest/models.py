from django.db import models


class HarvestRun(models.Model):
    """One run of one harvester: what it was asked, how far it got and what went wrong."""

    class Source(models.TextChoices):
        ARXIV_OAI = "arxiv-oai", "arXiv OAI-PMH"
        ARXIV_API = "arxiv-api", "arXiv API"
        OPENALEX = "openalex", "OpenAlex"
        SEMANTIC_SCHOLAR = "s2", "Semantic Scholar"
        DEMO = "demo", "Demo corpus"
        EMBED = "embed", "Embeddings"

    class State(models.TextChoices):
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    source = models.CharField(max_length=20, choices=Source.choices)
    parameters = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=20, choices=State.choices, default=State.RUNNING)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_count = models.PositiveIntegerField(default=0)
    updated_count = models.PositiveIntegerField(default=0)
    skipped_count = models.PositiveIntegerField(default=0)
    errors = models.JSONField(default=list, blank=True)
    checkpoint = models.JSONField(default=dict, blank=True, help_text="Where a resumed run picks up.")

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["source", "state", "-started_at"], name="harvestrun_source_state")]

    def __str__(self) -> str:
        return f"{self.get_source_display()} run {self.pk} ({self.state})"
