"""The arXiv OAI-PMH harvest against recorded ListRecords pages served over loopback."""

from __future__ import annotations

import datetime
import time

import pytest

from harvest.models import HarvestRun
from harvest.sweeps import arxiv as sweeps_arxiv
from harvest.sweeps.arxiv import arxiv_daily_from, arxiv_oai_harvest
from papers.models import Authorship, Paper
from tests.harvest.replay import Reply, fixture, with_resumption_token, xml

pytestmark = pytest.mark.django_db

OAI = "arxiv/oai_pmh/"
HEP_TH = fixture(
    OAI + "ListRecords_arXiv_set_physics-hep-th_2017-12-14.xml"
)  # 1412.8323 1507.07790 1607.01710
HEP_EX = fixture(
    OAI + "ListRecords_arXiv_set_physics-hep-ex_2017-12-14.xml"
)  # 1706.05371 1706.09418 1707.00874
SINGLE = fixture(OAI + "ListRecords_arXiv_single.xml")  # 1401.2122
PAGE_IDS = [
    ["1412.8323", "1507.07790", "1607.01710"],
    ["1706.05371", "1706.09418", "1707.00874"],
    ["1401.2122"],
]
ALL_IDS = [arxiv_id for page in PAGE_IDS for arxiv_id in page]
FIRST_TOKEN, SECOND_TOKEN = "6960524|1001", "6960524|2002"


def three_pages(replay, *, second_page: Reply | None = None) -> None:
    replay.route("/oai", xml(with_resumption_token(HEP_TH, FIRST_TOKEN, 7)), verb="ListRecords", set="cs")
    replay.route(
        "/oai",
        second_page or xml(with_resumption_token(HEP_EX, SECOND_TOKEN, 7)),
        resumptionToken=FIRST_TOKEN,
    )
    replay.route("/oai", xml(SINGLE), resumptionToken=SECOND_TOKEN)


def harvest(**overrides):
    arguments = {"set_spec": "cs", "from_date": datetime.date(2017, 12, 14)} | overrides
    return arxiv_oai_harvest(**arguments)


def forget(ids: list[str]) -> None:
    """These recorded papers are not in the demo corpus; make sure of it inside this test's transaction."""
    Paper.objects.filter(arxiv_id__in=ids).delete()


def test_it_follows_resumption_tokens_to_the_end_of_the_list(replay):
    forget(ALL_IDS)
    three_pages(replay)

    summary = harvest()

    assert (summary.state, summary.created, summary.skipped, summary.errors) == ("succeeded", 7, 0, 0)
    first, second, third = replay.seen("/oai")
    assert first.query == {
        "verb": "ListRecords",
        "metadataPrefix": "arXiv",
        "set": "cs",
        "from": "2017-12-14",
    }
    assert second.query == {"verb": "ListRecords", "resumptionToken": FIRST_TOKEN}
    assert third.query == {"verb": "ListRecords", "resumptionToken": SECOND_TOKEN}
    paper = Paper.objects.get(arxiv_id="1412.8323")
    assert paper.title.startswith("Toolbox for reconstructing quantum theory from rules on information")
    assert paper.authors == ["Philipp A Hoehn"]
    assert Paper.objects.filter(arxiv_id__in=ALL_IDS).count() == 7
    assert not Authorship.objects.filter(paper__arxiv_id__in=ALL_IDS, researcher__isnull=True).exists()


def test_it_is_polite_to_arxiv(replay, settings):
    settings.ARXIV_MIN_INTERVAL_MS = 300
    forget(ALL_IDS)
    three_pages(replay)

    harvest()

    requests = replay.seen("/oai")
    assert all(settings.CONTACT_EMAIL in r.headers["user-agent"] for r in requests)
    assert all(r.headers["user-agent"].startswith("wovepaper/") for r in requests)
    gaps = [later.at - earlier.at for earlier, later in zip(requests, requests[1:], strict=False)]
    assert min(gaps) >= 0.27  # the interval between requests, give or take a new connection's set-up


def test_it_records_the_run(replay):
    forget(ALL_IDS)
    three_pages(replay)

    harvest(until=datetime.date(2017, 12, 15))

    run = HarvestRun.objects.filter(source="arxiv-oai").recent().first()
    assert run.state == "succeeded" and run.finished_at >= run.started_at
    assert run.parameters == {
        "set": "cs",
        "from": "2017-12-14",
        "until": "2017-12-15",
        "metadata_prefix": "arXiv",
    }
    assert (run.created_count, run.updated_count, run.skipped_count, run.errors) == (7, 0, 0, [])
    assert run.checkpoint == {"harvested_through": "2017-12-15"}
    # The daily harvest of the set starts again from where this one ended.
    assert arxiv_daily_from("cs") == datetime.date(2017, 12, 15)


def test_a_second_harvest_changes_nothing(replay):
    forget(ALL_IDS)
    three_pages(replay)
    harvest()
    before = (
        sorted(Paper.objects.filter(arxiv_id__in=ALL_IDS).values_list("arxiv_id", "title", "updated_at")),
        sorted(
            Authorship.objects.filter(paper__arxiv_id__in=ALL_IDS).values_list("pk", "name", "researcher_id")
        ),
    )

    summary = harvest()

    assert (summary.created, summary.updated, summary.unchanged) == (0, 0, 7)
    after = (
        sorted(Paper.objects.filter(arxiv_id__in=ALL_IDS).values_list("arxiv_id", "title", "updated_at")),
        sorted(
            Authorship.objects.filter(paper__arxiv_id__in=ALL_IDS).values_list("pk", "name", "researcher_id")
        ),
    )
    assert after == before


def test_it_waits_as_long_as_a_503_retry_after_asks(replay):
    forget(PAGE_IDS[2])
    busy = Reply(status=503, body=b"Retry after 1 second", headers={"Retry-After": "1"})
    replay.route("/oai", busy, xml(SINGLE), verb="ListRecords")

    summary = harvest()

    assert summary.state == "succeeded" and summary.created == 1
    refused, served = replay.seen("/oai")
    assert served.at - refused.at >= 1.0
    assert Paper.objects.filter(arxiv_id="1401.2122").exists()


def test_it_retries_a_request_that_times_out(replay, settings):
    forget(PAGE_IDS[2])
    settings.HTTP_TIMEOUT_SECONDS = 1
    replay.route("/oai", Reply(body=SINGLE, delay=1.5), xml(SINGLE), verb="ListRecords")

    summary = harvest()

    assert summary.state == "succeeded" and summary.created == 1
    assert len(replay.seen("/oai")) == 2


def test_it_retries_a_connection_dropped_in_the_middle_of_a_page(replay):
    forget(PAGE_IDS[2])
    replay.route("/oai", Reply(body=SINGLE, drop_after=700), xml(SINGLE), verb="ListRecords")

    summary = harvest()

    assert summary.state == "succeeded" and summary.created == 1
    assert len(replay.seen("/oai")) == 2


def test_it_gives_up_after_its_attempts_and_records_why(replay, settings):
    settings.HARVEST_MAX_ATTEMPTS = 3
    replay.route("/oai", Reply(status=502, body=b"Bad Gateway"), verb="ListRecords")

    summary = harvest()

    assert summary.state == "failed"
    assert len(replay.seen("/oai")) == 3
    run = HarvestRun.objects.filter(source="arxiv-oai").recent().first()
    assert run.state == "failed"
    [error] = run.errors
    assert error["source"] == "arXiv OAI-PMH"
    assert error["request"].startswith(f"GET {settings.ARXIV_OAI_URL}?verb=ListRecords&metadataPrefix=arXiv")
    assert error["position"] == "page 1"
    assert error["message"] == "gave up after 3 attempts: HTTP 502: Bad Gateway"


def test_a_page_cut_short_once_is_asked_for_again_and_the_run_goes_on(replay):
    """A dropped connection under a response without a length reaches the parser as a complete body that
    is not well-formed XML: asked again, like a 5xx, not the end of the run."""
    forget(ALL_IDS)
    second_page = with_resumption_token(HEP_EX, SECOND_TOKEN, 7)
    three_pages(replay)
    replay.route("/oai", xml(second_page[:2500]), xml(second_page), resumptionToken=FIRST_TOKEN)

    summary = harvest()

    assert summary.state == "succeeded" and summary.created == 7
    tokens = [seen.query.get("resumptionToken") for seen in replay.seen("/oai")]
    assert tokens == [None, FIRST_TOKEN, FIRST_TOKEN, SECOND_TOKEN]
    assert Paper.objects.filter(arxiv_id__in=ALL_IDS).count() == 7


def test_a_page_still_malformed_after_its_attempts_stops_the_run_there_and_the_next_run_resumes(
    replay, settings
):
    settings.HARVEST_MAX_ATTEMPTS = 3
    forget(ALL_IDS)
    truncated = with_resumption_token(HEP_EX, SECOND_TOKEN, 7)[:2500]
    three_pages(replay, second_page=xml(truncated))

    first = harvest()

    assert first.state == "failed" and first.created == 3
    assert [seen.query.get("resumptionToken") for seen in replay.seen("/oai")] == [None] + [FIRST_TOKEN] * 3
    run = HarvestRun.objects.filter(source="arxiv-oai").recent().first()
    [error] = run.errors
    assert error["source"] == "arXiv OAI-PMH"
    assert error["request"].endswith(f"resumptionToken={FIRST_TOKEN.replace('|', '%7C')}")
    assert error["position"] == "page 2"
    assert error["message"].startswith("gave up after 3 attempts: not well-formed XML")
    assert run.checkpoint == {"resumption_token": FIRST_TOKEN, "page": 1}
    assert not Paper.objects.filter(arxiv_id__in=PAGE_IDS[1]).exists()  # nothing of the broken page

    replay.reset()
    three_pages(replay)  # the source answers properly again
    second = harvest()

    assert second.state == "succeeded" and second.resumed
    assert [r.query.get("resumptionToken") for r in replay.seen("/oai")] == [FIRST_TOKEN, SECOND_TOKEN]
    run.refresh_from_db()
    assert (run.state, run.created_count) == ("succeeded", 7)
    assert Paper.objects.filter(arxiv_id__in=ALL_IDS).count() == 7


def test_a_record_missing_its_title_is_skipped_and_named(replay):
    forget(PAGE_IDS[0])
    untitled = HEP_TH.replace(
        b"<title>Toolbox for reconstructing", b"<untitled>Toolbox for reconstructing", 1
    )
    untitled = untitled.replace(b"  acquisition</title>", b"  acquisition</untitled>", 1)
    replay.route("/oai", xml(untitled), verb="ListRecords")

    summary = harvest()

    assert (summary.state, summary.created, summary.skipped) == ("succeeded", 2, 1)
    run = HarvestRun.objects.filter(source="arxiv-oai").recent().first()
    [error] = run.errors
    assert error["position"] == "page 1, record 1"
    assert error["message"] == "1412.8323: missing title"
    assert not Paper.objects.filter(arxiv_id="1412.8323").exists()


def test_no_records_match_ends_the_run_cleanly(replay):
    replay.route("/oai", xml(fixture(OAI + "spec_example_error_noRecordsMatch.xml")), verb="ListRecords")

    summary = harvest()

    assert (summary.state, summary.created, summary.errors) == ("succeeded", 0, 0)


def test_an_expired_resumption_token_restarts_the_list_from_the_date_without_duplicates(replay):
    forget(PAGE_IDS[0])
    bad_token = xml(fixture(OAI + "spec_example_error_badResumptionToken.xml"))
    # The first listing hands out a token that has expired by the time it is used; the restarted listing
    # (same set and date) fits on one page.
    replay.route(
        "/oai", xml(with_resumption_token(HEP_TH, FIRST_TOKEN, 3)), xml(HEP_TH), verb="ListRecords", set="cs"
    )
    replay.route("/oai", bad_token, resumptionToken=FIRST_TOKEN)

    summary = harvest()

    assert (summary.state, summary.created, summary.unchanged) == ("succeeded", 3, 3)
    assert [r.query.get("resumptionToken") for r in replay.seen("/oai")] == [None, FIRST_TOKEN, None]
    assert replay.seen("/oai")[2].query["from"] == "2017-12-14"
    assert Paper.objects.filter(arxiv_id__in=PAGE_IDS[0]).count() == 3
    run = HarvestRun.objects.filter(source="arxiv-oai").recent().first()
    assert run.state == "succeeded"
    assert (
        "badResumptionToken (This resumptionToken is invalid): restarting from 2017-12-14"
        in run.errors[0]["message"]
    )


def test_another_oai_error_fails_the_run_naming_its_code(replay):
    replay.route("/oai", xml(fixture(OAI + "spec_example_error_badArgument.xml")), verb="ListRecords")

    summary = harvest()

    assert summary.state == "failed"
    assert summary.last_error.startswith("page 1: OAI-PMH error badArgument")


def page_of(arxiv_id: str) -> int:
    return next(number for number, ids in enumerate(PAGE_IDS, start=1) if arxiv_id in ids)


def test_it_fetches_the_next_page_while_it_stores_this_one(replay, monkeypatch):
    """The request for page 2 (and arXiv's pause before it) overlaps the storing of page 1."""
    forget(ALL_IDS)
    three_pages(replay)
    stored_pages = []
    store = sweeps_arxiv.store_papers

    def store_once_page_two_is_asked_for(recorder, records, checkpoint):
        if not stored_pages:
            replay.wait_for(lambda seen: seen.query.get("resumptionToken") == FIRST_TOKEN, timeout=10)
        stored_pages.extend(sorted({page_of(record.arxiv_id) for record in records}))
        return store(recorder, records, checkpoint)

    monkeypatch.setattr(sweeps_arxiv, "store_papers", store_once_page_two_is_asked_for)

    summary = harvest()

    assert (summary.state, summary.created) == ("succeeded", 7)
    assert stored_pages == [1, 2, 3]
    assert [seen.query.get("resumptionToken") for seen in replay.seen("/oai")] == [
        None,
        FIRST_TOKEN,
        SECOND_TOKEN,
    ]


def test_pages_waiting_when_a_transaction_starts_are_stored_in_it_together(replay, monkeypatch):
    """A backlog served faster than it is stored: the pages that came while page 1 was being stored are
    stored in one transaction, with the checkpoint of the last of them."""
    forget(ALL_IDS)
    three_pages(replay)
    transactions = []
    store = sweeps_arxiv.store_papers

    def store_slowly_at_first(recorder, records, checkpoint):
        if not transactions:  # the thread fetches and parses pages 2 and 3 meanwhile
            replay.wait_for(lambda seen: seen.query.get("resumptionToken") == SECOND_TOKEN, timeout=10)
            time.sleep(0.5)
        transactions.append(([page_of(record.arxiv_id) for record in records], dict(checkpoint)))
        return store(recorder, records, checkpoint)

    monkeypatch.setattr(sweeps_arxiv, "store_papers", store_slowly_at_first)

    summary = harvest()

    assert (summary.state, summary.created) == ("succeeded", 7)
    assert Paper.objects.filter(arxiv_id__in=ALL_IDS).count() == 7
    assert len(transactions) == 2
    assert [page for pages, _checkpoint in transactions for page in sorted(set(pages))] == [1, 2, 3]
    assert transactions[-1][1] == {"resumption_token": None, "page": 3}


def test_pages_that_come_apart_are_stored_apart(replay, monkeypatch, settings):
    """A daily harvest's pages come arXiv's interval apart: each is stored, and checkpointed, alone."""
    settings.ARXIV_MIN_INTERVAL_MS = 700
    forget(ALL_IDS)
    three_pages(replay)
    checkpoints = []
    store = sweeps_arxiv.store_papers

    def store_and_note(recorder, records, checkpoint):
        checkpoints.append((sorted({page_of(record.arxiv_id) for record in records}), checkpoint["page"]))
        return store(recorder, records, checkpoint)

    monkeypatch.setattr(sweeps_arxiv, "store_papers", store_and_note)

    summary = harvest()

    assert (summary.state, summary.created) == ("succeeded", 7)
    assert checkpoints == [([1], 1), ([2], 2), ([3], 3)]
