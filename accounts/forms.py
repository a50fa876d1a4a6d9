from __future__ import annotations

from django import forms
from django.contrib.auth import authenticate, password_validation
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.http import HttpRequest

from accounts.models import DigestFrequency

EMAIL_MAX_LENGTH = 150  # Django's username column, which holds the address
# One answer for a wrong password, an unknown address and an unconfirmed account alike: which of them it
# was would tell a stranger whether the address has an account here.
SIGN_IN_FAILED = (
    "That e-mail address and password do not match an account we can sign in. If you have just signed up, "
    "follow the link in the e-mail we sent first."
)


def normalise_email(value: str) -> str:
    """How an address is stored and compared: the username is the address in lower case."""
    return value.strip().lower()[:254]


class EmailField(forms.EmailField):
    def __init__(self, **kwargs: object) -> None:
        attrs = {"autocomplete": "email", "autocapitalize": "none", "spellcheck": "false"}
        super().__init__(
            label="E-mail address",
            max_length=EMAIL_MAX_LENGTH,
            widget=forms.EmailInput(attrs=attrs),
            **kwargs,
        )

    def clean(self, value: object) -> str:
        return normalise_email(super().clean(value))


class SignUpForm(forms.Form):
    email = EmailField()
    password = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )

    def clean(self) -> dict:
        cleaned = super().clean()
        email, password = cleaned.get("email"), cleaned.get("password")
        if email and password:
            try:  # against the would-be account, so "too similar to the e-mail address" is checked too
                password_validation.validate_password(password, User(username=email, email=email))
            except forms.ValidationError as error:
                self.add_error("password", error)
        return cleaned


class SignInForm(forms.Form):
    email = EmailField()
    password = forms.CharField(
        label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )

    def __init__(self, request: HttpRequest, *args: object, **kwargs: object) -> None:
        self.request = request
        self.user: AbstractBaseUser | None = None
        super().__init__(*args, **kwargs)

    def clean(self) -> dict:
        cleaned = super().clean()
        email, password = cleaned.get("email"), cleaned.get("password")
        if email and password:
            # Django's ModelBackend refuses inactive (unconfirmed) accounts and spends the same time hashing
            # for an address without an account as for a wrong password.
            self.user = authenticate(self.request, username=email, password=password)
            if self.user is None:
                raise forms.ValidationError(SIGN_IN_FAILED, code="invalid_login")
        return cleaned


class FieldsForm(forms.Form):
    categories = forms.MultipleChoiceField(
        label="Your fields", required=False, widget=forms.CheckboxSelectMultiple, choices=()
    )

    def __init__(self, *args: object, categories: list[str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["categories"].choices = [(category, category) for category in categories]


class FollowSuggestionsForm(forms.Form):
    researchers = forms.TypedMultipleChoiceField(
        label="Researchers to follow",
        required=False,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        choices=(),
    )

    def __init__(self, *args: object, researcher_ids: list[int], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["researchers"].choices = [(pk, str(pk)) for pk in researcher_ids]


class SaveSearchForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)
    query = forms.CharField(widget=forms.HiddenInput, max_length=4000)


class DigestSettingsForm(forms.Form):
    frequency = forms.ChoiceField(
        label="E-mail digest", choices=DigestFrequency.choices, widget=forms.RadioSelect
    )
    following = forms.BooleanField(label="New papers by researchers I follow", required=False)


class SavedSearchAlertsForm(forms.Form):
    alerts = forms.BooleanField(required=False)


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: AbstractBaseUser, *args: object, **kwargs: object) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.", code="wrong_password")
        return password
