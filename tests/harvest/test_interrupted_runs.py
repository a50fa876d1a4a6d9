"""A harvest killed in the middle (kill -9 of `manage.py harvest`) loses nothing it stored, and the next
run resumes from its checkpoint: no page asked twice, no paper stored twice."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import psycopg

from harvest.models import HarvestRun
from papers.models import Authorship, Paper
from tests.conftest import BASE_DIR, _process_env
from tests.harvest.committed import forget_papers
from tests.harvest.interrupt import Interrupted, manage
from tests.harvest.replay import Reply, fixture, with_resumption_token, xml

OAI = "arxiv/oai_pmh/"
HEP_TH = fixture(OAI + "ListRecords_arXiv_set_physics-hep-th_2017-12-14.xml")
HEP_EX = fixture(OAI + "ListRecords_arXiv_set_physics-hep-ex_2017-12-14.xml")
SINGLE = fixture(OAI + "ListRecords_arXiv_single.xml")
FIRST_PAGES = ["1412.8323", "1507.07790", "1607.01710", "1706.05371", "1706.09418", "1707.00874"]
ALL_IDS = [*FIRST_PAGES, "1401.2122"]
FIRST_TOKEN, SECOND_TOKEN = "6960524|1001", "6960524|2002"
COMMAND = [
    sys.executable,
    "manage.py",
    "harvest",
    "arxiv",
    "--set",
    "cs",
    "--from",
    "2017-12-14",
    "--until",
    "2017-12-15",
]


def _wait_for_checkpoint_page(page: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = HarvestRun.objects.filter(source="arxiv-oai", parameters__from="2017-12-14").first()
        if run and run.checkpoint.get("page") == page:
            return
        time.sleep(0.05)
    raise AssertionError(f"the harvest did not store page {page} within {timeout} s")


def test_a_killed_harvest_resumes_from_its_checkpoint_without_duplicates(
    django_db_setup, django_db_blocker, replay
):
    stalled = threading.Event()
    replay.route("/oai", xml(with_resumption_token(HEP_TH, FIRST_TOKEN, 7)), verb="ListRecords", set="cs")
    replay.route("/oai", xml(with_resumption_token(HEP_EX, SECOND_TOKEN, 7)), resumptionToken=FIRST_TOKEN)
    replay.route("/oai", Reply(body=SINGLE, hold=stalled), resumptionToken=SECOND_TOKEN)
    with django_db_blocker.unblock():
        forget_papers(ALL_IDS, run_sources=["arxiv-oai"])
        try:
            process = subprocess.Popen(
                COMMAND,
                cwd=BASE_DIR,
                env=_process_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            # Two pages are stored; the third request is open when the process dies. It opens while the
            # second page is stored (the next page is fetched beside the storing), so wait for both.
            replay.wait_for(lambda seen: seen.query.get("resumptionToken") == SECOND_TOKEN)
            _wait_for_checkpoint_page(2)
            process.kill()
            process.wait(timeout=30)
            stalled.set()

            run = HarvestRun.objects.get(source="arxiv-oai", parameters__from="2017-12-14")
            assert run.state == "running"  # killed: nobody could record anything else
            assert run.checkpoint == {"resumption_token": SECOND_TOKEN, "page": 2}
            assert run.created_count == 6
            assert (
                sorted(Paper.objects.filter(arxiv_id__in=ALL_IDS).values_list("arxiv_id", flat=True))
                == FIRST_PAGES
            )

            replay.reset()
            replay.route("/oai", xml(SINGLE), resumptionToken=SECOND_TOKEN)
            resumed = subprocess.run(
                COMMAND, cwd=BASE_DIR, env=_process_env(), capture_output=True, text=True, timeout=120
            )

            assert resumed.returncode == 0, resumed.stderr
            # The run is one harvest, resumed: its counts cover both processes.
            assert (
                resumed.stdout
                == "arXiv cs from 2017-12-14: 7 new, 0 updated, 0 unchanged, 0 skipped (resumed, succeeded)\n"
            )
            assert [seen.query for seen in replay.seen("/oai")] == [
                {"verb": "ListRecords", "resumptionToken": SECOND_TOKEN}
            ]
            run.refresh_from_db()
            assert (run.state, run.created_count, run.errors) == ("succeeded", 7, [])
            assert Paper.objects.filter(arxiv_id__in=ALL_IDS).count() == 7
            for paper in Paper.objects.filter(arxiv_id__in=ALL_IDS):
                assert Authorship.objects.filter(paper=paper).count() == len(paper.authors)
                assert not Authorship.objects.filter(paper=paper, researcher__isnull=True).exists()
            assert HarvestRun.objects.filter(source="arxiv-oai", parameters__from="2017-12-14").count() == 1
        finally:
            forget_papers(ALL_IDS, run_sources=["arxiv-oai"])


def test_a_harvest_killed_after_its_last_page_resumes_at_that_page_not_at_the_start(
    django_db_setup, django_db_blocker, replay, tmp_path
):
    """The last page and the run's end commit together. Stored apart, a run killed between them kept a
    checkpoint without a token, and its next run asked for the whole list again."""
    replay.route("/oai", xml(with_resumption_token(HEP_TH, FIRST_TOKEN, 7)), verb="ListRecords", set="cs")
    replay.route("/oai", xml(SINGLE), resumptionToken=FIRST_TOKEN)
    with django_db_blocker.unblock():
        forget_papers(ALL_IDS, run_sources=["arxiv-oai"])
        try:
            killed = Interrupted("harvest.sweeps.arxiv.finished", "kill-before", COMMAND[2:], flags=tmp_path)
            assert killed.wait()[0] == -signal.SIGKILL

            run = HarvestRun.objects.get(source="arxiv-oai", parameters__from="2017-12-14")
            assert run.state == "running"
            assert run.checkpoint == {"resumption_token": FIRST_TOKEN, "page": 1}
            assert not Paper.objects.filter(arxiv_id="1401.2122").exists()  # the last page went with it

            replay.reset()
            replay.route("/oai", xml(SINGLE), resumptionToken=FIRST_TOKEN)
            resumed = manage(*COMMAND[2:])
            assert resumed.returncode == 0, resumed.stderr
            assert [seen.query for seen in replay.seen("/oai")] == [
                {"verb": "ListRecords", "resumptionToken": FIRST_TOKEN}
            ]
            run.refresh_from_db()
            assert run.state == "succeeded"
            assert run.checkpoint == {"harvested_through": "2017-12-15"}
            assert Paper.objects.filter(arxiv_id="1401.2122").exists()
        finally:
            forget_papers(ALL_IDS, run_sources=["arxiv-oai"])


def test_a_demo_load_killed_part_way_is_finished_by_the_next_make_run(scratch_database, tmp_path):
    """`make run` loads the demo corpus with --if-empty. A load killed after its first page left papers
    without researchers that --if-empty then skipped for ever; now the next start finishes it."""
    env = _process_env() | {"DATABASE_URL": scratch_database}
    assert manage("migrate", "--noinput", "--verbosity", "0", env=env).returncode == 0
    demo = ["load_demo", "--if-empty", "--limit", "600", "--no-embed", "--verbosity", "0"]
    killed = Interrupted("harvest.demo.papers_upsert", "kill-before", demo, flags=tmp_path, nth=2, env=env)
    assert killed.wait()[0] == -signal.SIGKILL

    with psycopg.connect(scratch_database) as connection:
        assert connection.execute("SELECT count(*) FROM papers_paper").fetchone() == (500,)  # one page

    finishing = manage(*demo, env=env)
    assert finishing.returncode == 0, finishing.stderr
    assert "finishing a load that was interrupted" in finishing.stdout
    with psycopg.connect(scratch_database) as connection:
        papers = connection.execute("SELECT count(*) FROM papers_paper WHERE arxiv_id <> ''").fetchone()[0]
        assert papers >= 900  # 600 listing + 200 Kaggle + 100 API, and the upstream records' papers
        ungrouped = connection.execute(
            "SELECT count(*) FROM papers_authorship WHERE researcher_id IS NULL AND NOT is_collaboration"
        ).fetchone()
        assert ungrouped == (0,)
        runs = connection.execute("SELECT state FROM harvest_harvestrun WHERE source = 'demo'").fetchall()
        assert runs == [("succeeded",)]

    again = manage(*demo, env=env)
    assert again.stdout.strip() == "demo corpus: the corpus already has papers; nothing to do"
