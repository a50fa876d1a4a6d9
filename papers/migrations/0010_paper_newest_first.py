"""An index in the papers' default order, newest first. Concurrently, so harvests and the analysis go on
writing papers while it builds."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run inside a transaction

    dependencies = [
        ("papers", "0009_analysis_moved"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="paper",
            index=models.Index(
                models.OrderBy(models.F("published"), descending=True),
                models.OrderBy(models.F("arxiv_id"), descending=True),
                name="paper_newest_first",
            ),
        ),
    ]
