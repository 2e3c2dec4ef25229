"""The history's filters and the paste-a-seed form (the create-table form is live/forms.py)."""

from __future__ import annotations

import json
from typing import Any, Final

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.engine import (
    PRESETS,
    HeartsError,
    InvalidRulesError,
    Rules,
    ShortPack,
)

from .words import PRESET_TITLES, rules_refusal

CUSTOM: Final = "custom"
CUSTOM_TITLE: Final = pgettext_lazy("rule set", "Custom")


# The history's filters --------------------------------------------------------------------


class GameFilterForm(forms.Form):
    player = forms.CharField(required=False, max_length=150, label=gettext_lazy("Player"))
    preset = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Rule set"),
        choices=[("", pgettext_lazy("any rule set", "Any"))]
        + [(key, PRESET_TITLES.get(key, p.title)) for key, p in PRESETS.items()]
        + [(CUSTOM, CUSTOM_TITLE)],  # the tables whose options were chosen one by one
    )
    rated = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Rated"),
        choices=[
            ("", gettext_lazy("Rated or casual")),
            ("yes", gettext_lazy("Rated")),
            ("no", gettext_lazy("Casual")),
        ],
    )
    result = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Result"),
        choices=[
            ("", pgettext_lazy("any result", "Any")),
            ("finished", gettext_lazy("Played to the end")),
            ("early", gettext_lazy("Ended early")),
        ],
    )
    since = forms.DateField(
        required=False,
        label=pgettext_lazy("the first day of a range of dates", "From"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    until = forms.DateField(
        required=False,
        label=pgettext_lazy("the last day of a range of dates", "To"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )


# The paste-a-seed form (games/verification.py) ---------------------------------------------

MAX_HANDS = 40


class VerifyForm(forms.Form):
    seed = forms.CharField(
        label=gettext_lazy("Seed"),
        help_text=gettext_lazy("The 64 hexadecimal digits published when the game ended."),
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    uses_added = forms.BooleanField(
        label=gettext_lazy("The table used added seeds"),
        required=False,
        help_text=gettext_lazy(
            "Tick this when the game lists added seeds, even if every one of them is empty."
        ),
    )
    added = forms.CharField(
        label=gettext_lazy("Added seeds, one line per seat"),
        required=False,
        strip=False,  # taken exactly as typed: "dave " is not "dave"
        max_length=5000,
        help_text=gettext_lazy(
            "Seat 1 on the first line, seat 2 on the second, and so on: exactly one line per "
            "seat, an empty line for a seat that added nothing. Taken exactly as typed."
        ),
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=[(n, str(n)) for n in (3, 4, 5, 6)],
        coerce=int,
        initial=4,
    )
    short_pack = forms.ChoiceField(
        label=gettext_lazy("Cards that do not divide evenly"),
        choices=[
            (ShortPack.REMOVE.value, gettext_lazy("Removed from the pack")),
            (ShortPack.KITTY.value, gettext_lazy("Dealt to a kitty")),
        ],
        initial=ShortPack.REMOVE.value,
        widget=forms.RadioSelect,
    )
    rules_json = forms.CharField(
        label=gettext_lazy("Or paste the rules from a record"),
        required=False,
        max_length=5000,
        help_text=gettext_lazy(
            'The "rules" object of a downloaded record; it replaces the two choices above.'
        ),
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
    )
    hands = forms.IntegerField(
        label=gettext_lazy("Hands to deal"), min_value=1, max_value=MAX_HANDS, initial=1
    )

    def clean_seed(self) -> bytes:
        text = self.cleaned_data["seed"].strip().lower()
        if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
            raise forms.ValidationError(_("A seed is exactly 64 hexadecimal digits (0-9 and a-f)."))
        return bytes.fromhex(text)

    def clean_rules_json(self) -> Rules | None:
        text = self.cleaned_data["rules_json"].strip()
        if not text:
            return None
        try:
            return Rules.from_json(json.loads(text))
        except json.JSONDecodeError:
            raise forms.ValidationError(_("These rules are not valid JSON.")) from None
        except RecursionError:  # brackets nested deeper than the parser's stack
            raise forms.ValidationError(_("These rules are nested too deeply.")) from None
        except InvalidRulesError as error:
            raise forms.ValidationError(
                _("These rules cannot be used: %(reason)s") % {"reason": rules_refusal(str(error))}
            ) from None
        except (HeartsError, TypeError, ValueError) as error:
            raise forms.ValidationError(
                _("These rules cannot be used: %(reason)s") % {"reason": error}
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if {"players", "short_pack", "rules_json"} & set(self.errors):
            return data
        rules = data.get("rules_json")
        if rules is None:
            try:
                rules = Rules(players=data["players"], short_pack=ShortPack(data["short_pack"]))
            except HeartsError as error:
                raise forms.ValidationError(rules_refusal(str(error))) from None
        data["rules"] = rules
        data["added_seeds"] = self._added_seeds(data, rules.players)
        return data

    def _added_seeds(self, data: dict[str, Any], players: int) -> tuple[str, ...]:
        text: str = data.get("added", "")
        if not data.get("uses_added"):
            if text.strip():
                self.add_error("uses_added", _("Tick this box to use the added seeds you typed."))
            return ()
        lines = text.replace("\r\n", "\n").split("\n")
        if len(lines) == players + 1 and lines[-1] == "":
            lines.pop()  # a final line feed after the last seat
        if len(lines) != players:
            self.add_error(
                "added",
                ngettext(
                    "A table of %(players)d has exactly %(players)d added seeds, one per line; "
                    "there is %(lines)d line here.",
                    "A table of %(players)d has exactly %(players)d added seeds, one per line; "
                    "there are %(lines)d lines here.",
                    len(lines),
                )
                % {"players": players, "lines": len(lines)},
            )
        return tuple(lines)
