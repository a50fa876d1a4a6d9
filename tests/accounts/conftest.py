import re

import pytest
from django.conf import settings as django_settings
from django.core import mail


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2's million rounds take most of a second a hash and these tests hash hundreds of passwords: a
    fast hasher here. The live site, and so the browser test, keeps the real one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def link_in(message: mail.EmailMessage) -> str:
    """The path of the first link to this site in an e-mail's text."""
    match = re.search(re.escape(django_settings.SITE_URL) + r"(/\S+)", message.body)
    assert match, message.body
    return match.group(1)
