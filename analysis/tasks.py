from celery import shared_task

from analysis.services import papers_analyse


@shared_task(acks_late=True)
def analyse_papers(paper_ids: list[int]) -> int:
    """Analyse a batch just embedded (routed to the embed queue: it runs the same model)."""
    return papers_analyse(paper_ids=paper_ids).analysed
