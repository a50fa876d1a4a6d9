"""Query vectors live in Redis: a repeated query reads its vector there and does not run the model."""

import numpy as np
import pytest
import redis
from django.conf import settings

from papers.embedding import embed_texts
from papers.search import engine
from papers.search.query import Mode, parse
from papers.search.vectors import query_vector_key
from tests.factories import make_paper

pytestmark = pytest.mark.django_db


def stored_vector(text: str) -> np.ndarray | None:
    """The vector Redis holds for a query, read with a plain Redis client (no Django cache in between)."""
    keys = redis.Redis.from_url(settings.CACHE_REDIS_URL).keys(f"*{query_vector_key(text)}")
    if not keys:
        return None
    from django.core.cache import cache

    return np.frombuffer(cache.get(query_vector_key(text)), dtype=np.float32)


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=384).astype(np.float32)
    return vector / np.linalg.norm(vector)


def test_the_first_search_stores_the_model_vector_in_redis():
    assert stored_vector("woven graph weaving") is None
    engine.run(parse("woven graph weaving", mode=Mode.SEMANTIC))
    stored = stored_vector("woven graph weaving")
    assert stored is not None and stored.shape == (384,)
    assert np.allclose(stored, embed_texts(["woven graph weaving"])[0], atol=1e-5)
    assert stored_vector("Woven   GRAPH weaving") is not None  # case and spacing share the entry


def test_a_repeated_query_uses_the_stored_vector_instead_of_running_the_model():
    planted = make_paper(title="A paper with an arbitrary vector", embedding=unit(7))
    engine.run(parse("woven graph weaving", mode=Mode.SEMANTIC))
    first = stored_vector("woven graph weaving")
    assert float(np.dot(first, unit(7))) < 0.5  # the model's vector is nowhere near the planted one
    # Plant the paper's vector under the query's key: if the next search ran the model it would not find it.
    from django.core.cache import cache

    cache.set(query_vector_key("woven graph weaving"), unit(7).tobytes())
    results = engine.run(parse("Woven graph  weaving", mode=Mode.SEMANTIC))
    assert results.hits[0].paper == planted
    assert results.hits[0].distance == pytest.approx(0, abs=1e-5)
    assert np.array_equal(stored_vector("woven graph weaving"), unit(7))  # not overwritten by the model
