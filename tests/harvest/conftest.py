"""The harvest tests' upstream: one replay server for the session, and the settings that point every
client at it, with politeness intervals and back-off shrunk so faults are survived in milliseconds.

The environment is set when this module is collected, before any test starts a process, so the Celery
worker and the `manage.py harvest` subprocesses use the replay server too."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.harvest.replay import ReplayServer

REPLAY = ReplayServer().start()

FAST = {
    "ARXIV_MIN_INTERVAL_MS": 50,
    "OPENALEX_MIN_INTERVAL_MS": 0,
    "S2_MIN_INTERVAL_MS": 0,
    "HARVEST_BACKOFF_MS": 50,
    "HARVEST_BACKOFF_MAX_MS": 200,
    "HTTP_TIMEOUT_SECONDS": 2,
    "OPENALEX_API_KEY": "test-openalex-key",
}
UPSTREAMS = {
    "ARXIV_OAI_URL": f"{REPLAY.url}/oai",
    "ARXIV_API_URL": f"{REPLAY.url}/api/query",
    "OPENALEX_API_URL": f"{REPLAY.url}/openalex",
    "S2_API_URL": f"{REPLAY.url}/s2/graph/v1",
}
os.environ.update({name: str(value) for name, value in (FAST | UPSTREAMS).items()})


@pytest.fixture(autouse=True)
def replay(settings: pytest.FixtureRequest) -> Iterator[ReplayServer]:
    """The replay server with no routes yet; settings of this process point at it."""
    for name, value in (FAST | UPSTREAMS).items():
        setattr(settings, name, value)
    REPLAY.reset()
    yield REPLAY
    REPLAY.reset()
