"""The analysis follows the embedding: each embedded batch is queued for analysis.

Queued by name, so that loading the app (every process, migrations and beat included) does not import
the analysis itself, which needs torch and scikit-learn."""

from typing import Any

from celery import current_app
from django.dispatch import receiver

from papers.signals import papers_embedded

ANALYSE_PAPERS_TASK = "analysis.tasks.analyse_papers"  # routed to the embed queue by CELERY_TASK_ROUTES


@receiver(papers_embedded)
def analyse_embedded_papers(sender: Any, paper_ids: list[int], **kwargs: Any) -> None:
    current_app.send_task(ANALYSE_PAPERS_TASK, args=[paper_ids])
