"""Papers a reader asks for that the corpus lacks: fetched from the arXiv API in the background, within a
budget, so that the next visit finds them."""

import logging
import time

from django.conf import settings
from django.core.cache import caches
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from harvest.tasks import fetch_arxiv_ids

logger = logging.getLogger(__name__)

FETCH_REQUEST_SECONDS = 60 * 60


def paper_fetch_request(*, arxiv_id: str) -> bool:
    """Someone asked for a paper we do not have: queue a fetch from the arXiv API, at most once an hour per
    id and PAPER_FETCHES_PER_HOUR ids an hour in all (the claims and the count are Redis keys, shared by
    every web process). Returns whether a fetch is on its way: queued now or within the hour.

    The budget is a limit that fails closed: while Redis is away nothing is counted, so nothing is queued
    (the broker lives there too), and the page says no more than that the paper is not here."""
    counters = caches["ratelimits"]  # raises when Redis does not answer, where the default cache would not
    claim = f"paper-fetch:{arxiv_id}"
    try:
        if counters.get(claim):
            return True
        budget = paper_fetch_budget_key()
        counters.add(budget, 0, timeout=FETCH_REQUEST_SECONDS)
        if counters.incr(budget) > settings.PAPER_FETCHES_PER_HOUR:
            return False
        if counters.add(claim, True, timeout=FETCH_REQUEST_SECONDS):
            fetch_arxiv_ids.delay([arxiv_id])
    except (RedisError, OperationalError) as error:
        logger.warning("no fetch of %s queued: Redis did not answer (%s)", arxiv_id, error)
        return False
    return True


def paper_fetch_budget_key() -> str:
    """The count of fetches asked for in this clock hour."""
    return f"paper-fetch-budget:{int(time.time() // FETCH_REQUEST_SECONDS)}"
