from celery import shared_task

from analysis.services import papers_analyse
from analysis.topics import topics_compute, topics_need_recomputing


@shared_task(acks_late=True)
def analyse_papers(paper_ids: list[int]) -> int:
    """Analyse a batch just embedded (routed to the embed queue: it runs the same model)."""
    return papers_analyse(paper_ids=paper_ids).analysed


@shared_task(acks_late=True)
def recompute_topics_if_grown() -> bool:
    """Beat: find the topics again when the corpus has grown enough (see topics_need_recomputing)."""
    if not topics_need_recomputing():
        return False
    topics_compute()
    return True
