from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm, PasswordResetForm
from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.addresses import in_use
from accounts.mailing import deliver_from
from accounts.models import Address, holder_of_a_lookalike, is_reserved
from accounts.validators import MAX_LENGTH, MIN_LENGTH, validate_username


class AddressField(forms.EmailField):
    """An e-mail address: at most 254 characters (what mail carries), kept as typed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=254, **kwargs)
        self.widget.attrs.update(autocomplete="email", maxlength=254)


class RegisterForm(BaseUserCreationForm):
    email = AddressField(
        label=gettext_lazy("E-mail address (optional)"),
        required=False,
        help_text=gettext_lazy(
            "Only you see it. It is how you get the account back if you forget the password: "
            "we send it a link to confirm it first."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.help_text = _(
            "%(least)s to %(most)s characters: letters, digits, underscores and hyphens."
        ) % {"least": MIN_LENGTH, "most": MAX_LENGTH}
        username.widget.attrs.update(
            minlength=MIN_LENGTH, maxlength=MAX_LENGTH, autocomplete="username"
        )

    def clean_username(self) -> str:
        name: str = self.cleaned_data["username"]
        validate_username(name)
        if User.objects.filter(username__iexact=name).exists():
            raise forms.ValidationError(_("That name is already taken."), code="taken")
        if is_reserved(name):
            raise forms.ValidationError(
                _("“%(name)s” is not available. Please choose another name.") % {"name": name},
                code="reserved",
            )
        if holder := holder_of_a_lookalike(name):
            raise forms.ValidationError(
                _(
                    "“%(name)s” could be taken for “%(holder)s”, who already plays here. "
                    "Please choose a name that looks different."
                )
                % {"name": name, "holder": holder.username},
                code="lookalike",
            )
        return name

    def clean_email(self) -> str:
        return _not_in_use(self.cleaned_data.get("email", ""))


class LoginForm(AuthenticationForm):
    def clean_username(self) -> str:
        # Names are unique without regard to case, so "alice" signs in as "Alice".
        name: str = self.cleaned_data["username"]
        stored = User.objects.filter(username__iexact=name).values_list("username", flat=True)
        return stored.first() or name


def _not_in_use(email: str, user: User | None = None) -> str:
    if email and in_use(email, but_for=user):
        raise forms.ValidationError(
            _("That address belongs to another account."), code="address_in_use"
        )
    return email


class AddressForm(forms.Form):
    """The account's page: an address to confirm (a new one, or the first)."""

    email = AddressField(label=gettext_lazy("E-mail address"))

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self) -> str:
        return _not_in_use(self.cleaned_data["email"], self.user)


class ResetForm(PasswordResetForm):
    """ "Forgot your password?": the accounts with this confirmed address (one at most), and
    the same answer whether there is one or not."""

    email = AddressField(label=gettext_lazy("E-mail address"))

    def get_users(self, email: str) -> Iterator[User]:
        found = Address.objects.filter(email__iexact=email, user__is_active=True)
        for address in found.select_related("user"):
            if address.user.has_usable_password():
                yield address.user

    def send_mail(  # type: ignore[override]
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        # By the worker (accounts/tasks.py), to the address as it was confirmed.
        address = context["user"].address.email
        deliver_from(subject_template_name, email_template_name, context, address)


class CodeForm(forms.Form):
    """A code from the authenticator app, or a recovery code."""

    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=40,
        help_text=gettext_lazy(
            "The six digits your authenticator app shows now, or one of your recovery codes."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["code"].widget.attrs.update(
            autocomplete="one-time-code", autocapitalize="none", spellcheck="false"
        )


class PasswordAgainForm(forms.Form):
    """The account's password, asked again before two-factor is turned on: a browser left
    signed in is not enough to lock the account's owner out of it."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password
