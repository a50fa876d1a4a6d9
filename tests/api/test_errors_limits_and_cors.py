"""One error object for every error under /api/, rate limits per client address, and CORS for GET."""

import json

import pytest
from django.http import HttpResponseServerError
from django.test import RequestFactory

from core.api import ErrorOut
from tests.test_settings import PRODUCTION, manage
from wovepaper.api import api, json_error_bodies

pytestmark = pytest.mark.django_db


def assert_error_object(response, status: int, code: str) -> dict:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = json.loads(response.content)
    assert ErrorOut.model_validate(body).model_dump() == body  # exactly the documented fields
    assert (body["status"], body["error"]) == (status, code) and body["message"]
    return body


def test_an_unknown_endpoint_is_a_json_404(client):
    body = assert_error_object(client.get("/api/no/such/thing"), 404, "not_found")
    assert body["message"] == "No API endpoint at /api/no/such/thing; see http://127.0.0.1:8000/openapi.json"
    assert_error_object(client.get("/api/"), 404, "not_found")


def test_a_method_other_than_get_is_a_json_405_naming_get(client):
    response = client.post("/api/papers", data={"title": "mine"})
    assert_error_object(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET"


def test_invalid_parameters_are_a_400_with_one_detail_each(client):
    body = assert_error_object(client.get("/api/papers?page=zero&per_page=1000"), 400, "bad_request")
    assert {detail["location"] for detail in body["details"]} == {"query.page", "query.per_page"}


def test_a_crash_in_an_operation_is_a_json_500_and_is_logged(caplog):
    request = RequestFactory().get("/api/papers")
    response = api.on_exception(request, RuntimeError("the database went away"))
    body = assert_error_object(response, 500, "server_error")
    assert "database" not in body["message"]  # nothing internal leaks out
    assert "the database went away" in caplog.text


def test_a_django_error_page_under_api_becomes_the_error_object():
    middleware = json_error_bodies(lambda request: HttpResponseServerError("<h1>Server Error (500)</h1>"))
    assert_error_object(middleware(RequestFactory().get("/api/papers")), 500, "server_error")
    untouched = json_error_bodies(lambda request: HttpResponseServerError("<h1>Server Error (500)</h1>"))
    assert untouched(RequestFactory().get("/about")).content == b"<h1>Server Error (500)</h1>"


def test_it_limits_each_client_address_and_answers_429_with_retry_after(client, settings):
    settings.API_RATE_LIMIT = "3/m"
    for _ in range(3):
        assert client.get("/api/papers?per_page=1").status_code == 200
    limited = client.get("/api/researchers?name=grace")
    body = assert_error_object(limited, 429, "rate_limited")
    assert 1 <= int(limited["Retry-After"]) <= 60  # until the minute's count starts over
    assert "at most 3 requests a minute" in body["message"]
    assert client.get("/api/papers", REMOTE_ADDR="192.0.2.7").status_code == 200  # another address
    assert client.get("/about").status_code == 200  # pages have their own limits
    settings.API_RATE_LIMIT = "1/h"
    assert client.get("/api/papers", REMOTE_ADDR="192.0.2.8").status_code == 200
    hourly = client.get("/api/papers", REMOTE_ADDR="192.0.2.8")
    # Each key's window starts at an offset of its own, so the wait is anywhere up to the hour.
    assert 1 <= int(hourly["Retry-After"]) <= 3600
    assert "at most 1 request an hour" in assert_error_object(hourly, 429, "rate_limited")["message"]


def test_it_lets_any_origin_read_with_get(client):
    response = client.get("/api/papers?per_page=1", headers={"Origin": "https://example.org"})
    assert response["Access-Control-Allow-Origin"] == "*"
    assert {"ETag", "Last-Modified", "Retry-After"} <= set(
        response["Access-Control-Expose-Headers"].split(", ")
    )
    assert (
        client.get("/openapi.json", headers={"Origin": "https://example.org"})["Access-Control-Allow-Origin"]
        == "*"
    )
    assert (
        client.get("/rss/latest.xml", headers={"Origin": "https://example.org"})[
            "Access-Control-Allow-Origin"
        ]
        == "*"
    )
    assert "Access-Control-Allow-Origin" not in client.get(
        "/about", headers={"Origin": "https://example.org"}
    )


def test_it_answers_a_cors_preflight_for_get(client):
    response = client.options(
        "/api/papers/2201.12423",
        headers={"Origin": "https://example.org", "Access-Control-Request-Method": "GET",
                 "Access-Control-Request-Headers": "if-none-match"},
    )  # fmt: skip
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert (
        "GET" in response["Access-Control-Allow-Methods"]
        and "POST" not in response["Access-Control-Allow-Methods"]
    )
    assert "if-none-match" in response["Access-Control-Allow-Headers"]


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/institutions/%00", 400),  # PostgreSQL text cannot hold NUL: refused before any SQL
        ("/api/institutions/a%00b/papers", 400),
        ("/api/researchers?name=a%00b", 400),
        ("/api/papers?category=cs%00", 400),
        ("/api/papers/2201.12423%00", 400),  # a NUL byte anywhere in an address: core.middleware
        ("/api/researchers/99999999999999999999999", 404),  # past bigint
        ("/api/institutions/" + "x" * 300, 400),
    ],
)
def test_hostile_parameters_get_a_clear_4xx_not_a_500(client, url, status):
    response = client.get(url)
    assert response.status_code == status
    assert json.loads(response.content)["status"] == status


def test_a_rate_limit_setting_it_cannot_read_stops_start_up_naming_it():
    result = manage("check", API_RATE_LIMIT="lots", **PRODUCTION)
    assert result.returncode != 0
    assert "API_RATE_LIMIT must look like 600/m, 100/5m or 10/h" in result.stderr
    assert "got 'lots'" in result.stderr
