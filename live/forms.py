"""The create-table form: a rule set, its table size and only the options that set offers.

The engine's presets say what each set allows; the form asks them (``Preset.make``) and
never keeps its own copy. An option the host leaves alone takes the set's value; anything the
set does not offer is refused with the engine's reason, never dropped.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Final

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.engine import PRESETS, InvalidRulesError, Rules
from games.engine.rules import Clock, FirstLead, MoonRule, ShortPack, TieRule
from games.forms import CUSTOM, CUSTOM_TITLE
from games.models import Table
from games.words import AS_THE_SET_SAYS as SET_WORDS
from games.words import FORM_CHOICES, FORM_LABELS, PRESET_TITLES, either, rules_refusal, summary

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
