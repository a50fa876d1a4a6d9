"""When Redis is away the site degrades instead of failing: pages answer 200 (their figures computed, not
cached), searches go on uncounted, sign-in refuses with a clear 503 (its limit fails closed), /healthz
says the process is alive and /readyz names what is down. Against a real Redis, stopped outright and
stalled (SIGSTOP: it accepts connections and never answers), behind gunicorn as `make run` starts it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from devserver.localservices import EmbeddedRedis, free_port, port_is_open
from institutions.models import Institution
from papers.models import Paper
from researchers.models import Researcher
from tests.conftest import BASE_DIR, LIVE_SITE_ENV, _process_env, _stop
from tests.factories import make_affiliation, make_institution, make_paper, make_researcher

# Each page within this (a stalled Redis used to cost five seconds, then a 500); generous for a loaded
# machine, where the whole page can take a second or two.
PAGE_SECONDS = 4


@dataclass
class Site:
    url: str
    redis: EmbeddedRedis
    researcher: Researcher
    institution: Institution
    paper: Paper


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Site]:
    redis_server = EmbeddedRedis(Path(tmp_path_factory.mktemp("outage-redis")), free_port(), persist=False)
    redis_server.start()
    with django_db_blocker.unblock():  # committed, for the server process
        researcher = make_researcher("Ottoline Outage")
        institution = make_institution("Institute of Graceful Degradation")
        make_affiliation(researcher, institution)
        paper = make_paper(title="Serving pages while the cache is away", authors=[researcher])
    port = free_port()
    env = _process_env() | LIVE_SITE_ENV | {"REDIS_URL": redis_server.url(), "REDIS_CACHE_TIMEOUT_MS": "100"}
    env.pop("CACHE_REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "/dev/null"],
        cwd=BASE_DIR,
        env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # Django loads in seconds, or a minute on a loaded machine
    while not (port_is_open(port) and _ready(url)):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail("gunicorn did not start")
        time.sleep(0.2)
    yield Site(url, redis_server, researcher, institution, paper)
    _stop(process)
    if redis_server.process:
        os.kill(redis_server.process.pid, signal.SIGCONT)
    redis_server.stop()
    with django_db_blocker.unblock():
        paper.delete()
        researcher.delete()
        institution.delete()


def _ready(url: str) -> bool:
    try:
        return all(httpx.get(f"{url}/readyz", timeout=10).status_code == 200 for _ in range(4))
    except httpx.HTTPError:
        return False


def _get(client: httpx.Client, url: str) -> httpx.Response:
    started = time.monotonic()
    response = client.get(url)
    assert time.monotonic() - started < PAGE_SECONDS, f"{url} took {time.monotonic() - started:.1f} s"
    return response


def _sign_in_attempt(client: httpx.Client, site: Site) -> httpx.Response:
    form = _get(client, f"{site.url}/accounts/sign-in")
    assert form.status_code == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    return client.post(
        f"{site.url}/accounts/sign-in",
        data={"csrfmiddlewaretoken": token, "email": "nobody@example.org", "password": "not-the-password"},
        headers={"Referer": f"{site.url}/accounts/sign-in"},
    )


def _assert_degraded(site: Site) -> None:
    with httpx.Client(timeout=30) as client:
        assert _get(client, f"{site.url}/healthz").text == "ok"
        ready = _get(client, f"{site.url}/readyz")
        assert ready.status_code == 503
        # The test site has no keyword index (tests/services.py): reported, never a reason for 503.
        assert ready.json() == {
            "database": "ok",
            "cache": "unavailable",
            "broker": "unavailable",
            "keyword_index": "missing: PostgreSQL ranks",
        }

        researcher = _get(client, site.url + site.researcher.get_absolute_url())
        assert researcher.status_code == 200 and "Ottoline Outage" in researcher.text
        institution = _get(client, site.url + site.institution.get_absolute_url())
        assert institution.status_code == 200 and "Institute of Graceful Degradation" in institution.text
        paper = _get(client, site.url + site.paper.get_absolute_url())
        assert paper.status_code == 200 and "Serving pages while the cache is away" in paper.text
        # Searches fail open: answered, uncounted.
        search = _get(client, f"{site.url}/search?q=cache+away+serving&mode=keyword")
        assert search.status_code == 200 and site.paper.get_absolute_url() in search.text
        api = _get(client, f"{site.url}/api/papers/{site.paper.arxiv_id}")
        assert api.status_code == 200 and api.json()["title"] == "Serving pages while the cache is away"
        api_search = _get(client, f"{site.url}/api/search?q=cache+away+serving&mode=keyword")
        assert api_search.status_code == 200
        assert site.paper.arxiv_id in api_search.text
        # A paper we do not have: nothing can be queued, and the page says only that it is not here.
        missing = _get(client, f"{site.url}/papers/9912.99977")
        assert missing.status_code == 404

        # Sign-in fails closed: attempts that cannot be counted are not taken.
        refused = _sign_in_attempt(client, site)
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "30"
        assert "Back in a moment" in refused.text and "try again in 30 seconds" in refused.text


def _assert_recovered(site: Site) -> None:
    deadline = time.monotonic() + 30  # the cache pauses two seconds after a failure before trying again
    while not _ready(site.url):
        assert time.monotonic() < deadline, "/readyz did not recover"
        time.sleep(0.5)
    time.sleep(2.5)
    with httpx.Client(timeout=30) as client:
        attempt = _sign_in_attempt(client, site)
        assert attempt.status_code == 400  # counted again, and judged: a wrong password
        assert "do not match an account" in attempt.text


def test_the_site_degrades_while_redis_stalls(site):
    os.kill(site.redis.process.pid, signal.SIGSTOP)
    try:
        _assert_degraded(site)
    finally:
        os.kill(site.redis.process.pid, signal.SIGCONT)
    _assert_recovered(site)


def test_the_site_degrades_while_redis_is_stopped(site):
    site.redis.stop()
    try:
        _assert_degraded(site)
    finally:
        site.redis.start()
    _assert_recovered(site)
