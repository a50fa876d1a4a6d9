"""The analysis's columns go from `Paper`: a paper's analysis is an analysis.PaperAnalysis row now,
carried over by analysis 0003."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0008_paper_topics_moved"),
        ("analysis", "0003_paper_analysis"),
    ]

    operations = [
        migrations.RemoveField(model_name="paper", name=name)
        for name in (
            "analysed",
            "summary",
            "summary_generated",
            "research_field",
            "paper_type",
            "novelty",
            "novelty_distance",
            "closest_earlier",
            "significance_score",
        )
    ]
