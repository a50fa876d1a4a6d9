"""Details carry ETag and Last-Modified, and a client with a fresh copy gets 304 Not Modified."""

import datetime

import pytest
from django.utils.http import http_date

from institutions.models import Institution
from tests.factories import make_paper, make_researcher

pytestmark = pytest.mark.django_db


@pytest.fixture
def details():
    researcher = make_researcher("Grace Hopper")
    paper = make_paper(authors=[researcher])
    institution = Institution.objects.create(name="University of Woven Studies")
    return {
        "paper": f"/api/papers/{paper.arxiv_id}",
        "researcher": f"/api/researchers/{researcher.pk}",
        "institution": f"/api/institutions/{institution.pk}",
    }


@pytest.mark.parametrize("kind", ["paper", "researcher", "institution"])
def test_a_matching_etag_gets_304_and_a_stale_one_the_body(client, details, kind):
    first = client.get(details[kind])
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and len(etag) == 34
    again = client.get(details[kind], headers={"If-None-Match": etag})
    assert (again.status_code, again.content) == (304, b"")
    assert again["ETag"] == etag and again["Last-Modified"] == first["Last-Modified"]
    assert client.get(details[kind], headers={"If-None-Match": f"W/{etag}"}).status_code == 304  # weak match
    assert client.get(details[kind], headers={"If-None-Match": '"stale", ' + etag}).status_code == 304
    stale = client.get(details[kind], headers={"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.content == first.content


@pytest.mark.parametrize("kind", ["paper", "researcher", "institution"])
def test_if_modified_since_gets_304_until_the_record_changes(client, details, kind):
    first = client.get(details[kind])
    last_modified = first["Last-Modified"]
    assert client.get(details[kind], headers={"If-Modified-Since": last_modified}).status_code == 304
    an_hour_before = http_date(
        (datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)).timestamp()
    )
    assert client.get(details[kind], headers={"If-Modified-Since": an_hour_before}).status_code == 200


def test_the_etag_follows_the_body_even_when_the_rows_timestamp_does_not_move(client):
    paper = make_paper(title="First title")
    first = client.get(f"/api/papers/{paper.arxiv_id}")
    paper.title = "Second title"
    paper.save(update_fields=["title"])  # updated_at stays as it was
    changed = client.get(f"/api/papers/{paper.arxiv_id}", headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed.json()["title"] == "Second title"
    assert changed["ETag"] != first["ETag"]
    # If-None-Match decides when both are sent (RFC 9110): the old date alone would say "not modified".
    both = client.get(
        f"/api/papers/{paper.arxiv_id}",
        headers={"If-None-Match": first["ETag"], "If-Modified-Since": http_date(2**31)},
    )
    assert both.status_code == 200


def test_lists_are_not_conditional(client):
    response = client.get("/api/papers?per_page=1")
    assert "ETag" not in response and "Last-Modified" not in response
