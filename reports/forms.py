from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.validators import validate_visible_text

from .models import Report

COMMENT_LENGTH = 1000


class ReportForm(forms.Form):
    """What a player says about another: which kind of trouble, and what happened."""

    category = forms.ChoiceField(
        choices=Report.Category.choices,
        widget=forms.RadioSelect,
        label=gettext_lazy("What is wrong"),
    )
    comment = forms.CharField(
        label=gettext_lazy("What happened"),
        max_length=COMMENT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=format_lazy(
            gettext_lazy(
                "Up to {length} characters. Staff read it; the player you report does not."
            ),
            length=COMMENT_LENGTH,
        ),
    )

    def clean_comment(self) -> str:
        comment: str = self.cleaned_data["comment"]
        # Lines and tabs are how people lay out a comment; any other invisible character
        # could make it read differently to staff than it was typed.
        visible = comment.translate(dict.fromkeys(map(ord, "\r\n\t")))
        validate_visible_text(visible, _("Your comment"))
        return comment
