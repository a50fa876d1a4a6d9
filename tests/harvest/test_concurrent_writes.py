"""An on-demand fetch (arXiv API) that runs while an OAI page is being stored waits for that page, then
finds its papers and researchers: no IntegrityError on the arXiv id both insert, and no author split in
two because neither writer could see the other's uncommitted researcher. The OAI harvest is paused, in
its own process, inside the page's transaction (after grouping its authors, before committing)."""

from __future__ import annotations

import time

from papers.models import Authorship, Paper
from tests.harvest.committed import forget_papers
from tests.harvest.interrupt import Interrupted, manage
from tests.harvest.replay import Reply, fixture, xml

OAI_COMMAND = ["harvest", "arxiv", "--set", "cs", "--from", "2017-12-14", "--until", "2017-12-15"]
IDS = ["1401.2122", "2104.12255"]
TWO_AUTHORS = (
    "<authors><author><keyname>Sergyeyev</keyname><forenames>A.</forenames></author>"
    "<author><keyname>Coauthorova</keyname><forenames>M.</forenames></author></authors>"
)
# The recorded OAI record of 1401.2122, with a second author, so that grouping by name has a co-author
# to go on (a name alone never joins two papers).
OAI_PAGE = (
    fixture("arxiv/oai_pmh/ListRecords_arXiv_single.xml")
    .decode()
    .replace(
        "<authors><author><keyname>Sergyeyev</keyname><forenames>A.</forenames></author></authors>",
        TWO_AUTHORS,
    )
    .encode()
)


def _entry(arxiv_id: str, title: str) -> str:
    return f"""<entry>
    <id>http://arxiv.org/abs/{arxiv_id}</id>
    <title>{title}</title>
    <updated>2017-10-23T10:00:00Z</updated>
    <summary>We introduce a novel systematic construction.</summary>
    <category term="math.AP" scheme="http://arxiv.org/schemas/atom"/>
    <published>2014-01-09T10:00:00Z</published>
    <arxiv:primary_category term="math.AP"/>
    <author><name>A. Sergyeyev</name></author>
    <author><name>M. Coauthorova</name></author>
  </entry>"""


# An arXiv API answer shaped like the recorded ones (tests/fixtures/arxiv/api_atom): the paper the OAI page
# holds, and another by the same two authors.
API_FEED = f"""<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom"
      xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/test</id>
  <title>arXiv Query: id_list=1401.2122,2104.12255</title>
  <updated>2026-04-12T22:09:25Z</updated>
  <opensearch:itemsPerPage>100</opensearch:itemsPerPage>
  <opensearch:totalResults>2</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
  {_entry("1401.2122v5", "New integrable (3+1)-dimensional systems and contact geometry")}
  {_entry("2104.12255v1", "Contact geometry of dispersionless systems, again")}
</feed>""".encode()


def test_an_on_demand_fetch_waits_for_the_oai_page_it_collides_with(
    django_db_setup, django_db_blocker, replay, tmp_path
):
    replay.route("/oai", xml(OAI_PAGE), verb="ListRecords", set="cs")
    replay.route("/api/query", Reply(body=API_FEED, headers={"Content-Type": "application/atom+xml"}))
    with django_db_blocker.unblock():
        forget_papers(IDS, run_sources=["arxiv-oai", "arxiv-api"])
        started: list[Interrupted] = []
        try:
            oai = Interrupted(
                "harvest.sweeps.common.papers_upsert", "pause-after", OAI_COMMAND, flags=tmp_path
            )
            started.append(oai)
            oai.wait_until_paused()  # 1401.2122 and its two researchers written, not committed
            fetch = Interrupted("harvest.sweeps.arxiv.finished", "none", ["harvest", "arxiv-ids", *IDS],
                                flags=tmp_path / "fetch")  # fmt: skip
            started.append(fetch)
            replay.wait_for(lambda seen: seen.path == "/api/query", timeout=180)  # a loaded machine
            time.sleep(1.5)  # the fetch has its answer and now waits for the OAI page's transaction
            assert fetch.process.poll() is None
            oai.go()

            assert oai.wait()[0] == 0
            code, stdout, stderr = fetch.wait()
            assert code == 0, stderr
            assert "2 new" not in stdout  # 1401.2122 was there when the fetch could look
            assert Paper.objects.filter(arxiv_id="1401.2122").count() == 1
            assert Paper.objects.filter(arxiv_id="2104.12255").count() == 1
            for name in ("A. Sergyeyev", "M. Coauthorova"):
                researchers = set(
                    Authorship.objects.filter(paper__arxiv_id__in=IDS, name=name).values_list(
                        "researcher_id", flat=True
                    )
                )
                assert len(researchers) == 1 and None not in researchers, (name, researchers)
            assert manage("harvest", "arxiv-ids", *IDS).returncode == 0  # and again: nothing changes
            assert Paper.objects.filter(arxiv_id__in=IDS).count() == 2
        finally:
            for process in started:
                process.stop()
            forget_papers(IDS, run_sources=["arxiv-oai", "arxiv-api"])
