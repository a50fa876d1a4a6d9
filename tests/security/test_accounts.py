"""Attacks on accounts: taking one over before its owner confirms it (finding 4 of issue 15), locking its
owner out by failing to sign in as them (finding 5), and guessing passwords on the admin's sign-in page,
which had no limit (finding 6)."""

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from tests.accounts.conftest import link_in
from tests.factories import ACCOUNT_PASSWORD, make_account

pytestmark = pytest.mark.django_db

ATTACKERS_PASSWORD = "squatters-own-pw-5521"  # noqa: S105 (a test account's)
OWNERS_PASSWORD = "heddle-bobbin-9731"  # noqa: S105


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_in(client: Client, email: str, password: str, address: str = "192.0.2.1"):
    return client.post("/accounts/sign-in", {"email": email, "password": password}, REMOTE_ADDR=address)


def test_an_account_signed_up_for_by_someone_else_is_confirmed_with_the_owners_password(client):
    """Finding 4: the attacker signs up with the victim's address and a password; the victim signs up,
    confirms the e-mailed link, and the account that gets activated must not keep the attacker's
    password."""
    attacker = Client()
    attacker.post("/accounts/sign-up", {"email": "victim@example.org", "password": ATTACKERS_PASSWORD})
    client.post("/accounts/sign-up", {"email": "victim@example.org", "password": OWNERS_PASSWORD})
    for message in mail.outbox:  # either link: both went to the victim's mailbox
        confirm = link_in(message)
        page = client.get(confirm)
        assert page.status_code == 200
    response = client.post(confirm, {"new_password1": OWNERS_PASSWORD, "new_password2": OWNERS_PASSWORD})
    assert response["Location"] == "/account/onboarding"
    assert User.objects.get(username="victim@example.org").is_active
    assert client.get("/account").status_code == 200
    assert sign_in(attacker, "victim@example.org", ATTACKERS_PASSWORD).status_code == 400
    assert attacker.get("/account").status_code == 302
    assert sign_in(Client(), "victim@example.org", OWNERS_PASSWORD).status_code == 302


def test_confirming_without_choosing_a_password_activates_nothing(client):
    """Finding 4: a bare POST to the link (as the old confirmation button sent) from a browser that did not
    sign up activates nothing, so the attacker's password never becomes the account's."""
    Client().post("/accounts/sign-up", {"email": "victim2@example.org", "password": ATTACKERS_PASSWORD})
    assert client.post(link_in(mail.outbox[0])).status_code == 400
    assert not User.objects.get(username="victim2@example.org").is_active


def fail_to_sign_in_as(email: str, times: int) -> None:
    for number in range(times):  # from as many addresses as attempts: no per-address limit is reached
        sign_in(Client(), email, f"guess-{number}", address=f"203.0.113.{number + 1}")


def test_failed_sign_ins_from_elsewhere_do_not_lock_the_owners_browser_out(client):
    """Finding 5: ten wrong sign-ins from ten addresses locked the owner out for the rest of the hour. A
    browser that has signed in to the account before still signs in."""
    make_account("owner@example.org")
    assert sign_in(client, "owner@example.org", ACCOUNT_PASSWORD).status_code == 302
    client.post("/accounts/sign-out")
    fail_to_sign_in_as("owner@example.org", 12)
    assert sign_in(Client(), "owner@example.org", ACCOUNT_PASSWORD).status_code == 429  # guessing stops
    response = sign_in(client, "owner@example.org", ACCOUNT_PASSWORD)
    assert (response.status_code, response["Location"]) == (302, "/following")
    assert client.get("/account").status_code == 200


def test_an_owner_on_a_new_browser_is_shown_a_way_in_that_still_works(client):
    """Finding 5: past the account's sign-in limit, and past its reset limit too (the attacker asked for
    resets as well), the owner in a browser that never signed in is told what works, and it does: the
    newest reset link already e-mailed to them signs them in."""
    make_account("owner@example.org")
    fail_to_sign_in_as("owner@example.org", 10)
    for number in range(3):
        Client().post(
            "/accounts/password-reset", {"email": "owner@example.org"}, REMOTE_ADDR=f"203.0.113.{number + 50}"
        )
    paused = sign_in(client, "owner@example.org", ACCOUNT_PASSWORD)
    assert paused.status_code == 429
    assert "can still sign in" in paused.content.decode()
    assert 'href="/accounts/password-reset"' in paused.content.decode()
    reset = client.post("/accounts/password-reset", {"email": "owner@example.org"}, REMOTE_ADDR="192.0.2.1")
    assert reset.status_code == 429
    assert "the newest one works for three hours and signs you in" in reset.content.decode()
    newest = link_in(mail.outbox[-1])
    form = client.get(newest, follow=True)
    assert form.status_code == 200
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": OWNERS_PASSWORD, "new_password2": OWNERS_PASSWORD}
    )
    assert done["Location"] == "/following"
    assert client.get("/account").status_code == 200
    client.post("/accounts/sign-out")
    assert sign_in(client, "owner@example.org", OWNERS_PASSWORD).status_code == 302  # a known browser now


def admin_sign_in(client: Client, username: str, password: str, address: str):
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_the_admin_sign_in_is_limited_per_address(client):
    """Finding 6: /admin/login/ took 35 wrong passwords from one address, 35 answers 200."""
    statuses = [
        admin_sign_in(client, f"staff{n}@example.org", "wrong", "192.0.2.7").status_code for n in range(35)
    ]
    assert statuses[:30] == [200] * 30  # SIGN_IN_RATE_LIMIT_IP: 30/h, as on the site's sign-in
    assert statuses[30:] == [429] * 5


def test_the_admin_sign_in_is_limited_per_account_and_shares_the_sites_counters(client):
    """Finding 6: the same per-account limit as the site's sign-in, counted together with it."""
    User.objects.create_superuser("boss@example.org", "boss@example.org", ACCOUNT_PASSWORD)
    fail_to_sign_in_as("boss@example.org", 5)
    statuses = [
        admin_sign_in(client, "boss@example.org", "x", f"198.51.100.{n}").status_code for n in range(7)
    ]
    assert statuses == [200] * 5 + [429] * 2  # SIGN_IN_RATE_LIMIT_ACCOUNT: 10/h
    known = Client()
    assert admin_sign_in(known, "boss@example.org", ACCOUNT_PASSWORD, "192.0.2.9").status_code == 429
    known.force_login(User.objects.get(username="boss@example.org"))
    assert known.get("/admin/").status_code == 200


def test_the_admin_still_signs_in(client):
    """Finding 6, the other side: the admin's sign-in works as before, and marks the browser as known."""
    User.objects.create_superuser("chief@example.org", "chief@example.org", ACCOUNT_PASSWORD)
    response = admin_sign_in(client, "chief@example.org", ACCOUNT_PASSWORD, "192.0.2.10")
    assert (response.status_code, response["Location"]) == (302, "/admin/")
    assert "wovepaper_device" in response.cookies
    assert client.get("/admin/").status_code == 200
