from __future__ import annotations

from django import forms

from accounts.validators import validate_visible_text

from .models import Report

COMMENT_LENGTH = 1000


class ReportForm(forms.Form):
    """What a player says about another: which kind of trouble, and what happened."""

    category = forms.ChoiceField(
        choices=Report.Category.choices, widget=forms.RadioSelect, label="What is wrong"
    )
    comment = forms.CharField(
        label="What happened",
        max_length=COMMENT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=(
            f"Up to {COMMENT_LENGTH} characters. Staff read it; the player you report does not."
        ),
    )

    def clean_comment(self) -> str:
        comment: str = self.cleaned_data["comment"]
        # Lines and tabs are how people lay out a comment; any other invisible character
        # could make it read differently to staff than it was typed.
        validate_visible_text(comment.translate(dict.fromkeys(map(ord, "\r\n\t"))), "Your comment")
        return comment
