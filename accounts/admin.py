"""People in the admin: Django's user admin, with what staff see and do about a person.

Besides the usual search and filters, the list says who is suspended or banned and who is
marked, and its actions suspend, ban, lift, rename, mark and unmark the people chosen, and close
their accounts. Each
action asks first, on a page of its own, for the reason (kept in the audit log) and what else
it needs, then calls ``moderation.sanctions``. Every staff member may read the list; each
action is offered only to those who hold its permission (``moderation.permissions``), and the
service refuses anyone else, and anyone but a superuser acting on staff.

Nobody deletes a person here, superusers included: their games, ratings, reports and the audit
log point at them. Closing an account deactivates it instead and keeps all of that.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, QuerySet
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import resets
from accounts.models import (
    Address,
    Block,
    Challenge,
    Follow,
    LookalikeKey,
    PresenceChoice,
    RecoveryCode,
    RecoveryCodes,
    ReservedName,
    SignIn,
    SpokenLanguage,
    is_wholly_reserved,
)
from games.admin import ModelAdmin, ReadOnlyAdmin
from hearts_site.admin_actions import CheckedSelection
from moderation import sanctions
from moderation.forms import (
    ChatBanForm,
    MarkForm,
    ReasonForm,
    RenameForm,
    SanctionForm,
    SuspendForm,
)
from moderation.models import ChatBan, Mark, Sanction
from moderation.permissions import may

Act = Callable[[User, User, dict[str, Any]], object]  # (staff, person, the form's data)


class SanctionedFilter(admin.SimpleListFilter):
    title = gettext_lazy("suspended or banned")
    parameter_name = "sanctioned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(sanctioned=self.value() == "yes")
        return queryset


class MarkedFilter(admin.SimpleListFilter):
    title = gettext_lazy("marked")
    parameter_name = "marked"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(marked=self.value() == "yes")
        return queryset


def _ask_then_act(
    request: HttpRequest,
    queryset: QuerySet[User],
    *,
    title: str,
    form_class: type[Form],
    act: Act,
) -> HttpResponse | None:
    """The page that asks for the reason (and the rest of ``form_class``), or, once it is
    filled in, the action taken on each person chosen: back to the list, which says what was
    done and what was refused and why."""
    staff = request.user
    assert isinstance(staff, User)
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        done, refused = [], []
        for person in queryset:
            try:
                act(staff, person, form.cleaned_data)
            except sanctions.ModerationError as error:
                refused.append(
                    _("%(name)s: %(refusal)s") % {"name": person.username, "refusal": error}
                )
            else:
                done.append(person.username)
        if done:
            messages.success(
                request, _("%(action)s: %(people)s") % {"action": title, "people": ", ".join(done)}
            )
        for line in refused:
            messages.error(request, line)
        return None
    ctx = {
        **admin.site.each_context(request),
        "title": title,
        "form": form,
        "people": queryset,
        "action": request.POST.get("action", ""),
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "opts": User._meta,
    }
    return TemplateResponse(request, "admin/moderation/action_form.html", ctx)


# The fields of a person that give powers on the site: only a superuser changes them.
POWERS = ("is_staff", "is_superuser", "groups", "user_permissions", "username")

admin.site.unregister(User)


@admin.register(User)
class PersonAdmin(CheckedSelection, UserAdmin):
    list_display = [
        "username",
        "has_address",
        "has_two_factor",
        "date_joined",
        "last_login",
        "is_active",
        "is_staff",
        "sanctioned",
        "marked",
        "chat_banned",
    ]
    list_filter = ["is_staff", "is_active", SanctionedFilter, MarkedFilter, "is_superuser"]
    search_fields = ["username"]
    ordering = ["username"]
    actions = [
        "suspend",
        "ban",
        "lift",
        "rename",
        "mark",
        "unmark",
        "close",
        "chat_ban",
        "chat_lift",
        "send_reset",
        "two_factor_off",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        in_force = Sanction.objects.in_force().filter(user=OuterRef("pk"))
        standing = Mark.objects.filter(user=OuterRef("pk"), lifted_at__isnull=True)
        chat_banned = ChatBan.objects.in_force().filter(user=OuterRef("pk"))
        people = super().get_queryset(request)
        return people.annotate(
            sanctioned=Exists(in_force),
            marked=Exists(standing),
            chat_banned=Exists(chat_banned),
            has_address=Exists(Address.objects.filter(user=OuterRef("pk"))),
            has_two_factor=Exists(TOTPDevice.objects.filter(user=OuterRef("pk"), confirmed=True)),
        )

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # not even "delete selected": close the account instead

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Who is staff and what staff may do is a superuser's to change: staff allowed to edit
        people's details cannot make themselves (or anyone) staff, a superuser or a moderator."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and not request.user.is_superuser:
            fields += [field for field in POWERS if field not in fields]
        return fields

    # Which actions the admin offers (``permissions=[...]`` below); a POST naming another is
    # refused as an unknown action.
    def has_suspend_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "suspend")

    def has_ban_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "ban")

    def has_lift_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "lift")

    def has_rename_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "rename")

    def has_mark_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "mark")

    def has_unmark_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "unmark")

    def has_close_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "close")

    def has_chat_ban_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "chat_ban")

    def has_chat_lift_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "chat_lift")

    def has_two_factor_off_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser and may(request.user, "close")

    @admin.display(
        boolean=True, description=gettext_lazy("suspended or banned"), ordering="sanctioned"
    )
    def sanctioned(self, person: Any) -> bool:
        return bool(person.sanctioned)

    @admin.display(
        boolean=True, description=gettext_lazy("confirmed address"), ordering="has_address"
    )
    def has_address(self, person: Any) -> bool:
        # Whether there is one, not the address: that is its owner's alone (docs/privacy.md).
        return bool(person.has_address)

    @admin.display(boolean=True, description=gettext_lazy("two-factor"), ordering="has_two_factor")
    def has_two_factor(self, person: Any) -> bool:
        return bool(person.has_two_factor)

    @admin.action(
        description=gettext_lazy("Send the chosen people a link to set a new password"),
        permissions=["change"],
    )
    def send_reset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        sent = 0
        for address in Address.objects.filter(user__in=queryset, user__is_active=True):
            if resets.send_reset(address.email, request.get_host(), request.is_secure()):
                sent += 1
        left = queryset.count() - sent
        self.message_user(
            request,
            _("A link to set a new password went to %(sent)s; %(left)s have no confirmed address.")
            % {"sent": sent, "left": left},
            messages.SUCCESS if sent else messages.WARNING,
        )

    @admin.display(boolean=True, description=gettext_lazy("marked"), ordering="marked")
    def marked(self, person: Any) -> bool:
        return bool(person.marked)

    @admin.display(
        boolean=True, description=gettext_lazy("banned from chat"), ordering="chat_banned"
    )
    def chat_banned(self, person: Any) -> bool:
        return bool(person.chat_banned)

    @admin.action(
        description=gettext_lazy("Ban the chosen people from chat"), permissions=["chat_ban"]
    )
    def chat_ban(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=_("Ban from chat"),
            form_class=ChatBanForm,
            act=lambda staff, person, data: sanctions.chat_ban(
                staff, person, reason=data["reason"], note=data["note"], until=data["until"]
            ),
        )

    @admin.action(
        description=gettext_lazy("Lift the chosen people's chat bans"), permissions=["chat_lift"]
    )
    def chat_lift(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=_("Lift chat bans"),
            form_class=ReasonForm,
            act=lambda staff, person, data: sanctions.lift_chat_ban(
                staff, person, reason=data["reason"]
            ),
        )

    @admin.action(
        description=gettext_lazy("Suspend the chosen people until a date"), permissions=["suspend"]
    )
    def suspend(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=_("Suspend"),
            form_class=SuspendForm,
            act=lambda staff, person, data: sanctions.suspend(
                staff, person, until=data["until"], reason=data["reason"], note=data["note"]
            ),
        )

    @admin.action(description=gettext_lazy("Ban the chosen people"), permissions=["ban"])
    def ban(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=pgettext("a staff action on people", "Ban"),
            form_class=SanctionForm,
            act=lambda staff, person, data: sanctions.ban(
                staff, person, reason=data["reason"], note=data["note"]
            ),
        )

    @admin.action(
        description=gettext_lazy("Lift the chosen people's suspensions and bans"),
        permissions=["lift"],
    )
    def lift(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=_("Lift suspensions and bans"),
            form_class=ReasonForm,
            act=lambda staff, person, data: sanctions.lift(staff, person, reason=data["reason"]),
        )

    @admin.action(description=gettext_lazy("Rename the chosen person"), permissions=["rename"])
    def rename(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        if queryset.count() != 1:
            messages.error(request, _("Choose one person to rename at a time."))
            return None
        return _ask_then_act(
            request,
            queryset,
            title=_("Rename"),
            form_class=RenameForm,
            act=lambda staff, person, data: sanctions.rename(
                staff, person, data["new_name"], reason=data["reason"]
            ),
        )

    @admin.action(
        description=gettext_lazy("Mark the chosen people (their games unrated)"),
        permissions=["mark"],
    )
    def mark(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=pgettext("a staff action on people", "Mark"),
            form_class=MarkForm,
            act=lambda staff, person, data: sanctions.mark(staff, person, reason=data["reason"]),
        )

    @admin.action(
        description=gettext_lazy("Lift the chosen people's marks"), permissions=["unmark"]
    )
    def unmark(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=_("Lift marks"),
            form_class=ReasonForm,
            act=lambda staff, person, data: sanctions.unmark(staff, person, reason=data["reason"]),
        )

    @admin.action(
        description=gettext_lazy(
            "Turn off the chosen people's two-factor sign-in (they lost the app and the codes)"
        ),
        permissions=["two_factor_off"],
    )
    def two_factor_off(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=_("Turn off two-factor sign-in"),
            form_class=ReasonForm,
            act=lambda staff, person, data: sanctions.turn_off_two_factor(
                staff, person, reason=data["reason"]
            ),
        )

    @admin.action(
        description=gettext_lazy("Close the chosen accounts (they are kept, with their games)"),
        permissions=["close"],
    )
    def close(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return _ask_then_act(
            request,
            queryset,
            title=_("Close accounts"),
            form_class=ReasonForm,
            act=lambda staff, person, data: sanctions.close_account(
                staff, person, reason=data["reason"]
            ),
        )


# Names and languages -------------------------------------------------------------------------


class ReservedNameForm(forms.ModelForm):
    """A name to keep out of use by hand: its look-alikes go with it (``lookalike_keys``)."""

    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=gettext_lazy("Kept in the audit log, for staff."),
    )

    class Meta:
        model = ReservedName
        fields = ("name", "user")
        help_texts = {
            "name": gettext_lazy("Nobody may register it, nor a name that could be taken for it."),
            "user": gettext_lazy("The one person who may still take it."),
        }

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        if is_wholly_reserved(name):
            raise forms.ValidationError(sanctions.already_kept(name))
        return name


@admin.register(ReservedName)
class ReservedNameAdmin(CheckedSelection, ModelAdmin):
    """Names kept out of use: by a rename (the old name), or by hand here. Each is kept by all
    its keys, one row a key, so a row is never changed nor deleted alone: staff who may rename
    people add a name and let one go (every key of it), each written in the audit log."""

    form = ReservedNameForm
    list_display = ["name", "key", "user", "at"]
    list_select_related = ["user"]
    search_fields = ["name", "key", "user__username"]
    raw_id_fields = ["user"]
    ordering = ["name", "key"]
    actions = ["release"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return super().has_module_permission(request) or may(request.user, "rename")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or may(request.user, "rename")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "rename")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a name goes with all its keys: "Let the chosen names be taken again"

    def has_release_permission(self, request: HttpRequest) -> bool:
        return may(request.user, "rename")

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        staff = request.user
        assert isinstance(staff, User)
        kept = sanctions.keep_name_out_of_use(
            staff, obj.name, kept_for=obj.user, reason=form.cleaned_data["reason"]
        )
        obj.pk, obj.key, obj.at = kept.pk, kept.key, kept.at

    @admin.action(
        description=gettext_lazy("Let the chosen names be taken again"), permissions=["release"]
    )
    def release(self, request: HttpRequest, queryset: QuerySet[ReservedName]) -> None:
        staff = request.user
        assert isinstance(staff, User)
        names = []
        for reserved in queryset.select_related("user"):
            if reserved.name not in names:
                sanctions.release_name(staff, reserved)
                names.append(reserved.name)
        messages.success(
            request, _("Free to be taken again: %(names)s") % {"names": ", ".join(names)}
        )


@admin.register(LookalikeKey)
class LookalikeKeyAdmin(ReadOnlyAdmin):
    """The keys of each person's name, kept as names are chosen and changed: read-only."""

    list_display = ["user", "key"]
    list_select_related = ["user"]
    search_fields = ["user__username", "key"]


@admin.register(SpokenLanguage)
class SpokenLanguageAdmin(ReadOnlyAdmin):
    """The language each person chose: theirs to change, in the footer."""

    list_display = ["user", "code"]
    list_filter = ["code"]
    list_select_related = ["user"]
    search_fields = ["user__username"]


@admin.register(Address)
class AddressAdmin(ReadOnlyAdmin):
    """People's confirmed addresses: seen only by staff given "Can view e-mail address" (no
    group has it), since an address is its owner's alone (docs/privacy.md). The user list says
    to every member of staff whether an account has one."""

    list_display = ["user", "email", "confirmed_at"]
    list_select_related = ["user"]
    search_fields = ["user__username"]


# django-otp's own page of authenticators shows each one's secret and its QR code: here, who
# has one and since when, never the secret.
admin.site.unregister(TOTPDevice)


class TwoFactorAdmin(ReadOnlyAdmin):
    """Whose two-factor sign-in is on, read-only: a superuser turns it off for a person who
    lost both the app and the recovery codes with the people list's action, which asks why
    and keeps it in the audit log."""

    list_select_related = ["user"]
    search_fields = ["user__username"]


@admin.register(TOTPDevice)
class AuthenticatorAdmin(TwoFactorAdmin):
    list_display = ["user", "confirmed", "created_at", "last_used_at"]
    fields = ["user", "confirmed", "created_at", "last_used_at"]


@admin.register(RecoveryCodes)
class RecoveryCodesAdmin(TwoFactorAdmin):
    list_display = ["user", "left"]
    fields = ["user", "left"]
    readonly_fields = ["user", "left"]

    @admin.display(description=gettext_lazy("codes left"))
    def left(self, device: RecoveryCodes) -> int:
        return device.left()


@admin.register(RecoveryCode)
class RecoveryCodeAdmin(ReadOnlyAdmin):
    """Whether each recovery code was used: only its hash is kept, and not shown."""

    list_display = ["device", "used_at"]
    fields = ["device", "used_at"]
    list_select_related = ["device__user"]
    search_fields = ["device__user__username"]


@admin.register(SignIn)
class SignInAdmin(ReadOnlyAdmin):
    """Where each account is signed in: seen only by staff given "Can view sign-in" (no group
    has it), as the account's page shows it to its owner (docs/privacy.md)."""

    list_display = ["user", "browser", "network", "signed_in_at", "seen_at"]
    fields = ["user", "browser", "network", "signed_in_at", "seen_at"]
    list_select_related = ["user"]
    search_fields = ["user__username"]


@admin.register(Follow)
class FollowAdmin(ReadOnlyAdmin):
    """Who follows whom: seen only by staff given "Can view follow" (no group has it), since
    following is private (docs/privacy.md)."""

    list_display = ["follower", "followed", "since"]
    fields = ["follower", "followed", "since"]
    list_select_related = ["follower", "followed"]
    search_fields = ["follower__username", "followed__username"]


@admin.register(PresenceChoice)
class PresenceChoiceAdmin(ReadOnlyAdmin):
    """Who each person lets see when they are online: theirs to change, on their list of
    people they follow."""

    list_display = ["user", "shown_to"]
    list_filter = ["shown_to"]
    list_select_related = ["user"]
    search_fields = ["user__username"]


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    """Who keeps whom away: private as follows are, seen only by staff given "Can view block"
    (no group has it); a report about someone may be the staff's reason to look."""

    list_display = ["blocker", "blocked", "since"]
    fields = ["blocker", "blocked", "since"]
    list_select_related = ["blocker", "blocked"]
    search_fields = ["blocker__username", "blocked__username"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    """The invitations to a game people sent each other, with their settings and what came of
    them."""

    list_display = ["sender", "receiver", "status", "created_at", "table"]
    fields = ["sender", "receiver", "settings", "status", "created_at", "expires_at", "table"]
    list_filter = ["status"]
    list_select_related = ["sender", "receiver"]
    search_fields = ["sender__username", "receiver__username"]
