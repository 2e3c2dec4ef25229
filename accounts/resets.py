""" "Forgot your password?": Django's own reset views and token generator, with the site's
templates, the address an account confirmed (accounts/addresses.py) as the way in, and limits.

The answer is the same page whether or not an account has the address typed, so nobody learns
whose address it is. A reset link is asked for at most :data:`PER_ADDRESS` times an hour for
one address (the others are quietly not sent) and :data:`PER_CLIENT` times an hour from one
client's address (further ones are refused, with a page that says to wait). A link works once
and for ``PASSWORD_RESET_TIMEOUT``; Django's view takes its token out of the address at once,
into the session, so that it is not left in the browser's history or sent on as a referrer.
Setting the new password signs the account out everywhere, at once (accounts/sign_ins.py).
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import SetPasswordForm
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse_lazy

from accounts import mailing, sign_ins
from accounts.forms import ResetForm
from accounts.lockout import client_address
from accounts.mailing import SEND_RESET

PER_ADDRESS = 3
PER_CLIENT = 10
HOUR = 3600


def _count(key: str) -> int:
    """One more ask under ``key`` this hour; how many there have been."""
    cache = caches["limits"]
    if cache.add(key, 1, HOUR):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between the two calls
        cache.add(key, 1, HOUR)
        return 1


# Every page of the site takes GET, HEAD and POST alone (Django's form views take PUT as POST).
METHODS = ["get", "head", "post"]


class AskForReset(auth_views.PasswordResetView):
    http_method_names = METHODS
    form_class = ResetForm
    template_name = "accounts/reset_ask.html"
    email_template_name = "accounts/mail/reset.txt"
    subject_template_name = "accounts/mail/reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form: ResetForm) -> HttpResponse:
        request: HttpRequest = self.request
        if _count(f"reset:client:{client_address(request)}") > PER_CLIENT:
            return render(
                request, "accounts/reset_ask.html", {"form": form, "wait": True}, status=429
            )
        email = form.cleaned_data["email"]
        if _count(f"reset:address:{email.lower()}") <= PER_ADDRESS:
            # Whether the address is an account's is the worker's to find out (mailing.py).
            mailing.later(SEND_RESET, (email, request.get_host(), request.is_secure()), send_reset)
        return HttpResponseRedirect(self.get_success_url())


def send_reset(email: str, domain: str, use_https: bool) -> bool:
    """Mail the account with the confirmed address ``email`` (if there is one) its link: for
    the worker, whatever the page was asked, and for staff's action in the admin. False for an
    address that is not one."""
    form = ResetForm({"email": email})
    if not form.is_valid():
        return False
    form.save(
        domain_override=domain,
        use_https=use_https,
        email_template_name=AskForReset.email_template_name,
        subject_template_name=AskForReset.subject_template_name,
    )
    return True


class ResetAsked(auth_views.PasswordResetDoneView):
    http_method_names = ["get", "head"]
    template_name = "accounts/reset_asked.html"


class SetNewPassword(auth_views.PasswordResetConfirmView):
    http_method_names = METHODS
    template_name = "accounts/reset_set.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        sign_ins.sign_out_everywhere(form.user)  # now, and their live pages with them
        return response


class PasswordSet(auth_views.PasswordResetCompleteView):
    http_method_names = ["get", "head"]
    template_name = "accounts/reset_done.html"
