"""A GIN index on the papers' topics, for `topic:` in the search and the topic pages. Concurrently, so
harvests and the analysis go on writing papers while it builds."""

import django.contrib.postgres.indexes
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run inside a transaction

    dependencies = [
        ("papers", "0005_analysis_scores"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="paper",
            index=django.contrib.postgres.indexes.GinIndex(fields=["topics"], name="paper_topics_gin"),
        ),
    ]
