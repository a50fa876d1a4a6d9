"""`Paper.topics` and its GIN index go: a paper's topics are analysis.PaperTopic rows now, carried over
by analysis 0002."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0007_summary_generated"),
        ("analysis", "0002_paper_topics"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="paper", name="paper_topics_gin"),
        migrations.RemoveField(model_name="paper", name="topics"),
    ]
