"""Password reset by e-mail, answering the same whether or not the address has an account."""

import pytest
from django.core import mail
from django.test import Client

from tests.accounts.conftest import link_in
from tests.factories import ACCOUNT_PASSWORD, make_account
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "weft-and-warp-2207"  # noqa: S105 (a test account's)


def test_it_resets_a_password_through_the_link_in_the_email(client):
    user = make_account("forgetful@example.org")
    response = client.post("/accounts/password-reset", {"email": "Forgetful@example.org"})
    assert (response.status_code, response["Location"]) == (302, "/accounts/password-reset/sent")
    [message] = mail.outbox
    assert message.to == ["forgetful@example.org"]
    assert message.subject == "wovepaper: choose a new password"
    link = link_in(message)
    assert link.startswith("/accounts/password-reset/")

    form_page = client.get(link, follow=True)  # Django moves the token out of the address first
    assert form_page.redirect_chain[-1][0].endswith("/set-password")
    assert texts(form_page, "//h1") == ["Choose a new password"]
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert (done.status_code, done["Location"]) == (302, "/following")
    assert client.get("/account").status_code == 200  # signed in
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD) and not user.check_password(ACCOUNT_PASSWORD)
    assert "This link no longer works" in texts(Client().get(link, follow=True), "//h1")  # used once


def test_an_unknown_address_gets_the_same_answer_and_no_email(client):
    make_account("known-reset@example.org")
    client.post("/accounts/password-reset", {"email": "known-reset@example.org"})
    known = text_of(tree(client.get("/accounts/password-reset/sent")).xpath("//main")[0])
    other = Client()
    response = other.post("/accounts/password-reset", {"email": "unknown-reset@example.org"})
    assert (response.status_code, response["Location"]) == (302, "/accounts/password-reset/sent")
    unknown = text_of(tree(other.get("/accounts/password-reset/sent")).xpath("//main")[0])
    assert unknown == known.replace("known-reset@", "unknown-reset@")
    assert [message.to for message in mail.outbox] == [["known-reset@example.org"]]


def test_an_unconfirmed_account_gets_no_reset_link(client):
    make_account("not-yet@example.org", active=False)
    client.post("/accounts/password-reset", {"email": "not-yet@example.org"})
    assert not mail.outbox


def test_the_new_password_is_checked_by_djangos_validators(client):
    make_account("weak@example.org")
    client.post("/accounts/password-reset", {"email": "weak@example.org"})
    form_page = client.get(link_in(mail.outbox[0]), follow=True)
    response = client.post(form_page.redirect_chain[-1][0], {"new_password1": "123", "new_password2": "123"})
    assert response.status_code == 200
    errors = texts(response, "//ul[@class='errorlist']/li")
    assert "This password is too short. It must contain at least 8 characters." in errors
