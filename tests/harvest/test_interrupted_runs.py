"""A harvest killed in the middle (kill -9 of `manage.py harvest`) loses nothing it stored, and the next
run resumes from its checkpoint: no page asked twice, no paper stored twice."""

from __future__ import annotations

import subprocess
import sys
import threading

from harvest.models import HarvestRun
from papers.models import Authorship, Paper
from tests.conftest import BASE_DIR, _process_env
from tests.harvest.committed import forget_papers
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
            # Two pages are stored; the third request is open when the process dies.
            replay.wait_for(lambda seen: seen.query.get("resumptionToken") == SECOND_TOKEN)
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
