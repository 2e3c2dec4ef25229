from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from accounts.models import holder_of_a_lookalike, is_reserved
from accounts.validators import MAX_LENGTH, MIN_LENGTH, validate_username


class RegisterForm(BaseUserCreationForm):
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


class LoginForm(AuthenticationForm):
    def clean_username(self) -> str:
        # Names are unique without regard to case, so "alice" signs in as "Alice".
        name: str = self.cleaned_data["username"]
        stored = User.objects.filter(username__iexact=name).values_list("username", flat=True)
        return stored.first() or name
