"""The create-table form: a rule set, its table size and only the options that set offers.

The engine's presets say what each set allows; the form asks them (``Preset.make``) and
never keeps its own copy. An option the host leaves alone takes the set's value; anything the
set does not offer is refused with the engine's reason, never dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Any, Final

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.engine import (
    PRESETS,
    Clock,
    FirstLead,
    HeartsError,
    InvalidRulesError,
    MoonRule,
    Rules,
    ShortPack,
    TieRule,
)

from .models import Table
from .words import AS_THE_SET_SAYS as SET_WORDS
from .words import FORM_CHOICES, FORM_LABELS, PRESET_TITLES, summary

CUSTOM: Final = "custom"
CUSTOM_TITLE: Final = pgettext_lazy("rule set", "Custom")
PRESET_CHOICES = [(key, PRESET_TITLES.get(key, p.title)) for key, p in PRESETS.items()] + [
    (CUSTOM, CUSTOM_TITLE)
]
# Every option of Rules a host may set, in the order the form shows them.
OPTION_NAMES: Final = (
    "target",
    "moon",
    "short_pack",
    "first_lead",
    "ties",
    "clock",
    "points_on_first_trick",
    "queen_breaks_hearts",
    "shoot_the_sun",
    "jack_of_diamonds",
    "old_queen",
)
TABLE_SIZES: Final = (3, 4, 5, 6)
AS_THE_SET_SAYS: Final = ("", SET_WORDS)


def _choices(option: str, values: type[StrEnum]) -> list[tuple[str, str | Promise]]:
    """A choice of the option's values in words, after the blank that keeps the set's value."""
    return [AS_THE_SET_SAYS, *((value.value, FORM_CHOICES[option][value]) for value in values)]


class PresetSelect(forms.Select):
    """The rule-set menu; each choice carries what that set allows, read by table_form.js."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        option["attrs"].update(preset_attrs(str(option["value"])))
        return option


def preset_attrs(key: str) -> dict[str, str]:
    """The data attributes of one rule set: table sizes, options offered, targets, summary."""
    if key == CUSTOM:
        return {
            "data-players": " ".join(map(str, TABLE_SIZES)),
            "data-options": " ".join(OPTION_NAMES),
            "data-summary": _("Every option is yours to set."),
        }
    preset = PRESETS[key]
    offered = [*preset.options, "target"] if len(preset.targets) > 1 else list(preset.options)
    return {
        "data-players": " ".join(map(str, preset.players)),
        "data-options": " ".join(offered),
        "data-targets": either(map(str, preset.targets)),
        # The players are chosen beside it: the line starts with the rules' own table size.
        "data-summary": summary(preset.rules).split(" · ", 1)[1],
    }


def either(values: Iterable[str]) -> str:
    """Alternatives in words: "100 or 50"."""
    words = ""
    for value in values:
        words = value if not words else _("%(one)s or %(other)s") % {"one": words, "other": value}
    return words


class TableForm(forms.Form):
    preset = forms.ChoiceField(
        choices=PRESET_CHOICES,
        initial="standard",
        label=gettext_lazy("Rule set"),
        widget=PresetSelect,
    )
    players = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in TABLE_SIZES],
        coerce=int,
        initial=4,
        label=gettext_lazy("Players"),
    )
    rated = forms.BooleanField(
        required=False,
        label=gettext_lazy("Rated"),
        help_text=gettext_lazy("Only games of people alone are rated."),
    )
    private = forms.BooleanField(
        required=False,
        label=gettext_lazy("Private"),
        help_text=gettext_lazy("Only people with the link can join."),
    )
    bot_level = forms.ChoiceField(
        choices=Table.BotLevel.choices,
        initial="normal",
        label=gettext_lazy("Bot level"),
        help_text=gettext_lazy(
            "Easy remembers who is out of a suit; normal also weighs its passes; strong also"
            " plans its next card and thinks longest."
        ),
    )
    # The options. Left alone (blank, unticked) each takes the rule set's value.
    target = forms.IntegerField(
        min_value=25, max_value=500, required=False, label=FORM_LABELS["target"]
    )
    moon = forms.ChoiceField(
        choices=_choices("moon", MoonRule), required=False, label=FORM_LABELS["moon"]
    )
    short_pack = forms.ChoiceField(
        choices=_choices("short_pack", ShortPack), required=False, label=FORM_LABELS["short_pack"]
    )
    first_lead = forms.ChoiceField(
        choices=_choices("first_lead", FirstLead), required=False, label=FORM_LABELS["first_lead"]
    )
    ties = forms.ChoiceField(
        choices=_choices("ties", TieRule), required=False, label=FORM_LABELS["ties"]
    )
    clock = forms.ChoiceField(
        choices=_choices("clock", Clock), required=False, label=FORM_LABELS["clock"]
    )
    points_on_first_trick = forms.BooleanField(
        required=False, label=FORM_LABELS["points_on_first_trick"]
    )
    queen_breaks_hearts = forms.BooleanField(
        required=False, label=FORM_LABELS["queen_breaks_hearts"]
    )
    shoot_the_sun = forms.BooleanField(required=False, label=FORM_LABELS["shoot_the_sun"])
    jack_of_diamonds = forms.BooleanField(required=False, label=FORM_LABELS["jack_of_diamonds"])
    old_queen = forms.BooleanField(required=False, label=FORM_LABELS["old_queen"])

    def option_fields(self) -> list[forms.BoundField]:
        """The fields of the rules' options, in the order the form shows them."""
        return [self[name] for name in OPTION_NAMES]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset, players = data.get("preset"), data.get("players")
        if not preset or not players:
            return data
        base = Rules() if preset == CUSTOM else PRESETS[preset].rules
        data["options"] = _changes(data, base)
        try:
            if preset == CUSTOM:
                Rules.from_json({"players": players, **data["options"]})
            else:
                PRESETS[preset].make(players, **data["options"])
        except InvalidRulesError as error:
            raise forms.ValidationError(self._in_words(str(error))) from error
        return data

    def _in_words(self, message: str) -> str:
        """The engine's reason as a sentence in the reader's language; the engine names refused
        options by their field names, and people read the labels."""
        refused = re.fullmatch(r"(.+) does not offer: ([\w, ]+)", message)
        if refused is None:
            return rules_refusal(message) + "."
        names = refused.group(2).split(", ")
        options = ", ".join(
            pgettext("an option's name, quoted", "“%(option)s”") % {"option": self.fields[n].label}
            for n in names
        )
        return _("%(rule_set)s does not offer %(options)s.") % {
            "rule_set": refused.group(1),
            "options": options,
        }


# What the engine says of rules it refuses, in the reader's language (the engine's words are
# English, and it has no Django).
_RULES_REFUSALS: Final = {
    "Hearts is played by 3, 4, 5 or 6 players": gettext_lazy(
        "Hearts is played by 3, 4, 5 or 6 players"
    ),
    "The target must be a whole number": gettext_lazy("The target must be a whole number"),
    "The target must be between 25 and 500 points": gettext_lazy(
        "The target must be between 25 and 500 points"
    ),
    "Four players share the whole pack: there is no kitty": gettext_lazy(
        "Four players share the whole pack: there is no kitty"
    ),
    "Rules must be an object of options": gettext_lazy("Rules must be an object of options"),
}


def rules_refusal(message: str) -> str:
    """The engine's reason for refusing rules (``InvalidRulesError``) in the reader's language,
    or as the engine says it when the site does not know its words."""
    if message in _RULES_REFUSALS:
        return str(_RULES_REFUSALS[message])
    if found := re.fullmatch(r"(.+) is played by ([\d or]+) players", message):
        return _("%(rule_set)s is played by %(sizes)s players") % {
            "rule_set": found[1],
            "sizes": either(found[2].split(" or ")),
        }
    if found := re.fullmatch(r"(.+) plays to ([\d or]+) points", message):
        return _("%(rule_set)s plays to %(targets)s points") % {
            "rule_set": found[1],
            "targets": either(found[2].split(" or ")),
        }
    if found := re.fullmatch(r"Unknown option: (.+)", message):
        return _("Unknown option: %(options)s") % {"options": found[1]}
    if found := re.fullmatch(r"(\w+) must be one of ([\w, ]+), not (.+)", message):
        return _("%(option)s must be one of %(choices)s, not %(value)s") % {
            "option": found[1],
            "choices": found[2],
            "value": found[3],
        }
    if found := re.fullmatch(r"(\w+) must be true or false", message):
        return _("%(option)s must be true or false") % {"option": found[1]}
    return message


def _changes(data: dict[str, Any], base: Rules) -> dict[str, Any]:
    """The options the host set to something else than ``base`` (the rule set's values): a
    ticked box turns an option on, a blank choice or target keeps the set's value."""
    changes = {}
    for name in OPTION_NAMES:
        value = data.get(name)
        if value in (None, "", False):
            continue
        if value != _plain(getattr(base, name)):
            changes[name] = value
    return changes


def _plain(value: object) -> object:
    return getattr(value, "value", value)


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
