"""The forms staff fill in between choosing an action on people in the admin and taking it:
why (kept in the audit log), and what else the action needs."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.validators import MAX_LENGTH


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the audit log, for staff."),
    )


class SanctionForm(ReasonForm):
    """A ban's or a suspension's: the person reads the reason word for word, never the note."""

    reason = forms.CharField(
        label=_("Reason (shown to the person)"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_(
            "They read it, word for word, when they try to sign in; it is also kept in "
            "the audit log. Do not name who reported them."
        ),
    )
    note = forms.CharField(
        label=_("Note for staff (never shown to the person)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_(
            "For example the report that led to this, and who filed it. Kept with the "
            "sanction and in the audit log."
        ),
    )


class SuspendForm(SanctionForm):
    until = forms.DateTimeField(
        label=_("Suspended until"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("In UTC."),
    )


class MarkForm(ReasonForm):
    reason = forms.CharField(
        label=pgettext_lazy("the words of a mark on a player", "Mark"),
        max_length=200,
        widget=forms.TextInput(attrs={"size": 60}),
        help_text=_(
            "For example “suspected point feeding”. Until the mark is lifted, their "
            "games are unrated and rated tables refuse them."
        ),
    )


class RenameForm(ReasonForm):
    new_name = forms.CharField(label=_("New name"), max_length=MAX_LENGTH)


class ChatBanForm(SanctionForm):
    reason = forms.CharField(
        label=_("Reason (shown to the person)"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_(
            "They read it, word for word, when they try to write in a chat; it is also "
            "kept in the audit log. Do not name who reported them."
        ),
    )
    until = forms.DateTimeField(
        label=_("Banned from chat until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("In UTC. Leave it empty for a ban until it is lifted."),
    )
