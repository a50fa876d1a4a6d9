"""A paper's analysis moves from columns of `Paper` to PaperAnalysis rows, so analysing a batch never
rewrites papers_paper rows (see PaperAnalysis). What was analysed is carried over; papers 0009 then drops
the columns."""

import django.contrib.postgres.fields
import django.db.models.deletion
from django.db import migrations, models

_COLUMNS = (
    "analysed, summary, summary_generated, research_field, paper_type, novelty, novelty_distance, "
    "closest_earlier, significance_score"
)
_CARRY = f"""
    INSERT INTO analysis_paperanalysis (paper_id, {_COLUMNS})
    SELECT id, {_COLUMNS} FROM papers_paper WHERE analysed IS NOT NULL
    ON CONFLICT DO NOTHING
"""  # noqa: S608 - constants
_CARRY_BACK = f"""
    UPDATE papers_paper SET ({_COLUMNS}) = (
        SELECT {_COLUMNS} FROM analysis_paperanalysis WHERE analysis_paperanalysis.paper_id = papers_paper.id
    )
    WHERE id IN (SELECT paper_id FROM analysis_paperanalysis)
"""  # noqa: S608 - constants


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0002_paper_topics"),
        ("papers", "0008_paper_topics_moved"),
    ]

    operations = [
        migrations.CreateModel(
            name="PaperAnalysis",
            fields=[
                (
                    "paper",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="analysis",
                        serialize=False,
                        to="papers.paper",
                    ),
                ),
                ("analysed", models.DateTimeField(help_text="When the analysis last ran.")),
                (
                    "summary",
                    models.TextField(
                        blank=True,
                        help_text="One sentence: the abstract's most central, or a language model's "
                        "(summary_generated).",
                        null=True,
                    ),
                ),
                (
                    "summary_generated",
                    models.BooleanField(
                        default=False,
                        help_text="The summary was written by a language model, not quoted from the abstract.",
                    ),
                ),
                ("research_field", models.CharField(blank=True, max_length=100, null=True)),
                ("paper_type", models.CharField(blank=True, max_length=50, null=True)),
                (
                    "novelty",
                    models.FloatField(
                        blank=True,
                        help_text="Percentile of novelty_distance within field and year, 0–100.",
                        null=True,
                    ),
                ),
                (
                    "novelty_distance",
                    models.FloatField(
                        blank=True, help_text="1 − cosine similarity to the closest earlier paper.", null=True
                    ),
                ),
                (
                    "closest_earlier",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.IntegerField(),
                        blank=True,
                        help_text="Ids of the 3 closest earlier papers.",
                        null=True,
                        size=None,
                    ),
                ),
                (
                    "significance_score",
                    models.FloatField(
                        blank=True,
                        help_text="Percentile of citations a year within field and year, 0–100.",
                        null=True,
                    ),
                ),
            ],
            options={"verbose_name_plural": "paper analyses"},
        ),
        migrations.RunSQL(_CARRY, _CARRY_BACK),
    ]
