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
