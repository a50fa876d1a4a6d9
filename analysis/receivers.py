"""The analysis follows the embedding: each embedded batch is queued for analysis."""

from typing import Any

from django.dispatch import receiver

from analysis.tasks import analyse_papers
from papers.signals import papers_embedded


@receiver(papers_embedded)
def analyse_embedded_papers(sender: Any, paper_ids: list[int], **kwargs: Any) -> None:
    analyse_papers.delay(paper_ids)
