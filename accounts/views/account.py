"""The account page and what it changes: onboarding, digest settings, the feed token, deletion, and the
digest's unsubscribe link (which works signed out)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.forms import DeleteAccountForm, DigestSettingsForm, FieldsForm, FollowSuggestionsForm
from accounts.models import SavedSearch
from accounts.saved_searches import describe
from accounts.tokens import unsubscribe_user_id
from papers.models import Paper
from researchers.models import Researcher

FIELD_CHOICES_SHOWN = 40
FIELD_CHOICES_CACHE_SECONDS = 60 * 60
SUGGESTIONS_SHOWN = 12


@login_required
def account(request: HttpRequest) -> HttpResponse:
    account_settings = services.account_settings_for(request.user)
    saved = list(SavedSearch.objects.owned_by(request.user))
    context = {
        "account_settings": account_settings,
        "followed": list(Researcher.objects.followed_by(request.user).with_followers(request.user)),
        "saved_searches": [(saved_search, describe(saved_search)) for saved_search in saved],
        "digest_form": DigestSettingsForm(
            initial={
                "frequency": account_settings.digest_frequency,
                "following": account_settings.digest_following,
            }
        ),
    }
    return render(request, "accounts/account.html", context)


def field_choices() -> list[tuple[str, int]]:
    """The corpus's largest arXiv categories with their paper counts, counted in SQL once an hour (the
    count reads every paper's categories)."""
    return cache.get_or_set(
        "accounts.field_choices",
        lambda: [
            (row["category"], row["paper_count"])
            for row in Paper.objects.category_counts()[:FIELD_CHOICES_SHOWN]
        ],
        FIELD_CHOICES_CACHE_SECONDS,
    )


@login_required
@require_http_methods(["GET", "POST"])
def onboarding(request: HttpRequest) -> HttpResponse:
    """Step 1: the fields (arXiv categories) the reader works in. Skippable."""
    account_settings = services.account_settings_for(request.user)
    counts = dict(field_choices())
    categories = list(dict.fromkeys([*counts, *account_settings.fields]))
    form = FieldsForm(
        request.POST or None, categories=categories, initial={"categories": account_settings.fields}
    )
    if request.method == "POST" and form.is_valid():
        services.account_fields_choose(user=request.user, categories=form.cleaned_data["categories"])
        return redirect("accounts:onboarding-researchers")
    choices = [(category, counts.get(category)) for category in categories]
    context = {"form": form, "choices": choices, "chosen": set(account_settings.fields)}
    return render(request, "accounts/onboarding_fields.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def onboarding_researchers(request: HttpRequest) -> HttpResponse:
    """Step 2: follow the most cited researchers in those fields. Skippable."""
    fields = services.account_settings_for(request.user).fields
    suggestions = (
        list(Researcher.objects.most_cited_in(fields).with_followers(request.user)[:SUGGESTIONS_SHOWN])
        if fields
        else []
    )
    form = FollowSuggestionsForm(request.POST or None, researcher_ids=[r.pk for r in suggestions])
    if request.method == "POST" and form.is_valid():
        count = services.follows_create(user=request.user, researcher_ids=form.cleaned_data["researchers"])
        if count:
            messages.success(request, f"You now follow {count} researcher{'s' if count != 1 else ''}.")
        return redirect("accounts:following")
    context = {"form": form, "suggestions": suggestions, "fields": fields}
    return render(
        request, "accounts/onboarding_researchers.html", context, status=400 if form.errors else 200
    )


@login_required
@require_POST
def digest_settings(request: HttpRequest) -> HttpResponse:
    form = DigestSettingsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose never, daily or weekly for the e-mail digest.")
        return redirect(f"{reverse('accounts:account')}#alerts")
    services.digest_settings_update(
        user=request.user, frequency=form.cleaned_data["frequency"], following=form.cleaned_data["following"]
    )
    messages.success(request, "Your e-mail settings are saved.")
    return redirect(f"{reverse('accounts:account')}#alerts")


@login_required
@require_POST
def feed_token_rotate(request: HttpRequest) -> HttpResponse:
    services.feed_token_rotate(user=request.user)
    messages.success(request, "Your feeds have new addresses; the old ones no longer work.")
    return redirect(f"{reverse('accounts:account')}#feeds")


@login_required
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        services.account_delete(user=user)
        messages.success(request, "Your account and everything in it are deleted.")
        return redirect("pages:home")
    return render(request, "accounts/delete.html", {"form": form}, status=400 if form.errors else 200)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """From the digest's link, signed in or not: the signed token names the account. A GET asks; the
    button (a POST) unsubscribes, so a mail scanner following links changes nothing.

    A POST needs no session and no CSRF token: mail programs unsubscribe with one click by POSTing
    "List-Unsubscribe=One-Click" here themselves (RFC 8058, the digest's List-Unsubscribe-Post header).
    The signed token is the proof, and it only ever turns the digest off."""
    user_id = unsubscribe_user_id(token)
    if user_id is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    if request.method == "GET":
        return render(request, "accounts/unsubscribe.html", {})
    done = services.digest_unsubscribe(user_id=user_id)
    return render(request, "accounts/unsubscribe.html", {"done": done, "gone": not done})
