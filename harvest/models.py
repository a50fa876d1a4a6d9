from django.db import models

from harvest.querysets import HarvestRunQuerySet, UpstreamCheckQuerySet


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

    objects = HarvestRunQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["source", "state", "-started_at"], name="harvestrun_source_state")]

    def __str__(self) -> str:
        return f"{self.get_source_display()} run {self.pk} ({self.state})"


class UpstreamCheck(models.Model):
    """When a source was last asked about a paper, researcher or institution, and whether it knew it.

    Enrichment sweeps pick what was never asked, what a source did not know a while ago (arXiv papers
    reach OpenAlex after days) and what was asked long ago (counts go stale)."""

    class Subject(models.TextChoices):
        PAPER = "paper", "Paper"
        RESEARCHER = "researcher", "Researcher"
        INSTITUTION = "institution", "Institution"

    subject = models.CharField(max_length=12, choices=Subject.choices)
    subject_id = models.BigIntegerField()
    source = models.CharField(max_length=20, choices=HarvestRun.Source.choices)
    checked_at = models.DateTimeField()
    found = models.BooleanField()

    objects = UpstreamCheckQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["subject", "source", "subject_id"], name="upstreamcheck_unique"),
        ]
        indexes = [models.Index(fields=["subject", "source", "checked_at"], name="upstreamcheck_due")]

    def __str__(self) -> str:
        return f"{self.source} on {self.subject} {self.subject_id}: {'found' if self.found else 'unknown'}"


class UpstreamReference(models.Model):
    """A reference an upstream source lists for a paper, kept whether or not the cited work is in the
    corpus, so the Citation edge appears when the cited paper arrives later."""

    citing = models.ForeignKey("papers.Paper", on_delete=models.CASCADE, related_name="+")
    source = models.CharField(max_length=20, choices=HarvestRun.Source.choices)
    cited_upstream_id = models.CharField(max_length=64, help_text="W2741809807 or a Semantic Scholar paperId")
    cited_arxiv_id = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["citing", "source", "cited_upstream_id"], name="upstreamreference_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["cited_upstream_id"], name="upstreamreference_cited"),
            models.Index(
                fields=["cited_arxiv_id"],
                condition=~models.Q(cited_arxiv_id=""),
                name="upstreamreference_arxiv",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.citing_id} cites {self.source}:{self.cited_upstream_id}"


class RunLease(models.Model):
    """Who may run a harvester now, across machines: a row per harvester with an owner and an expiry,
    renewed while the run lives and with every page it stores (harvest/runs.py). A session advisory lock
    did this before, but behind PgBouncer in transaction mode a session is not a connection."""

    name = models.CharField(max_length=64, primary_key=True)
    owner = models.CharField(max_length=200)  # host:pid:random, so a log line names the machine
    acquired_at = models.DateTimeField()
    renewed_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} held by {self.owner} until {self.expires_at:%Y-%m-%d %H:%M:%S}"
