from celery import shared_task


@shared_task(acks_late=True)
def fetch_arxiv_ids(arxiv_ids: list[str]) -> int:
    """Fetch these papers from the arXiv API into the corpus (the harvest issue builds the client)."""
    raise NotImplementedError
