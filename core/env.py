"""Strict readers for settings that come from environment variables.

Each one refuses a value it cannot use with ImproperlyConfigured naming the variable, so a typo in a
deployment stops start-up with one clear line instead of running with a surprising value.
"""

import ipaddress
import os
import re
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

from core.rates import Rate

TRUE_VALUES = ("true", "1", "yes", "on")
FALSE_VALUES = ("false", "0", "no", "off")
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def env_str(name: str, default: str) -> str:
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip()
    if not value:
        raise ImproperlyConfigured(f"{name} is set but empty")
    return value


def env_optional(name: str) -> str:
    """A value that may be absent (API keys): empty when unset."""
    return os.environ.get(name, "").strip()


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in TRUE_VALUES:
        return True
    if lowered in FALSE_VALUES:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {value!r}")


def env_int(name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, got {number}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} must list at least one value, comma-separated")
    return items


def env_url(name: str, default: str, *, schemes: tuple[str, ...] = ("http", "https")) -> str:
    value = env_str(name, default)
    parts = urlsplit(value)
    if parts.scheme not in schemes or not parts.netloc:
        allowed = " or ".join(f"{scheme}://" for scheme in schemes)
        raise ImproperlyConfigured(f"{name} must be a URL starting with {allowed}, got {value!r}")
    return value.rstrip("/")


def env_networks(name: str, default: list[str]) -> list[str]:
    """Addresses or networks (10.0.0.2, 172.16.0.0/12, fd00::/8), comma-separated; set but empty: none."""
    value = os.environ.get(name)
    values = default if value is None else [item.strip() for item in value.split(",") if item.strip()]
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list IP addresses or networks such as 10.0.0.2 or 172.16.0.0/12, got {value!r}"
            ) from None
    return values


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def env_log_level(name: str, default: str) -> str:
    """A logging level, in any case (info is INFO)."""
    value = env_str(name, default).upper()
    if value not in LOG_LEVELS:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(LOG_LEVELS)}, got {value.lower()!r}")
    return value


def env_email(name: str, default: str) -> str:
    value = env_str(name, default)
    if not EMAIL_PATTERN.match(value):
        raise ImproperlyConfigured(f"{name} must be an e-mail address, got {value!r}")
    return value


def env_rate(name: str, default: str) -> str:
    """An inbound rate limit (core.rates): 600/m, 100/5m, 10/h."""
    value = env_str(name, default)
    try:
        Rate.parse(value)
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} must look like 600/m, 100/5m or 10/h (requests per s, m, h or d), got {value!r}"
        ) from None
    return value


def redis_database_url(url: str, database: int) -> str:
    """The same Redis server as `url`, another of its numbered databases."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


def env_addresses(name: str) -> list[tuple[str, str]]:
    """People to e-mail, as Django's ADMINS: "Ada <ada@example.org>, ops@example.org"; empty when unset."""
    people = []
    for item in filter(None, (part.strip() for part in env_optional(name).split(","))):
        display, _, address = item.rpartition("<")
        address = address.rstrip(">").strip() if display or "<" in item else item
        if not EMAIL_PATTERN.match(address):
            raise ImproperlyConfigured(f"{name} must list e-mail addresses (Name <address>, …), got {item!r}")
        people.append((display.strip() or address, address))
    return people


def env_optional_url(name: str, *, schemes: tuple[str, ...] = ("http", "https")) -> str:
    """A URL that may be absent (an optional service): empty when unset, else as strict as env_url."""
    if not env_optional(name):
        return ""
    return env_url(name, "", schemes=schemes)
