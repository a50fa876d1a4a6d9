"""Sign-up (confirmed by e-mail), sign-in, sign-out and password resets.

No answer tells a stranger whether an address has an account: sign-up answers "we sent you an e-mail"
for every address (and sends the owner of an existing account a note instead of a link), a failed
sign-in has one message, and a reset request answers the same whether or not a link went out.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.forms import SignInForm, SignUpForm
from accounts.ratelimits import over_limit, remember_device
from accounts.tokens import (
    peek_follow_intent,
    pop_follow_intent,
    remember_signed_up,
    sign_up_tokens,
    signed_up_here,
)
from core.links import next_path
from researchers.models import Researcher

EMAIL_SENT_TO_KEY = "accounts.email_sent_to"  # shown on the "check your e-mail" pages
AUTH_BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:account")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        if limited := over_limit(request, "sign-up"):
            return limited
        if form.is_valid():
            email = form.cleaned_data["email"]
            user = services.account_sign_up(email=email, password=form.cleaned_data["password"])
            if user is not None:
                remember_signed_up(request, user)
            request.session[EMAIL_SENT_TO_KEY] = email
            return redirect("accounts:sign-up-sent")
    return render(request, "accounts/sign_up.html", {"form": form}, status=400 if form.errors else 200)


def sign_up_sent(request: HttpRequest) -> HttpResponse:
    return render(
        request, "accounts/sign_up_sent.html", {"email": request.session.get(EMAIL_SENT_TO_KEY, "")}
    )


def _user_from_uid(uidb64: str) -> User | None:
    try:
        return User.objects.filter(pk=int(force_str(urlsafe_base64_decode(uidb64)))).first()
    except (ValueError, TypeError, OverflowError):
        return None


@require_http_methods(["GET", "POST"])
def confirm(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The link in the sign-up e-mail: a page with a button (mail scanners fetch links; a GET changes
    nothing). Confirming signs in and starts the onboarding.

    Whoever follows the link holds the mailbox, but not necessarily the password: anyone may have signed up
    with this address first (and kept the password, to take the account over once its owner confirms it).
    So only the browser whose sign-up set the account's current password confirms with a button; anyone
    else chooses the account's password as they confirm, replacing whatever was typed at sign-up."""
    user = _user_from_uid(uidb64)
    if user is None or not sign_up_tokens.check_token(user, token):
        return render(request, "accounts/confirm_invalid.html", status=400)
    data = request.POST if request.method == "POST" else None
    form = None if signed_up_here(request, user) else SetPasswordForm(user, data)
    if request.method == "GET" or (form is not None and not form.is_valid()):
        context = {"email": user.email, "form": form}
        return render(request, "accounts/confirm.html", context, status=400 if form and form.errors else 200)
    services.account_confirm(user=user, password=form.cleaned_data["new_password1"] if form else None)
    login(request, user, backend=AUTH_BACKEND)
    _carry_out_follow_intent(request)
    return remember_device(redirect("accounts:onboarding"), user)


@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest) -> HttpResponse:
    destination = next_path(request, reverse("accounts:following"))
    if request.user.is_authenticated and request.method == "GET":
        return redirect(destination)
    form = SignInForm(request, data=request.POST or None)
    if request.method == "POST":
        if limited := over_limit(request, "sign-in"):
            return limited
        if form.is_valid():
            login(request, form.user)
            _carry_out_follow_intent(request)
            return remember_device(redirect(destination), form.user)
    intent = peek_follow_intent(request)
    context = {
        "form": form,
        "next": destination,
        "follow_researcher": Researcher.objects.filter(pk=intent).first() if intent else None,
    }
    return render(request, "accounts/sign_in.html", context, status=400 if form.errors else 200)


def admin_sign_in(request: HttpRequest) -> HttpResponse:
    """The admin's own sign-in page (Django's), under the same limits as the site's sign-in: it had none."""
    if request.method == "POST" and (limited := over_limit(request, "sign-in")):
        return limited
    response = admin.site.login(request)
    if request.method == "POST" and request.user.is_authenticated:
        remember_device(response, request.user)
    return response


def _carry_out_follow_intent(request: HttpRequest) -> None:
    """The follow a signed-out reader asked for before signing in (see tokens.remember_follow_intent)."""
    researcher_id = pop_follow_intent(request)
    researcher = Researcher.objects.filter(pk=researcher_id).first() if researcher_id else None
    if researcher is not None:
        services.follow_create(user=request.user, researcher=researcher)
        messages.success(request, f"You now follow {researcher.display_name}.")


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.success(request, "You have signed out.")
    return redirect("pages:home")


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponse:
    form = PasswordResetForm(request.POST or None)
    if request.method == "POST":
        if limited := over_limit(request, "password-reset"):
            return limited
        if form.is_valid():
            # Sends only to an active account with this address; the answer is the same either way.
            form.save(
                domain_override=urlsplit(settings.SITE_URL).netloc,
                subject_template_name="accounts/email/password_reset_subject.txt",
                email_template_name="accounts/email/password_reset.txt",
                extra_email_context={"SITE_URL": settings.SITE_URL, "SITE_NAME": settings.SITE_NAME},
            )
            request.session[EMAIL_SENT_TO_KEY] = form.cleaned_data["email"].strip().lower()
            return redirect("accounts:password-reset-sent")
    return render(request, "accounts/password_reset.html", {"form": form}, status=400 if form.errors else 200)


def password_reset_sent(request: HttpRequest) -> HttpResponse:
    email = request.session.get(EMAIL_SENT_TO_KEY, "")
    return render(request, "accounts/password_reset_sent.html", {"email": email})


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """Django's own: it moves the token out of the address before the form is shown."""

    template_name = "accounts/password_reset_confirm.html"
    form_class = SetPasswordForm
    post_reset_login = True
    success_url = reverse_lazy("accounts:following")

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        messages.success(self.request, "Your password is changed and you are signed in.")
        return remember_device(super().form_valid(form), form.user)


password_reset_confirm = PasswordResetConfirm.as_view()
