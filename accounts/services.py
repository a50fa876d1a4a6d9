"""Writes of the accounts app: keyword-only `<entity>_<action>` functions the views and tasks call."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import emails
from accounts.models import AccountSettings, DigestFrequency, Follow, SavedSearch, new_feed_token
from researchers.models import Researcher

MAX_SAVED_SEARCHES = 50  # each is run for every digest: a bound on the work one account can ask for


class SavedSearchLimitReached(Exception):
    pass


def account_settings_for(user: AbstractBaseUser) -> AccountSettings:
    """The account's settings row, made on first use (for accounts made outside sign-up, e.g. staff)."""
    account_settings, _ = AccountSettings.objects.get_or_create(user=user)
    return account_settings


def account_sign_up(*, email: str, password: str) -> User | None:
    """Sign-up with an e-mail address (already normalised) and a valid password. Exactly one e-mail goes to
    the address whatever the case, so the page can answer the same for every address:

    - a new address: an inactive account, and a link to confirm the address (which activates it);
    - an account waiting for confirmation: the link again;
    - an active account: a note that the account exists, with links to sign in or reset the password.

    Returns the account that this sign-up may be signed in to once the address is confirmed: the new one,
    or the waiting one if `password` is its password; otherwise None.
    """
    existing = User.objects.filter(username__iexact=email).first()
    if existing is None:
        try:
            with transaction.atomic():
                user = User.objects.create_user(
                    username=email, email=email, password=password, is_active=False
                )
                AccountSettings.objects.create(user=user)
        except IntegrityError:  # the same address signed up at the same moment: treat it as existing
            existing = User.objects.get(username__iexact=email)
        else:
            emails.send_sign_up_confirmation(user)
            return user
    if existing.is_active:
        make_password(password)  # the time a new account's password hash takes: no timing difference
        emails.send_already_registered(existing)
        return None
    emails.send_sign_up_confirmation(existing)
    return existing if existing.check_password(password) else None


def account_confirm(*, user: User, password: str | None = None) -> None:
    """The address is confirmed: the account can sign in from now on, with `password` if one is given (the
    password of the person confirming, when their browser is not the one that signed up)."""
    user.is_active = True
    if password is not None:
        user.set_password(password)
    user.save(update_fields=["is_active", "password"] if password is not None else ["is_active"])
    account_settings_for(user)


def account_fields_choose(*, user: AbstractBaseUser, categories: list[str]) -> None:
    AccountSettings.objects.update_or_create(user=user, defaults={"fields": list(dict.fromkeys(categories))})


def account_delete(*, user: AbstractBaseUser) -> None:
    """The account and everything it made: follows, saved searches, settings and feed token (cascades)."""
    user.delete()


def follow_create(*, user: AbstractBaseUser, researcher: Researcher) -> Follow:
    """Follows `researcher`; following someone already followed changes nothing."""
    follow, _ = Follow.objects.get_or_create(user=user, researcher=researcher)
    return follow


def follow_delete(*, user: AbstractBaseUser, researcher: Researcher) -> None:
    Follow.objects.filter(user=user, researcher=researcher).delete()


def follows_create(*, user: AbstractBaseUser, researcher_ids: list[int]) -> int:
    """Follows several researchers at once (onboarding); unknown ids are ignored. Returns how many exist."""
    researchers = list(Researcher.objects.filter(pk__in=researcher_ids).values_list("pk", flat=True))
    Follow.objects.bulk_create(
        [Follow(user=user, researcher_id=pk) for pk in researchers], ignore_conflicts=True
    )
    return len(researchers)


def saved_search_create(*, owner: AbstractBaseUser, name: str, query_string: str) -> SavedSearch:
    """Saves a search (its query string as `canonical_query_string` wrote it). Saving the same search
    again renames it instead of keeping two."""
    with transaction.atomic():
        existing = (
            SavedSearch.objects.select_for_update().filter(owner=owner, query_string=query_string).first()
        )
        if existing is not None:
            existing.name = name
            existing.save(update_fields=["name"])
            return existing
        if SavedSearch.objects.owned_by(owner).count() >= MAX_SAVED_SEARCHES:
            raise SavedSearchLimitReached(f"You can keep up to {MAX_SAVED_SEARCHES} saved searches.")
        return SavedSearch.objects.create(owner=owner, name=name, query_string=query_string)


def saved_search_delete(*, saved_search: SavedSearch) -> None:
    saved_search.delete()


def saved_search_alerts_set(*, saved_search: SavedSearch, enabled: bool) -> None:
    saved_search.email_alerts = enabled
    saved_search.save(update_fields=["email_alerts"])


def feed_token_rotate(*, user: AbstractBaseUser) -> str:
    """A new secret for the account's private feeds: the old feed URLs stop working at once."""
    token = new_feed_token()
    account_settings_for(user)
    AccountSettings.objects.filter(user=user).update(feed_token=token, updated_at=timezone.now())
    return token


def digest_settings_update(*, user: AbstractBaseUser, frequency: str, following: bool) -> None:
    """Opting in starts the digests from now: the first one brings what arrives after this moment."""
    account_settings = account_settings_for(user)
    opting_in = not account_settings.wants_digest and frequency != DigestFrequency.NEVER
    account_settings.digest_frequency = frequency
    account_settings.digest_following = following
    if opting_in:
        account_settings.last_digest_at = timezone.now()
    account_settings.save(
        update_fields=["digest_frequency", "digest_following", "last_digest_at", "updated_at"]
    )


def digest_unsubscribe(*, user_id: int) -> bool:
    """No more digests for the account (from the e-mail's link). False when the account is gone."""
    return bool(
        AccountSettings.objects.filter(user_id=user_id).update(
            digest_frequency=DigestFrequency.NEVER, updated_at=timezone.now()
        )
    )
