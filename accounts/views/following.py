"""Following researchers: the Follow control on profiles (a plain POST form, swapped in place by htmx) and
/following, the new papers of everyone followed."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from accounts import services
from accounts.tokens import remember_follow_intent
from core.links import next_path
from core.pagination import paginate
from core.responses import wants_fragment
from papers.models import Paper
from researchers.models import Researcher

PAPERS_PER_PAGE = 24


@require_POST
def follow(request: HttpRequest, researcher_id: int) -> HttpResponse:
    researcher = get_object_or_404(Researcher, pk=researcher_id)
    if not request.user.is_authenticated:
        return _sign_in_first(request, researcher)
    services.follow_create(user=request.user, researcher=researcher)
    return _follow_control(request, researcher)


@require_POST
def unfollow(request: HttpRequest, researcher_id: int) -> HttpResponse:
    researcher = get_object_or_404(Researcher, pk=researcher_id)
    if not request.user.is_authenticated:
        return _sign_in_first(request, researcher, follow=False)
    services.follow_delete(user=request.user, researcher=researcher)
    return _follow_control(request, researcher)


def _sign_in_first(request: HttpRequest, researcher: Researcher, *, follow: bool = True) -> HttpResponse:
    """Signed out: to sign-in, then back to the profile, with the follow done (see tokens)."""
    if follow:
        remember_follow_intent(request, researcher.pk)
    sign_in = f"{reverse('accounts:sign-in')}?{urlencode({'next': researcher.get_absolute_url()})}"
    if request.htmx:
        return HttpResponse(headers={"HX-Redirect": sign_in})
    return redirect(sign_in)


def _follow_control(request: HttpRequest, researcher: Researcher) -> HttpResponse:
    """htmx gets the control again, in its new state; a plain form goes back to the page it was on."""
    back = next_path(request, researcher.get_absolute_url())
    if not request.htmx:
        return redirect(back)
    researcher = Researcher.objects.with_followers(request.user).get(pk=researcher.pk)
    return TemplateResponse(request, "accounts/_follow.html", {"researcher": researcher, "return_to": back})


@login_required
@require_GET
@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def following(request: HttpRequest) -> HttpResponse:
    papers = paginate(
        request,
        Paper.objects.by_researchers(Researcher.objects.followed_by(request.user))
        .newest_first()
        .for_lists()
        .with_authors(),
        PAPERS_PER_PAGE,
    )
    context = {"papers": papers}
    if wants_fragment(request):
        return TemplateResponse(request, "accounts/following.html#paper-list", context)
    context["followed"] = list(Researcher.objects.followed_by(request.user).with_followers(request.user))
    return TemplateResponse(request, "accounts/following.html", context)
