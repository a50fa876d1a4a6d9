"""Papers a reader asks for that the corpus lacks: fetched from the arXiv API in the background, within a
budget, so that the next visit finds them."""

import time

from django.conf import settings
from django.core.cache import cache

from harvest.tasks import fetch_arxiv_ids

FETCH_REQUEST_SECONDS = 60 * 60


def paper_fetch_request(*, arxiv_id: str) -> bool:
    """Someone asked for a paper we do not have: queue a fetch from the arXiv API, at most once an hour per
    id and PAPER_FETCHES_PER_HOUR ids an hour in all (the claims and the count are Redis keys, shared by
    every web process). Returns whether a fetch is on its way: queued now or within the hour."""
    claim = f"paper-fetch:{arxiv_id}"
    if cache.get(claim):
        return True
    budget = paper_fetch_budget_key()
    cache.add(budget, 0, timeout=FETCH_REQUEST_SECONDS)
    if cache.incr(budget) > settings.PAPER_FETCHES_PER_HOUR:
        return False
    if cache.add(claim, True, timeout=FETCH_REQUEST_SECONDS):
        fetch_arxiv_ids.delay([arxiv_id])
    return True


def paper_fetch_budget_key() -> str:
    """The count of fetches asked for in this clock hour."""
    return f"paper-fetch-budget:{int(time.time() // FETCH_REQUEST_SECONDS)}"
