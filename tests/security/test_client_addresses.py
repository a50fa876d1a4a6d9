"""Per-address limits count the client's real address: X-Forwarded-For is believed only from a configured
proxy, and only as far as the configured number of proxies (finding 3 of issue 15)."""

import pytest
from django.test import RequestFactory

from core.ratelimits import client_ip

PROXY = ("HTTP_X_FORWARDED_PROTO", "https")  # what BEHIND_PROXY=true sets


def request_from(peer: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def reset_statuses(client, count: int, remote_addr: str, forwarded_for: str) -> list[int]:
    """The statuses of `count` password-reset requests from `remote_addr`, each with its own e-mail
    address and X-Forwarded-For (`forwarded_for` formatted with the request's number)."""
    return [
        client.post(
            "/accounts/password-reset",
            {"email": f"someone{number}@example.org"},
            REMOTE_ADDR=remote_addr,
            HTTP_X_FORWARDED_FOR=forwarded_for.format(number=number),
        ).status_code
        for number in range(count)
    ]


@pytest.mark.django_db
def test_a_client_rotating_x_forwarded_for_is_still_limited(client, settings):
    """Finding 3: with BEHIND_PROXY=true, a client reaching gunicorn directly made up a new address for
    each request and was never limited (14 password resets, no 429)."""
    settings.SECURE_PROXY_SSL_HEADER = PROXY
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    statuses = reset_statuses(client, 14, "203.0.113.9", "198.51.100.{number}")
    assert statuses[:10] == [302] * 10  # PASSWORD_RESET_RATE_LIMIT_IP: 10/h
    assert statuses[10:] == [429] * 4


@pytest.mark.django_db
def test_through_the_proxy_only_the_address_it_saw_counts(client, settings):
    """Finding 3: behind the proxy, what the client wrote into X-Forwarded-For itself changes nothing."""
    settings.SECURE_PROXY_SSL_HEADER = PROXY
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    statuses = reset_statuses(client, 12, "10.0.0.2", "198.51.100.{number}, 203.0.113.9")
    assert statuses[10:] == [429, 429]


def test_it_reads_the_address_the_configured_number_of_proxies_saw(settings):
    """Finding 3: TRUSTED_PROXY_HOPS entries from the right, never further left."""
    settings.TRUSTED_PROXIES = ["10.0.0.0/8", "fd00::/8"]
    settings.TRUSTED_PROXY_HOPS = 1
    assert client_ip(request_from("10.0.0.2", "1.1.1.1, 203.0.113.9")) == "203.0.113.9"
    assert client_ip(request_from("fd00::2", "2001:db8::1")) == "2001:db8::1"
    assert client_ip(request_from("10.0.0.2")) == "10.0.0.2"  # no header: the proxy itself
    assert client_ip(request_from("10.0.0.2", "not-an-address")) == "10.0.0.2"
    assert client_ip(request_from("203.0.113.9", "1.1.1.1")) == "203.0.113.9"  # not our proxy
    settings.TRUSTED_PROXY_HOPS = 2
    assert client_ip(request_from("10.0.0.2", "1.1.1.1, 198.51.100.7, 10.9.9.9")) == "198.51.100.7"
    assert client_ip(request_from("10.0.0.2", "198.51.100.7")) == "198.51.100.7"


def test_without_a_proxy_nobody_is_believed(settings):
    """Finding 3: the default (BEHIND_PROXY off) trusts no X-Forwarded-For at all."""
    settings.TRUSTED_PROXIES = []
    assert client_ip(request_from("127.0.0.1", "1.1.1.1")) == "127.0.0.1"
