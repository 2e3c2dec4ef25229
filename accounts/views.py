from __future__ import annotations

import math
import time
from datetime import timedelta
from typing import Any

from axes.helpers import get_failure_limit
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME, login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.i18n import set_language
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import addresses, blocks, follows, sign_ins, two_factor
from accounts.forms import AddressForm, CodeForm, LoginForm, RegisterForm
from accounts.languages import remember, supported
from accounts.lockout import wait_left
from games.review_pages import rated_average
from ratings.maths import PROVISIONAL_GAMES
from ratings.selectors import history_chart, rating_of
from ratings.stats import player_stats


class SignIn(LoginView):
    """The password first; an account with two-factor on is then asked for its code
    (:func:`sign_in_code`) before it is signed in. Until then the session holds only whose
    password was right, for :data:`two_factor.CODE_WAIT`."""

    http_method_names = ["get", "head", "post"]

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        user = form.get_user()
        if not two_factor.is_on(user):
            return super().form_valid(form)
        self.request.session[PENDING] = {
            "user": user.pk,
            "backend": getattr(user, "backend", None),
            "at": time.time(),
            "next": self.get_redirect_url(),
        }
        return redirect("login_code")


PENDING = "two_factor_pending"  # the session's half-made sign-in: whose password was right

# Signed in, LoginView redirects whatever the method.
sign_in = SignIn.as_view(form_class=LoginForm, redirect_authenticated_user=True)
sign_out = require_POST(LogoutView.as_view())


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin's sign-in: staff only, names without regard to case as on the site's page."""


@require_http_methods(["GET", "HEAD", "POST"])
def admin_sign_in(request: HttpRequest) -> HttpResponse:
    """The admin's sign-in page, as Django's (its words, its "signed in as" notice), with the
    site's two steps: staff with two-factor on are asked for the code too."""
    if request.method == "GET" and request.user.is_active and request.user.is_staff:
        return redirect("admin:index")
    context = {
        **admin.site.each_context(request),
        "title": _("Sign in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }
    if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
        context[REDIRECT_FIELD_NAME] = reverse("admin:index")
    request.current_app = admin.site.name
    view = SignIn.as_view(
        extra_context=context, authentication_form=AdminLoginForm, template_name="admin/login.html"
    )
    return view(request)  # type: ignore[return-value]


def _pending(request: HttpRequest) -> tuple[User, dict[str, Any]] | None:
    pending = request.session.get(PENDING)
    if not isinstance(pending, dict):
        return None
    fresh = time.time() - float(pending.get("at", 0)) < two_factor.CODE_WAIT.total_seconds()
    user_id = pending.get("user")
    user = User.objects.filter(pk=user_id, is_active=True).first() if fresh and user_id else None
    if user is None:
        request.session.pop(PENDING, None)
        return None
    return user, pending


@require_http_methods(["GET", "HEAD", "POST"])
def sign_in_code(request: HttpRequest) -> HttpResponse:
    """The second step of signing in: the app's code, or a recovery code."""
    found = _pending(request)
    if found is None:
        messages.info(request, _("Sign in again: the code was not given within five minutes."))
        return redirect("login")
    user, pending = found
    form = CodeForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        device, why = two_factor.passes(user, form.cleaned_data["code"])
        if device is not None:
            del request.session[PENDING]
            login(request, user, backend=pending["backend"])
            otp_login(request, device)
            if not isinstance(device, TOTPDevice):
                left = two_factor.codes_left(user)
                messages.warning(
                    request,
                    ngettext(
                        "You signed in with a recovery code: %(count)s is left.",
                        "You signed in with a recovery code: %(count)s are left.",
                        left,
                    )
                    % {"count": left},
                )
            return HttpResponseRedirect(pending.get("next") or resolve_url("lobby"))
        form.add_error("code", why)
    return render(request, "accounts/sign_in_code.html", {"form": form})


def _next_url(request: HttpRequest) -> str:
    """Where to go after signing up: a safe ``next`` (an invitation link, say) or the lobby."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return resolve_url("lobby")


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = RegisterForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.username})
        if email := form.cleaned_data.get("email"):
            _ask_to_confirm(request, user, email)
        return HttpResponseRedirect(_next_url(request))
    ctx = {"form": form, "next": request.GET.get("next", "")}
    return render(request, "accounts/register.html", ctx)


@require_http_methods(["GET", "POST"])
@login_required
def password_change(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    form = PasswordChangeForm(request.user, request.POST if request.method == "POST" else None)
    if form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)  # stay signed in on this device
        sign_ins.sign_out_elsewhere(request)  # and nowhere else
        messages.success(
            request, _("Your password has been changed: you are signed out everywhere else.")
        )
        return redirect("profile", username=user.username)
    return render(request, "accounts/password_change.html", {"form": form})


def _ask_to_confirm(request: HttpRequest, user: User, email: str) -> None:
    """Mail ``email`` its link, and say so."""
    addresses.ask_to_confirm(request, user, email)
    messages.info(
        request,
        _("We sent a link to %(email)s: follow it within %(days)s days to confirm the address.")
        % {"email": email, "days": addresses.CONFIRM_DAYS},
    )


@require_http_methods(["GET", "POST"])
@login_required
def address(request: HttpRequest) -> HttpResponse:
    """The account's address: shown to its owner alone, and changed by confirming a new one."""
    assert isinstance(request.user, User)
    form = AddressForm(request.user, request.POST if request.method == "POST" else None)
    if form.is_valid():
        _ask_to_confirm(request, request.user, form.cleaned_data["email"])
        return redirect("address")
    current = addresses.address_of(request.user)
    return render(request, "accounts/address.html", {"form": form, "current": current})


@require_http_methods(["GET", "POST"])
def confirm_address(request: HttpRequest, signed: str) -> HttpResponse:
    """A link from a mail: a page with one button (a mail reader that opens links confirms
    nothing), which keeps the address."""
    if request.method == "POST":
        try:
            user, email = addresses.confirm(signed)
        except addresses.NotConfirmed:
            return render(request, "accounts/confirm_address.html", {"dead": True}, status=410)
        except ValueError:
            return render(request, "accounts/confirm_address.html", {"taken": True}, status=409)
        messages.success(request, _("%(email)s is confirmed.") % {"email": email})
        if request.user == user:
            return redirect("address")
        return redirect("login")
    return render(request, "accounts/confirm_address.html", {"signed": signed})


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(User, username=username)
    own = request.user.is_authenticated and request.user.pk == person.pk
    stats = player_stats(person, with_private=own)  # private games: on one's own profile only
    ctx = {
        "person": person,
        "rating": rating_of(person),
        "provisional_games": PROVISIONAL_GAMES,
        "chart": history_chart(person, with_private=own),
        "stats": stats,
        "games": stats.recent,
        "reviewed": rated_average(person),
        "following": request.user.is_authenticated
        and not own
        and follows.follows(request.user, person),  # type: ignore[arg-type]
        "blocking": request.user.is_authenticated
        and not own
        and blocks.blocks(request.user, person),  # type: ignore[arg-type]
    }
    return render(request, "accounts/profile.html", ctx)


def _wait_text(wait: timedelta) -> str:
    """A wait as people say it, rounded up: "a minute", "4 minutes", "an hour", "2 hours".

    >>> _wait_text(timedelta(seconds=61)), _wait_text(timedelta(minutes=60))
    ('2 minutes', 'an hour')
    """
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    if minutes % 60 == 0:
        hours = minutes // 60
        if hours == 1:
            return _("an hour")
        return ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}
    if minutes == 1:
        return _("a minute")
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, str] | None = None,
) -> HttpResponse:
    """Django-axes answers with this (``AXES_LOCKOUT_CALLABLE``) once sign-in is locked."""
    ctx = {
        "failure_limit": get_failure_limit(request, credentials),
        "wait": _wait_text(wait_left(request)),
    }
    return render(request, "accounts/locked_out.html", ctx, status=429)


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The footer's language menu: Django's own switch (the cookie, back to the page it was
    on), and a signed-in person's choice kept in their account too. Only a language the site
    offers is kept: Django's switch would keep any Django itself speaks (Italian, say)."""
    response = set_language(request)
    code = supported(request.POST.get("language"))
    if code:
        remember(request, code)
    else:
        response.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)
    return response
