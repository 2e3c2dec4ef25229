"""The account's own pages: two-factor sign-in (accounts/two_factor.py), where the account is
signed in (accounts/sign_ins.py), whom it follows (accounts/follows.py) and blocks
(accounts/blocks.py). Each its own person's alone, never cached (a secret and the recovery
codes are shown on them)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import blocks, follows, sign_ins, two_factor
from accounts.forms import CodeForm, PasswordAgainForm
from accounts.models import PresenceChoice
from chat import services as chat_services

View = Callable[[HttpRequest], HttpResponse]

CODES = ("confirm", "codes", "off")  # the page's actions that take a code


def own_page(view: View) -> View:
    """A page of its signed-in person's alone, never cached."""
    return never_cache(require_http_methods(["GET", "HEAD", "POST"])(login_required(view)))


@own_page
def two_factor_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    action = request.POST.get("action") if request.method == "POST" else None
    data = request.POST if action else None
    password_form = PasswordAgainForm(user, data if action == "start" else None)
    # One form a button, each with its own field names (the page holds two or three).
    forms = {name: CodeForm(data if action == name else None, prefix=name) for name in CODES}
    code_form = forms.get(action or "", forms["confirm"])
    waiting = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    if action == "start" and password_form.is_valid():
        two_factor.pending_device(user)
        return redirect("two_factor")
    if action == "cancel":
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
        return redirect("two_factor")
    if action == "confirm" and waiting is not None and code_form.is_valid():
        codes = two_factor.confirm(waiting, code_form.cleaned_data["code"])
        if codes is None:
            code_form.add_error("code", _("That is not the code the app shows now: try again."))
        else:
            waiting.refresh_from_db()
            otp_login(request, waiting)
            sign_ins.sign_out_elsewhere(request)
            messages.success(
                request,
                _("Two-factor sign-in is on: you are signed out everywhere else."),
            )
            return _recovery_codes(request, codes)
    if action in ("codes", "off") and code_form.is_valid():
        device, why = two_factor.passes(user, code_form.cleaned_data["code"], app_only=True)
        if device is None:
            not_here = _("A recovery code will not do here.")
            code_form.add_error("code", f"{why} {not_here}")
        elif action == "codes":
            return _recovery_codes(request, two_factor.new_recovery_codes(user))
        else:
            two_factor.turn_off(user)
            request.session.pop(DEVICE_ID_SESSION_KEY, None)
            messages.success(request, _("Two-factor sign-in is off."))
            return redirect("two_factor")
    ctx: dict[str, object] = {
        "on": two_factor.is_on(user),
        "since": two_factor.since(user),
        "codes_left": two_factor.codes_left(user),
        "required": two_factor.required(user),
        "password_form": password_form,
        "forms": forms,
    }
    if waiting is not None and not ctx["on"]:
        ctx.update(
            waiting=True, qr=two_factor.qr_svg(waiting), secret=two_factor.secret_text(waiting)
        )
    status = 400 if action and (password_form.errors or code_form.errors) else 200
    return render(request, "accounts/two_factor.html", ctx, status=status)


def _recovery_codes(request: HttpRequest, codes: list[str]) -> HttpResponse:
    return render(request, "accounts/recovery_codes.html", {"codes": codes})


@own_page
def sign_ins_page(request: HttpRequest) -> HttpResponse:
    """Where the account is signed in, with "Sign out everywhere else"."""
    user = request.user
    assert isinstance(user, User)
    if request.method == "POST":
        ended = sign_ins.sign_out_elsewhere(request)
        messages.success(
            request,
            ngettext(
                "Signed out of %(count)s other place.",
                "Signed out of %(count)s other places.",
                ended,
            )
            % {"count": ended},
        )
        return redirect("sign_ins")
    here = request.session.session_key
    listed = sign_ins.listing(user)
    ctx = {"sign_ins": [(entry, entry.session_id == here) for entry in listed]}
    return render(request, "accounts/sign_ins.html", ctx)


def _turn(
    request: HttpRequest,
    username: str,
    undo: str,
    *,
    on: tuple[Callable[[User, User], object], str],
    off: tuple[Callable[[User, User], object], str],
) -> User:
    """The profile's two-way button (follow, block): ``off`` when the form's action is
    ``undo``, else ``on``, each with the words said once done; a refusal (a ValueError in
    words) is said instead. The person of the profile."""
    user = request.user
    assert isinstance(user, User)
    other = get_object_or_404(User, username=username)
    change, said = off if request.POST.get("action") == undo else on
    try:
        change(user, other)
    except ValueError as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, said % {"name": other.username})
    return other


@require_http_methods(["POST"])
@login_required
def follow_page(request: HttpRequest, username: str) -> HttpResponse:
    """Follow or unfollow the person of this profile (the button on it, or on a game's
    results), then back to the page of the button."""
    other = _turn(
        request,
        username,
        "unfollow",
        on=(follows.follow, _("You follow %(name)s.")),
        off=(follows.unfollow, _("You no longer follow %(name)s.")),
    )
    # Back to the page of the button: the profile, or a game's results (a path of this site).
    back = request.POST.get("next", "")
    if back.startswith("/") and url_has_allowed_host_and_scheme(back, allowed_hosts=None):
        return redirect(back)
    return redirect("profile", username=other.username)


@require_http_methods(["POST"])
@login_required
def block_page(request: HttpRequest, username: str) -> HttpResponse:
    """Block or unblock the person of this profile (the button on it), then back to it."""
    other = _turn(
        request,
        username,
        "unblock",
        on=(blocks.block, _("You block %(name)s.")),
        off=(blocks.unblock, _("You no longer block %(name)s.")),
    )
    assert isinstance(request.user, User)
    chat_services.tell_choices(request.user)  # their chat leaves (or is back) on open tables
    return redirect("profile", username=other.username)


@own_page
def following_page(request: HttpRequest) -> HttpResponse:
    """Whom the person follows, with who follows back and who is online, and their own choice
    of who may see when they are: their own to see."""
    user = request.user
    assert isinstance(user, User)
    if request.method == "POST":
        try:
            follows.choose_shown_to(user, request.POST.get("shown_to", ""))
        except follows.FollowRefused as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, _("Your choice is kept."))
        return redirect("following")
    ctx = {
        "rows": follows.following(user),
        "shown_to": follows.shown_to(user.pk),
        "choices": PresenceChoice.ShownTo.choices,
    }
    return render(request, "accounts/following.html", ctx)
