"""One run per harvester across machines: two `manage.py harvest` processes contend for the same lease,
straight to PostgreSQL and through a real PgBouncer in transaction mode, where a session advisory lock
(what held it before) guards nothing."""

from __future__ import annotations

import os
import signal
import time

import psycopg
import pytest
from django.conf import settings

from harvest.models import HarvestRun, RunLease
from harvest.runs import lock_key
from papers.models import Paper
from tests.conftest import _process_env
from tests.harvest.committed import forget_papers
from tests.harvest.interrupt import Interrupted, manage
from tests.harvest.replay import fixture, with_resumption_token, xml
from tests.pgbouncer import pgbouncer

OAI = "arxiv/oai_pmh/"
HEP_TH = fixture(OAI + "ListRecords_arXiv_set_physics-hep-th_2017-12-14.xml")
HEP_EX = fixture(OAI + "ListRecords_arXiv_set_physics-hep-ex_2017-12-14.xml")
SINGLE = fixture(OAI + "ListRecords_arXiv_single.xml")
ALL_IDS = ["1412.8323", "1507.07790", "1607.01710", "1706.05371", "1706.09418", "1707.00874", "1401.2122"]
FIRST_TOKEN, SECOND_TOKEN = "6960524|1001", "6960524|2002"
HARVEST = ["harvest", "arxiv", "--set", "cs", "--from", "2017-12-14", "--until", "2017-12-15"]
LEASE_SECONDS = 3  # renewed every second by a live run


def serve_three_pages(replay) -> None:
    replay.route("/oai", xml(with_resumption_token(HEP_TH, FIRST_TOKEN, 7)), verb="ListRecords", set="cs")
    replay.route("/oai", xml(with_resumption_token(HEP_EX, SECOND_TOKEN, 7)), resumptionToken=FIRST_TOKEN)
    replay.route("/oai", xml(SINGLE), resumptionToken=SECOND_TOKEN)


@pytest.fixture(params=["postgresql", "pgbouncer"])
def harvest_env(request):
    """The environment of a harvest process: the test database straight, or through PgBouncer."""
    env = _process_env() | {"HARVEST_LEASE_SECONDS": str(LEASE_SECONDS)}
    if request.param == "postgresql":
        yield env
        return
    db = settings.DATABASES["default"]
    with pgbouncer(host=db["HOST"], port=int(db["PORT"])) as port:
        yield env | {
            "DATABASE_URL": f"postgres://{db['USER']}@127.0.0.1:{port}/{db['NAME']}",
            "DATABASE_TRANSACTION_POOLING": "true",
        }


@pytest.fixture
def committed(django_db_setup, django_db_blocker):
    """Rows the harvest processes write are committed: start and leave without them."""
    with django_db_blocker.unblock():
        forget_papers(ALL_IDS, run_sources=["arxiv-oai"])
        RunLease.objects.all().delete()
        yield
        forget_papers(ALL_IDS, run_sources=["arxiv-oai"])
        RunLease.objects.all().delete()


def test_behind_pgbouncer_a_session_advisory_lock_guards_nothing():
    """Why the lease: two clients of one PgBouncer server connection are one PostgreSQL session to it,
    so the second client is granted the lock the first holds."""
    db = settings.DATABASES["default"]
    with pgbouncer(host=db["HOST"], port=int(db["PORT"]), pool_size=1) as port:
        url = f"postgres://{db['USER']}@127.0.0.1:{port}/{db['NAME']}"
        with psycopg.connect(url, autocommit=True) as first, psycopg.connect(url, autocommit=True) as second:
            key = lock_key("arxiv-oai")
            assert first.execute("SELECT pg_try_advisory_lock(%s)", [key]).fetchone()[0]
            assert second.execute("SELECT pg_try_advisory_lock(%s)", [key]).fetchone()[0]  # not refused


def test_a_second_harvest_is_refused_while_the_first_lives_even_past_the_lease_term(
    committed, harvest_env, replay, tmp_path
):
    serve_three_pages(replay)
    first = Interrupted(
        "harvest.sweeps.arxiv.store_papers", "pause-after", HARVEST, flags=tmp_path / "first", env=harvest_env
    )
    try:
        first.wait_until_paused()
        time.sleep(LEASE_SECONDS + 1.5)  # its heartbeat renews the lease while it waits

        second = manage(*HARVEST, env=harvest_env)

        assert second.returncode == 1
        assert "another arxiv-oai harvest is running (arxiv-oai held by" in second.stderr
        assert "try again when it has finished" in second.stderr
        lease = RunLease.objects.get(name="arxiv-oai")
        assert lease.owner.split(":")[1] == str(first.process.pid)
        first.go()
        returncode, stdout, stderr = first.wait()
        assert returncode == 0, stderr
        assert "7 new" in stdout and "succeeded" in stdout
    finally:
        first.stop()
    assert not RunLease.objects.exists()  # released
    assert Paper.objects.filter(arxiv_id__in=ALL_IDS).count() == 7
    assert HarvestRun.objects.filter(source="arxiv-oai", parameters__from="2017-12-14").count() == 1


def test_a_run_frozen_past_its_lease_loses_it_and_can_write_nothing_after(
    committed, harvest_env, replay, tmp_path
):
    """A process stopped whole (SIGSTOP: its heartbeat too, as in a VM paused or a swap storm) past its
    term: a second run takes the lease, resumes the same HarvestRun and finishes it; the first, woken,
    fetches its next page and is refused at the commit, so it neither stores the page nor marks the run."""
    serve_three_pages(replay)
    frozen = Interrupted(
        "harvest.sweeps.arxiv.store_papers",
        "pause-after",
        HARVEST,
        flags=tmp_path / "frozen",
        env=harvest_env,
    )
    try:
        frozen.wait_until_paused()
        os.kill(frozen.process.pid, signal.SIGSTOP)
        frozen.go()
        time.sleep(LEASE_SECONDS + 1)

        successor = manage(*HARVEST, env=harvest_env)

        assert successor.returncode == 0, successor.stderr
        assert successor.stdout.startswith("arXiv cs from 2017-12-14: 7 new")
        assert "(resumed, succeeded)" in successor.stdout
        run = HarvestRun.objects.get(source="arxiv-oai", parameters__from="2017-12-14")
        finished = (run.state, run.created_count, run.checkpoint, run.finished_at)
        assert finished[:3] == ("succeeded", 7, {"harvested_through": "2017-12-15"})

        os.kill(frozen.process.pid, signal.SIGCONT)
        returncode, stdout, stderr = frozen.wait()

        assert returncode == 1
        assert "ran out and was taken by another run; try again when it has finished" in stderr
        run.refresh_from_db()
        assert (run.state, run.created_count, run.checkpoint, run.finished_at) == finished
        assert run.errors == []
    finally:
        frozen.stop()
    assert Paper.objects.filter(arxiv_id__in=ALL_IDS).count() == 7
    assert not RunLease.objects.exists()
