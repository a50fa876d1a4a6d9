from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from pgvector.django import HnswIndex, VectorField

from core.text import slug_of
from papers import identifiers
from papers.querysets import AuthorshipQuerySet, PaperQuerySet

if TYPE_CHECKING:
    from analysis.models import PaperAnalysis


def paper_slug(title: str) -> str:
    """The readable part of a paper's canonical URL: its title's."""
    return slug_of(title, fallback="paper")


class AuthorsText(models.Func):
    """The author list as one string, through an IMMUTABLE SQL wrapper (see migration 0001) so a
    generated column may use it: PostgreSQL's own array_to_string is only STABLE."""

    function = "wovepaper_authors_text"
    output_field = models.TextField()


class Paper(models.Model):
    arxiv_id = models.CharField(
        max_length=40, unique=True, help_text="Without version: 2201.12423 or astro-ph/9901001."
    )
    version = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Latest version seen.")
    title = models.TextField()
    abstract = models.TextField(blank=True)
    authors = ArrayField(
        models.TextField(), default=list, blank=True, help_text="Names as written, in order."
    )
    categories = ArrayField(models.CharField(max_length=32), default=list, blank=True)
    primary_category = models.CharField(max_length=32, blank=True, db_index=True)
    published = models.DateField(help_text="First posted on arXiv.", db_index=True)
    updated = models.DateField(null=True, blank=True)
    doi = models.CharField(max_length=255, blank=True)
    journal_ref = models.TextField(blank=True)
    comments = models.TextField(blank=True)
    license = models.URLField(max_length=255, blank=True)

    cited_by_count = models.PositiveIntegerField(null=True, blank=True, help_text="Null until a source says.")
    reference_count = models.PositiveIntegerField(
        null=True, blank=True, help_text="All references, in the corpus or not; null until known."
    )
    citations_refreshed_at = models.DateTimeField(null=True, blank=True)
    openalex_id = models.CharField(max_length=32, null=True, blank=True, unique=True)
    s2_id = models.CharField(max_length=64, null=True, blank=True, unique=True)

    embedding = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    search_vector = models.GeneratedField(
        expression=SearchVector("title", weight="A", config="english")
        + SearchVector("abstract", weight="B", config="english")
        + SearchVector(AuthorsText("authors"), weight="C", config="simple"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    slug = models.SlugField(max_length=100, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = PaperQuerySet.as_manager()

    class Meta:
        ordering = ["-published", "-arxiv_id"]
        indexes = [
            GinIndex(fields=["search_vector"], name="paper_search_vector_gin"),
            GinIndex(fields=["categories"], name="paper_categories_gin"),
            # ef_construction 200, not pgvector's default of 64: the papers' vectors come in tight
            # families (versions, near-duplicates, one topic's papers), and with 64 candidates per insert
            # the graph left some families reachable by few edges, so a search for one found none of its
            # true ten (probe recall 0.2 at 20,000 bench papers, all 200 probes 1.0 with 200; see README,
            # Performance). The build takes about twice as long.
            HnswIndex(
                name="paper_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=200,
                opclasses=["vector_cosine_ops"],
            ),
            models.Index(F("cited_by_count").desc(nulls_last=True), name="paper_cited_by_count_desc"),
            # The default order, newest first: the home page, feeds and lists read its first rows. On
            # `published` alone, PostgreSQL sorted each day's papers by id, all 58,000 of a backfilled day.
            models.Index(F("published").desc(), F("arxiv_id").desc(), name="paper_newest_first"),
        ]

    def __str__(self) -> str:
        return f"{self.arxiv_id}: {self.title[:80]}"

    def get_absolute_url(self) -> str:
        return reverse("papers:detail", kwargs={"arxiv_id": self.arxiv_id, "slug": self.slug})

    @property
    def abs_url(self) -> str:
        return identifiers.abs_url(self.arxiv_id)

    @property
    def analysis_or_none(self) -> PaperAnalysis | None:
        """The paper's analysis (a row of its own: see analysis.PaperAnalysis), None until it has been
        analysed; `select_related("analysis")` fetches it with the paper."""
        return getattr(self, "analysis", None)  # a missing reverse one-to-one raises AttributeError

    @property
    def pdf_url(self) -> str:
        return identifiers.pdf_url(self.arxiv_id)


class Authorship(models.Model):
    # Each foreign key leads an index of two columns below (the unique position, authorship_researcher_paper)
    # and has no index of its own; normalised_name is compared whole, never by prefix, so it has no
    # text_pattern_ops index either. Three fewer indexes to write for every author harvested: a page's
    # grouping took 0.74 s against 0.81 on the 100,000-paper ingest benchmark (alternating in one
    # process), and the table 31 MB less disk.
    paper = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="authorships", db_index=False)
    position = models.PositiveSmallIntegerField(help_text="1-based, in the paper's author order.")
    name = models.TextField(help_text="The name as written on the paper.")
    normalised_name = models.TextField()
    affiliations = ArrayField(
        models.TextField(), default=list, blank=True, help_text="As the source printed them for this paper."
    )
    is_collaboration = models.BooleanField(
        default=False,
        help_text="A team, collaboration or company: listed among the authors, never a researcher.",
    )
    researcher = models.ForeignKey(
        "researchers.Researcher",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="authorships",
        db_index=False,
    )

    objects = AuthorshipQuerySet.as_manager()

    class Meta:
        ordering = ["paper", "position"]
        constraints = [
            models.UniqueConstraint(fields=["paper", "position"], name="authorship_unique_position"),
            models.CheckConstraint(condition=Q(position__gte=1), name="authorship_position_from_one"),
            models.CheckConstraint(
                condition=Q(is_collaboration=False) | Q(researcher__isnull=True),
                name="authorship_collaboration_no_researcher",
            ),
        ]
        indexes = [
            models.Index(fields=["researcher", "paper"], name="authorship_researcher_paper"),
            models.Index(fields=["normalised_name"], name="authorship_normalised_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.position}) on {self.paper.arxiv_id}"

    @property
    def url(self) -> str:
        """The matched researcher's page; empty for an author not matched to one."""
        return self.researcher.get_absolute_url() if self.researcher_id else ""


class Citation(models.Model):
    """One paper in the corpus citing another paper in the corpus."""

    citing = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="references_out")
    cited = models.ForeignKey(Paper, on_delete=models.CASCADE, related_name="citations_in")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["citing", "cited"], name="citation_unique_edge"),
            models.CheckConstraint(condition=~Q(citing=F("cited")), name="citation_not_self"),
        ]
        indexes = [models.Index(fields=["cited", "citing"], name="citation_cited_citing")]

    def __str__(self) -> str:
        return f"{self.citing.arxiv_id} cites {self.cited.arxiv_id}"
