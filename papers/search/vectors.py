"""Query vectors, cached in Redis so a repeated query does not run the embedding model again."""

from __future__ import annotations

import hashlib

import numpy as np
from django.conf import settings
from django.core.cache import cache

from papers.embedding import embed_texts


def normalised_query_text(text: str) -> str:
    """all-MiniLM-L6-v2 is uncased and ignores extra spaces, so queries that differ only there share a
    vector (and a cache entry)."""
    return " ".join(text.lower().split())


def query_vector_key(text: str) -> str:
    """The cache key of a query's vector: the model and the normalised text (hashed: keys stay short)."""
    digest = hashlib.sha256(normalised_query_text(text).encode()).hexdigest()
    model = hashlib.sha256(settings.EMBEDDING_MODEL.encode()).hexdigest()[:12]
    return f"search:query-vector:{model}:{digest}"


def query_vector(text: str) -> np.ndarray:
    """The unit vector of a query, from the cache or from the model (then cached)."""
    key = query_vector_key(text)
    cached = cache.get(key)
    if cached is not None:
        return np.frombuffer(cached, dtype=np.float32)
    vector = np.asarray(embed_texts([normalised_query_text(text)])[0], dtype=np.float32)
    cache.set(key, vector.tobytes(), timeout=settings.SEARCH_QUERY_VECTOR_TTL)
    return vector
