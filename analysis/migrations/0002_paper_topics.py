"""A paper's topics move from the `Paper.topics` column (topic ids as text) to PaperTopic rows, so a
recomputation of the topics never rewrites papers_paper rows (see PaperTopic). The existing assignments
are carried over in their order; papers 0008 then drops the column and its GIN index."""

import django.db.models.deletion
from django.db import migrations, models

_CARRY = """
    INSERT INTO analysis_papertopic (paper_id, topic_id, rank)
    SELECT paper.id, assigned.topic::integer, assigned.position - 1
    FROM papers_paper AS paper, unnest(paper.topics) WITH ORDINALITY AS assigned(topic, position)
    WHERE assigned.topic ~ '^[0-9]{1,9}$'
      AND EXISTS (SELECT 1 FROM analysis_topic WHERE analysis_topic.id = assigned.topic::integer)
    ON CONFLICT DO NOTHING
"""
_CARRY_BACK = """
    UPDATE papers_paper SET topics = linked.topics
    FROM (
        SELECT paper_id, array_agg(topic_id::varchar ORDER BY rank) AS topics
        FROM analysis_papertopic GROUP BY paper_id
    ) AS linked
    WHERE papers_paper.id = linked.paper_id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0001_initial"),
        ("papers", "0007_summary_generated"),
    ]

    operations = [
        migrations.CreateModel(
            name="PaperTopic",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("rank", models.PositiveSmallIntegerField()),
                (
                    "paper",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="topic_links",
                        to="papers.paper",
                    ),
                ),
                (
                    "topic",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="paper_links",
                        to="analysis.topic",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("paper", "rank"), name="paper_topic_paper_rank"),
                    models.UniqueConstraint(fields=("topic", "paper"), name="paper_topic_topic_paper"),
                ],
            },
        ),
        migrations.RunSQL(_CARRY, _CARRY_BACK),
    ]
