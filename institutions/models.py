from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.db import models
from django.db.models import Q
from django.db.models.functions import Upper
from django.urls import reverse

from core.text import slug_of
from institutions.querysets import InstitutionQuerySet


class Institution(models.Model):
    name = models.CharField(max_length=255, db_index=True)
    ror_id = models.CharField(max_length=16, null=True, blank=True, unique=True, help_text="042nb2s44")
    openalex_id = models.CharField(max_length=32, null=True, blank=True, unique=True)
    country_code = models.CharField(max_length=2, blank=True)
    type = models.CharField(max_length=50, blank=True)
    homepage = models.URLField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = InstitutionQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        # Both the /institutions name filter and search match names with name__icontains
        # (UPPER(name) LIKE …), which only a trigram index on UPPER(name) answers.
        indexes = [GinIndex(OpClass(Upper("name"), name="gin_trgm_ops"), name="institution_name_trgm")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("institutions:detail", kwargs={"institution_id": self.pk, "slug": self.slug})

    @property
    def slug(self) -> str:
        return slug_of(self.name, fallback="institution")

    @property
    def ror_url(self) -> str:
        return f"https://ror.org/{self.ror_id}" if self.ror_id else ""


class Affiliation(models.Model):
    researcher = models.ForeignKey(
        "researchers.Researcher", on_delete=models.CASCADE, related_name="affiliations"
    )
    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="affiliations")
    years = ArrayField(models.PositiveSmallIntegerField(), default=list, blank=True)
    last_known = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["researcher", "institution"], name="affiliation_unique"),
        ]
        indexes = [
            models.Index(fields=["institution", "researcher"], name="affiliation_institution"),
            models.Index(fields=["researcher"], condition=Q(last_known=True), name="affiliation_last_known"),
        ]

    def __str__(self) -> str:
        return f"{self.researcher} at {self.institution}"
