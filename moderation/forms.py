"""The forms staff fill in between choosing an action on people in the admin and taking it:
why (kept in the audit log), and what else the action needs."""

from __future__ import annotations

from django import forms

from accounts.validators import MAX_LENGTH


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Kept in the audit log; a suspended or banned person is shown it.",
    )


class SuspendForm(ReasonForm):
    until = forms.DateTimeField(
        label="Suspended until",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="In UTC.",
    )


class MarkForm(ReasonForm):
    reason = forms.CharField(
        label="Mark",
        max_length=200,
        widget=forms.TextInput(attrs={"size": 60}),
        help_text="For example “suspected point feeding”. Until the mark is lifted, their "
        "games are unrated and rated tables refuse them.",
    )


class RenameForm(ReasonForm):
    new_name = forms.CharField(label="New name", max_length=MAX_LENGTH)
