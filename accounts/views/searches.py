"""Saving a search from its results, and managing saved searches from the account page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.forms import SavedSearchAlertsForm, SaveSearchForm
from accounts.models import SavedSearch
from accounts.saved_searches import InvalidSearch, canonical_query_string, describe

NAME_FROM_QUERY_LENGTH = 80


def _account_saved_searches() -> str:
    return f"{reverse('accounts:account')}#saved-searches"


@login_required
@require_http_methods(["GET", "POST"])
def saved_search_new(request: HttpRequest) -> HttpResponse:
    """GET with a search's parameters (the results page links here): name it. POST: save it."""
    form = SaveSearchForm(request.POST or None)
    source = QueryDict(form.data.get("query", "")) if request.method == "POST" else request.GET
    try:
        query_string = canonical_query_string(source)
    except InvalidSearch as error:
        return render(request, "accounts/save_search.html", {"error": str(error)}, status=400)
    if request.method == "POST" and form.is_valid():
        try:
            services.saved_search_create(
                owner=request.user, name=form.cleaned_data["name"], query_string=query_string
            )
        except services.SavedSearchLimitReached as error:
            return render(request, "accounts/save_search.html", {"error": str(error)}, status=400)
        messages.success(request, f"Saved “{form.cleaned_data['name']}”.")
        return redirect(_account_saved_searches())
    probe = SavedSearch(query_string=query_string)
    if request.method == "GET":
        words = QueryDict(query_string).get("q", "")
        form = SaveSearchForm(
            initial={"name": (words or describe(probe))[:NAME_FROM_QUERY_LENGTH], "query": query_string}
        )
    context = {"form": form, "description": describe(probe), "query_string": query_string}
    return render(request, "accounts/save_search.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def saved_search_delete(request: HttpRequest, saved_search_id: int) -> HttpResponse:
    saved_search = get_object_or_404(SavedSearch.objects.owned_by(request.user), pk=saved_search_id)
    services.saved_search_delete(saved_search=saved_search)
    messages.success(request, f"Deleted the saved search “{saved_search.name}”.")
    return redirect(_account_saved_searches())


@login_required
@require_POST
def saved_search_alerts(request: HttpRequest, saved_search_id: int) -> HttpResponse:
    saved_search = get_object_or_404(SavedSearch.objects.owned_by(request.user), pk=saved_search_id)
    form = SavedSearchAlertsForm(request.POST)
    form.is_valid()  # a missing or unreadable box is "off", as an unticked checkbox sends nothing
    services.saved_search_alerts_set(
        saved_search=saved_search, enabled=form.cleaned_data.get("alerts", False)
    )
    return redirect(_account_saved_searches())
