"""The ingest benchmark end to end on a small stream: its OAI-PMH server over loopback, the real harvest into
a scratch database, what was stored and what was reported. Its numbers are not asserted: not a timed test."""

import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from bench import oai_stream
from bench.sources import load_sources

BASE_DIR = Path(__file__).resolve().parents[2]
RECORDS, PAGE_SIZE = 1500, 400  # four pages, the last one short


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench", *args], cwd=BASE_DIR, capture_output=True, text=True, timeout=900
    )


@pytest.fixture(scope="module")
def sources():
    return load_sources()


@pytest.fixture
def stream_url(sources):
    httpd = oai_stream.server(oai_stream.Stream(3 * oai_stream.RECORDS_PER_DAY, 1, 1000), sources)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/oai"
    httpd.shutdown()
    httpd.server_close()


def test_it_harvests_the_stream_with_the_real_harvest_and_reports_it(scratch_database, tmp_path, sources):
    args = ["--only", "ingest", "--papers", str(RECORDS), "--ingest-page-size", str(PAGE_SIZE)]
    result = bench(*args, "--database-url", scratch_database, "--output", str(tmp_path))

    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads((tmp_path / f"ingest-{RECORDS}.json").read_text())
    ingest = report["ingest"]
    xml = "".join(oai_stream.records(oai_stream.Stream(RECORDS, 1, PAGE_SIZE), sources))
    people = xml.count("<forenames>")  # a collaboration has a keyname only
    assert (ingest["records"], ingest["pages"]) == (RECORDS, 4)
    assert ingest["run"] | {"megabytes_read": None} == {
        "state": "succeeded", "created": RECORDS, "updated": 0, "unchanged": 0, "skipped": 0, "errors": 0,
        "last_error": "", "megabytes_read": None,
    }  # fmt: skip
    stored = ingest["stored"]
    assert stored["papers"] == RECORDS
    assert stored["authorships"] == xml.count("<author>") and stored["people_authorships"] == people
    assert stored["people_without_researcher"] == 0  # every person grouped into a researcher
    assert stored["distinct_people_names"] <= stored["researchers"] < people
    assert set(ingest["phases"]) == {"waiting", "upsert", "grouping", "rest"}
    assert set(ingest["fetching_beside"]) == {"HTTP", "parse"}
    assert ingest["fetching_beside"]["parse"]["seconds"] > 0
    regroup = ingest["regroup_after_embedding"]
    assert regroup["pages_sampled"] == 4 and regroup["seconds_per_page"] > 0
    # Every page regrouped: the weaker evidence joins some of the researchers the harvest kept apart.
    assert regroup["stored_after"]["researchers"] < stored["researchers"]
    assert sum(phase["seconds"] for phase in ingest["phases"].values()) == pytest.approx(
        ingest["seconds"], abs=0.2
    )
    assert ingest["papers_per_second"] > 0 and ingest["phases"]["grouping"]["seconds"] > 0
    # Harvested again (all 1,500 are of the first day): nothing changes.
    again = ingest["again"]
    assert (again["run"]["created"], again["run"]["updated"], again["run"]["unchanged"]) == (0, 0, RECORDS)
    assert again["stored_after"] == regroup["stored_after"]
    assert report["machine"]["load_average_at_end"] >= 0
    assert "papers a second (≥ 2000" in result.stdout and "grouping" in result.stdout


def test_its_records_are_the_real_records_shape(sources):
    record = oai_stream.Maker(oai_stream.Stream(10, 1), sources).record(0)
    # As tests/fixtures/arxiv/oai_pmh/ListRecords_arXiv_set_physics-hep-th_2017-12-14.xml has them.
    assert record.startswith("<record>\n<header>\n <identifier>oai:arXiv.org:2401.00001</identifier>\n")
    assert ' <arXiv xmlns="http://arxiv.org/OAI/arXiv/"' in record
    for element in ("id", "created", "authors", "title", "categories", "license", "abstract"):
        assert re.search(f"<{element}>.+?</{element}>", record, re.DOTALL), element
    assert re.search(r"<author><keyname>[^<]+</keyname><forenames>[^<]+</forenames>", record)


def test_its_server_pages_a_list_with_tokens_and_selects_by_date(stream_url):
    first = httpx.get(stream_url, params={"verb": "ListRecords", "metadataPrefix": "arXiv", "set": "cs",
                                          "from": "2024-01-02", "until": "2024-01-02"})  # fmt: skip
    assert first.status_code == 200
    assert first.text.count("<record>") == 1000
    assert '<resumptionToken cursor="0" completeListSize="2000">' in first.text
    assert set(re.findall(r"<datestamp>([^<]+)</datestamp>", first.text)) == {"2024-01-02"}
    token = re.search(r"<resumptionToken [^>]*>([^<]+)<", first.text)[1]
    last = httpx.get(stream_url, params={"verb": "ListRecords", "resumptionToken": token})
    assert last.text.count("<record>") == 1000
    assert '<resumptionToken cursor="1000" completeListSize="2000"></resumptionToken>' in last.text  # the end
    bad = httpx.get(stream_url, params={"verb": "ListRecords", "resumptionToken": "99|0-1-0"})
    assert '<error code="badResumptionToken">' in bad.text
    none = httpx.get(
        stream_url, params={"verb": "ListRecords", "metadataPrefix": "arXiv", "from": "2025-01-01"}
    )
    assert '<error code="noRecordsMatch">' in none.text


def test_ingest_runs_alone():
    result = bench("--only", "ingest", "--only", "search")
    assert result.returncode == 2
    assert "--only ingest runs alone" in result.stderr
