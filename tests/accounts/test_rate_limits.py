"""Sign-in, password resets and sign-ups are limited per client address and per account: 429 with
Retry-After, counted in Redis, without saying whether the address has an account."""

import math

import pytest
from django.core import mail

from tests.factories import ACCOUNT_PASSWORD, make_account
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db

LIMITS = {
    "sign-in-ip": "5/h",
    "sign-in-account": "3/h",
    "password-reset-ip": "4/m",
    "password-reset-account": "2/h",
    "sign-up-ip": "3/d",
    "sign-up-account": "2/h",
}


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.ACCOUNT_RATE_LIMITS = LIMITS


def from_address(number: int) -> dict[str, str]:
    return {"REMOTE_ADDR": f"198.51.100.{number}"}


def assert_limited(response, window_seconds: int) -> None:
    assert response.status_code == 429
    wait = int(response["Retry-After"])
    assert 0 < wait <= window_seconds
    assert texts(response, "//h1") == ["Too many attempts"]
    said = f"about {math.ceil(wait / 60)} minutes" if wait > 90 else f"{wait} second"
    assert f"Please wait {said}" in text_of(tree(response).xpath("//main")[0])


def test_sign_in_is_limited_per_account_from_any_address(client):
    make_account("target@example.org")
    for number in range(3):
        response = client.post(
            "/accounts/sign-in",
            {"email": "target@example.org", "password": f"guess-{number}"},
            **from_address(number),
        )
        assert response.status_code == 400
    blocked = client.post(
        "/accounts/sign-in", {"email": "TARGET@example.org", "password": ACCOUNT_PASSWORD}, **from_address(9)
    )
    assert_limited(blocked, 3600)  # even the right password waits: guessing has to stop
    assert client.get("/account").status_code == 302
    other = client.post(
        "/accounts/sign-in", {"email": "someone-else@example.org", "password": "x"}, **from_address(9)
    )
    assert other.status_code == 400  # the address that was counted is the one limited


def test_sign_in_is_limited_per_client_address_across_accounts(client):
    for number in range(5):
        email = f"spray{number}@example.org"
        assert (
            client.post("/accounts/sign-in", {"email": email, "password": "x"}, **from_address(1)).status_code
            == 400
        )
    assert_limited(
        client.post("/accounts/sign-in", {"email": "spray9@example.org", "password": "x"}, **from_address(1)),
        3600,
    )
    assert (
        client.post(
            "/accounts/sign-in", {"email": "spray9@example.org", "password": "x"}, **from_address(2)
        ).status_code
        == 400
    )


def test_an_address_without_an_account_is_limited_like_one_with(client):
    make_account("exists@example.org")
    answers = []
    for email in ("exists@example.org", "absent@example.org"):
        for _ in range(3):
            client.post(
                "/accounts/sign-in",
                {"email": email, "password": "wrong"},
                **from_address(3 if "exists" in email else 4),
            )
        answers.append(
            client.post(
                "/accounts/sign-in", {"email": email, "password": "wrong"}, **from_address(5)
            ).status_code
        )
    assert answers == [429, 429]


def test_password_resets_are_limited_per_account_and_per_address(client):
    make_account("reset-me@example.org")
    for number in range(2):
        assert (
            client.post(
                "/accounts/password-reset", {"email": "reset-me@example.org"}, **from_address(number)
            ).status_code
            == 302
        )
    assert_limited(
        client.post("/accounts/password-reset", {"email": "reset-me@example.org"}, **from_address(7)), 3600
    )
    assert len(mail.outbox) == 2  # no third e-mail to the account
    for number in range(3):  # the address's 2nd, 3rd and 4th in this minute
        client.post("/accounts/password-reset", {"email": f"other{number}@example.org"}, **from_address(7))
    assert_limited(
        client.post("/accounts/password-reset", {"email": "fresh@example.org"}, **from_address(7)), 60
    )


def test_sign_ups_are_limited_so_nobody_can_flood_an_inbox(client):
    for _ in range(2):
        client.post("/accounts/sign-up", {"email": "flooded@example.org", "password": "heddle-bobbin-9731"})
    assert_limited(
        client.post("/accounts/sign-up", {"email": "flooded@example.org", "password": "heddle-bobbin-9731"}),
        3600,
    )
    assert len(mail.outbox) == 2
    assert_limited(
        client.post("/accounts/sign-up", {"email": "another@example.org", "password": "heddle-bobbin-9731"}),
        86400,
    )


def test_pages_are_not_counted_only_posts(client):
    for _ in range(10):
        assert client.get("/accounts/sign-in").status_code == 200
    assert client.post("/accounts/sign-in", {"email": "a@example.org", "password": "x"}).status_code == 400
