"""Researchers follow the embedding: each embedded batch has its authors' names grouped again, with the
evidence of their papers' meaning (researchers/evidence.py), on the harvest queue."""

from typing import Any

from django.dispatch import receiver

from harvest.tasks import regroup_researchers_of
from papers.signals import papers_embedded


@receiver(papers_embedded)
def regroup_researchers_of_embedded_papers(sender: Any, paper_ids: list[int], **kwargs: Any) -> None:
    regroup_researchers_of.delay(paper_ids)
