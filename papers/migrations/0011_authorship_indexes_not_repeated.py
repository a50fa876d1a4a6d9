"""Three authorship indexes that others repeat go: those of the paper and researcher keys (each leads an
index of two columns) and normalised_name's text_pattern_ops twin (names are compared whole). The plain
name index is built first, concurrently, under its own name, so the grouping never lacks one."""

import django.db.models.deletion
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run inside a transaction

    dependencies = [
        ("papers", "0010_paper_newest_first"),
        ("researchers", "0005_removed_researcher"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="authorship",
            index=models.Index(fields=["normalised_name"], name="authorship_normalised_name"),
        ),
        migrations.AlterField(
            model_name="authorship",
            name="normalised_name",
            field=models.TextField(),
        ),
        migrations.AlterField(
            model_name="authorship",
            name="paper",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="authorships",
                to="papers.paper",
            ),
        ),
        migrations.AlterField(
            model_name="authorship",
            name="researcher",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="authorships",
                to="researchers.researcher",
            ),
        ),
    ]
