"""Sign-up: one answer for every address, an e-mail to confirm it, then onboarding in the same browser."""

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import resolve

from accounts.models import AccountSettings
from accounts.tokens import confirmation_path, sign_up_tokens
from tests.accounts.conftest import link_in
from tests.factories import ACCOUNT_PASSWORD, make_account
from tests.html import text_of, texts, tree

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "heddle-bobbin-9731"  # noqa: S105 (a test account's)


def sign_up(client: Client, email: str, password: str = NEW_PASSWORD):
    return client.post("/accounts/sign-up", {"email": email, "password": password})


def test_it_makes_an_inactive_account_and_sends_a_link_to_confirm_the_address(client):
    response = sign_up(client, "  New.Reader@Example.org ")
    assert (response.status_code, response["Location"]) == (302, "/accounts/sign-up/sent")
    user = User.objects.get(username="new.reader@example.org")
    assert (user.email, user.is_active) == ("new.reader@example.org", False)
    assert user.check_password(NEW_PASSWORD)
    assert AccountSettings.objects.filter(user=user).exists()
    [message] = mail.outbox
    assert message.to == ["new.reader@example.org"]
    assert message.subject == "wovepaper: confirm your e-mail address"
    # The token carries the time it was made, so it is checked rather than made again here.
    link = resolve(link_in(message))
    assert link.view_name == "accounts:confirm" and sign_up_tokens.check_token(user, link.kwargs["token"])
    assert link.kwargs["uidb64"] == resolve(confirmation_path(user)).kwargs["uidb64"]
    sent = client.get("/accounts/sign-up/sent")
    assert "We have sent a message to new.reader@example.org." in text_of(tree(sent).xpath("//main")[0])


def test_confirming_in_the_same_browser_signs_in_and_starts_the_onboarding(client):
    sign_up(client, "weaver@example.org")
    confirm = link_in(mail.outbox[0])
    page = client.get(confirm)
    assert page.status_code == 200
    assert tree(page).xpath("//main//form[@method='post']//button/text()") == ["Confirm and continue"]
    assert not User.objects.get(username="weaver@example.org").is_active  # a GET changes nothing
    response = client.post(confirm)
    assert (response.status_code, response["Location"]) == (302, "/account/onboarding")
    assert User.objects.get(username="weaver@example.org").is_active
    assert client.get("/account").status_code == 200  # signed in
    assert client.post(confirm).status_code == 400  # a link confirms once
    assert "This link no longer works" in texts(client.get(confirm), "//h1")


def test_confirming_in_another_browser_asks_for_the_password_and_signs_in(client):
    sign_up(client, "elsewhere@example.org")
    confirm = link_in(mail.outbox[0])
    other_browser = Client()
    page = other_browser.get(confirm)
    fields = tree(page).xpath("//main//form//input[@type='password']/@name")
    assert fields == ["new_password1", "new_password2"]
    mismatch = other_browser.post(confirm, {"new_password1": "warp-weft-2241", "new_password2": "other"})
    assert mismatch.status_code == 400
    assert not User.objects.get(username="elsewhere@example.org").is_active
    chosen = {"new_password1": "warp-weft-2241", "new_password2": "warp-weft-2241"}
    response = other_browser.post(confirm, chosen)
    assert response["Location"] == "/account/onboarding"
    user = User.objects.get(username="elsewhere@example.org")
    assert user.is_active and user.check_password("warp-weft-2241")
    assert other_browser.get("/account").status_code == 200


def test_an_address_with_an_account_gets_the_same_answer_and_a_note_instead_of_a_link(client):
    existing = make_account("taken@example.org")
    response = sign_up(client, "Taken@example.org")
    assert (response.status_code, response["Location"]) == (302, "/accounts/sign-up/sent")
    assert User.objects.filter(username__iexact="taken@example.org").count() == 1
    existing.refresh_from_db()
    assert existing.check_password(ACCOUNT_PASSWORD)  # untouched
    [message] = mail.outbox
    assert message.subject == "wovepaper: you already have an account"
    assert "/accounts/sign-in" in message.body and "/accounts/password-reset" in message.body
    assert "/accounts/confirm/" not in message.body
    fresh = Client()
    fresh.post("/accounts/sign-up", {"email": "free@example.org", "password": NEW_PASSWORD})
    answer_for_existing = text_of(tree(client.get("/accounts/sign-up/sent")).xpath("//main")[0])
    answer_for_new = text_of(tree(fresh.get("/accounts/sign-up/sent")).xpath("//main")[0])
    assert answer_for_existing == answer_for_new.replace("free@", "taken@")


def test_someone_elses_earlier_sign_up_never_signs_this_browser_in_with_their_password(client):
    """The address's owner signs up after someone else used their address with another password: the link
    confirms the address only with a password the owner chooses then (see tests/security)."""
    squatter = Client()
    sign_up(squatter, "owner@example.org", "squatters-own-pw-5521")
    sign_up(client, "owner@example.org", NEW_PASSWORD)
    user = User.objects.get(username="owner@example.org")
    assert user.check_password("squatters-own-pw-5521")  # a second sign-up does not change the password
    assert [link_in(message).startswith("/accounts/confirm/") for message in mail.outbox] == [True, True]
    response = client.post(link_in(mail.outbox[1]))
    assert response.status_code == 400  # no password chosen: nothing confirmed, nobody signed in
    assert not User.objects.get(username="owner@example.org").is_active
    assert client.get("/account").status_code == 302


def test_signing_up_again_while_waiting_sends_the_link_again(client):
    sign_up(client, "patient@example.org")
    sign_up(client, "patient@example.org")
    assert [message.subject for message in mail.outbox] == ["wovepaper: confirm your e-mail address"] * 2
    response = client.post(link_in(mail.outbox[1]))
    assert response["Location"] == "/account/onboarding"


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short1", "This password is too short. It must contain at least 8 characters."),
        ("password123", "This password is too common."),
        ("84736251904", "This password is entirely numeric."),
        ("lovelace.ada", "The password is too similar to the username."),
    ],
)
def test_passwords_are_checked_by_djangos_validators(client, password, message):
    response = sign_up(client, "lovelace.ada@example.org", password)
    assert response.status_code == 400
    assert message in texts(response, "//div[contains(@class, 'has-errors')]//ul[@class='errorlist']/li")
    assert not User.objects.filter(username="lovelace.ada@example.org").exists()
    assert not mail.outbox


def test_a_bad_address_is_a_clear_400(client):
    response = sign_up(client, "not an address")
    assert response.status_code == 400
    assert "Enter a valid email address." in texts(response, "//ul[@class='errorlist']/li")


def test_a_forged_or_stale_confirmation_link_is_refused(client):
    user = make_account("waiting@example.org", active=False)
    good = confirmation_path(user)
    uid = good.split("/")[3]
    for bad in (
        f"/accounts/confirm/{uid}/abc-123",
        "/accounts/confirm/Zm9v/abc-123",
        "/accounts/confirm/!!/x",
    ):
        assert client.post(bad).status_code == 400
    user.set_password("changed-since-5511")
    user.save()
    assert client.post(good).status_code == 400  # the token is bound to the password hash
    user.refresh_from_db()
    assert not user.is_active


def test_sign_up_needs_csrf(client):
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/accounts/sign-up", {"email": "a@example.org", "password": NEW_PASSWORD})
    assert response.status_code == 403
