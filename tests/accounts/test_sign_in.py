"""Sign-in and sign-out: one message for every failure, redirects only to our own paths, POST and CSRF."""

import pytest
from django.test import Client

from accounts.forms import SIGN_IN_FAILED
from tests.factories import ACCOUNT_PASSWORD, make_account
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db


def sign_in(client: Client, email: str, password: str = ACCOUNT_PASSWORD, **extra: str):
    return client.post("/accounts/sign-in", {"email": email, "password": password, **extra})


def test_it_signs_in_with_the_address_in_any_case_and_goes_to_following(client):
    make_account("ada@example.org")
    response = sign_in(client, " ADA@Example.org")
    assert (response.status_code, response["Location"]) == (302, "/following")
    header = tree(client.get("/about")).xpath("//nav[@aria-label='Main']")[0]
    assert "ada@example.org" in text_of(header) and "Sign in" not in text_of(header)
    assert header.xpath(".//a[text()='ada@example.org']/@href") == ["/account"]
    assert header.xpath(".//a[text()='Following']/@href") == ["/following"]


def test_signed_out_the_header_offers_sign_in(client):
    header = tree(client.get("/about")).xpath("//nav[@aria-label='Main']")[0]
    assert header.xpath(".//a[text()='Sign in']/@href") == ["/accounts/sign-in"]


def test_a_wrong_password_an_unknown_address_and_an_unconfirmed_account_get_one_answer(client):
    make_account("known@example.org")
    make_account("unconfirmed@example.org", active=False)
    answers = []
    for email, password in (
        ("known@example.org", "not-the-password-1"),
        ("nobody-here@example.org", ACCOUNT_PASSWORD),
        ("unconfirmed@example.org", ACCOUNT_PASSWORD),
    ):
        response = sign_in(client, email, password)
        assert response.status_code == 400
        assert texts(response, "//div[@class='form-errors']/p") == [SIGN_IN_FAILED]
        answers.append(text_of(tree(response).xpath("//main")[0]).replace(email, "…"))
    assert answers[0] == answers[1] == answers[2]
    assert client.get("/account").status_code == 302  # still signed out


@pytest.mark.parametrize(
    ("next_value", "destination"),
    [
        ("/researchers?q=zhao", "/researchers?q=zhao"),
        ("https://evil.example/steal", "/following"),
        ("//evil.example/steal", "/following"),
        ("/\\evil.example", "/following"),
        ("http:/evil.example", "/following"),
        ("javascript:alert(1)", "/following"),
        ("/\x00/admin", "/following"),
    ],
)
def test_it_goes_back_only_to_our_own_paths(client, next_value, destination):
    make_account("nexter@example.org")
    response = sign_in(client, "nexter@example.org", next=next_value)
    assert response["Location"] == destination


def test_signing_in_keeps_next_from_the_address_in_the_form(client):
    form = tree(client.get("/accounts/sign-in", {"next": "/account#feeds"})).xpath("//main//form")[0]
    assert form.xpath(".//input[@name='next']/@value") == ["/account#feeds"]
    evil = tree(client.get("/accounts/sign-in", {"next": "https://evil.example/"})).xpath("//main//form")[0]
    assert evil.xpath(".//input[@name='next']/@value") == ["/following"]


def test_signed_in_the_sign_in_page_moves_on(client):
    client.force_login(make_account())
    assert client.get("/accounts/sign-in", {"next": "/account"})["Location"] == "/account"


def test_sign_out_is_a_post_and_ends_the_session(client):
    client.force_login(make_account())
    assert client.get("/accounts/sign-out").status_code == 405
    response = client.post("/accounts/sign-out")
    assert (response.status_code, response["Location"]) == (302, "/")
    assert "You have signed out." in texts(client.get("/"), "//div[@class='messages']/p")
    assert client.get("/account")["Location"] == "/accounts/sign-in?next=/account"


def test_sign_in_and_sign_out_need_csrf(client):
    user = make_account("csrf@example.org")
    strict = Client(enforce_csrf_checks=True)
    assert sign_in(strict, "csrf@example.org").status_code == 403
    strict.force_login(user)
    assert strict.post("/accounts/sign-out").status_code == 403


def test_sessions_end_when_the_password_changes(client):
    user = make_account("rotating@example.org")
    client.force_login(user)
    user.set_password("a-whole-new-secret-77")
    user.save()
    assert client.get("/account").status_code == 302
