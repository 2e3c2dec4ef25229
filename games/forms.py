"""The create-table form: a rule set, its table size and only the options that set offers.

The engine's presets say what each set allows; the form asks them (``Preset.make``) and
never keeps its own copy. An option the host leaves alone takes the set's value; anything the
set does not offer is refused with the engine's reason, never dropped.
"""

from __future__ import annotations

import re
from typing import Any, Final

from django import forms

from games.engine import PRESETS, FirstLead, InvalidRulesError, MoonRule, Rules, ShortPack

from .models import Table
from .rules_text import JACK_BONUS, MINUS, summary

CUSTOM: Final = "custom"
PRESET_CHOICES = [(key, preset.title) for key, preset in PRESETS.items()] + [(CUSTOM, "Custom")]
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
AS_THE_SET_SAYS: Final = ("", "As the rule set says")


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
            "data-summary": "Every option is yours to set.",
        }
    preset = PRESETS[key]
    offered = [*preset.options, "target"] if len(preset.targets) > 1 else list(preset.options)
    return {
        "data-players": " ".join(map(str, preset.players)),
        "data-options": " ".join(offered),
        "data-targets": " or ".join(map(str, preset.targets)),
        # The players are chosen beside it: the line starts with the rules' own table size.
        "data-summary": summary(preset.rules).split(" · ", 1)[1],
    }


class TableForm(forms.Form):
    preset = forms.ChoiceField(
        choices=PRESET_CHOICES, initial="standard", label="Rule set", widget=PresetSelect
    )
    players = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in TABLE_SIZES], coerce=int, initial=4
    )
    rated = forms.BooleanField(required=False, help_text="Only games of people alone are rated.")
    private = forms.BooleanField(required=False, help_text="Only people with the link can join.")
    bot_level = forms.ChoiceField(
        choices=Table.BotLevel.choices,
        initial="normal",
        help_text=(
            "Easy remembers who is out of a suit; normal also weighs its passes; strong also"
            " plans its next card and thinks longest."
        ),
    )
    # The options. Left alone (blank, unticked) each takes the rule set's value.
    target = forms.IntegerField(min_value=25, max_value=500, required=False, label="Target")
    moon = forms.ChoiceField(
        choices=[
            AS_THE_SET_SAYS,
            (MoonRule.OTHERS.value, "Everybody else takes 26"),
            (MoonRule.SELF.value, "The shooter takes 26 off"),
            (MoonRule.CHOOSE.value, "The shooter chooses"),
            (
                MoonRule.AUTOMATIC.value,
                "Automatic: others +26 unless that leaves the shooter behind",
            ),
        ],
        required=False,
        label="Shooting the moon",
    )
    short_pack = forms.ChoiceField(
        choices=[
            AS_THE_SET_SAYS,
            (ShortPack.REMOVE.value, "Take low cards out"),
            (ShortPack.KITTY.value, "Deal them to a kitty"),
        ],
        required=False,
        label="Odd cards",
    )
    first_lead = forms.ChoiceField(
        choices=[
            AS_THE_SET_SAYS,
            (FirstLead.LOWEST_CLUB.value, "The lowest club leads"),
            (FirstLead.LEFT_OF_DEALER.value, "The player left of the dealer leads"),
        ],
        required=False,
        label="First lead",
    )
    ties = forms.ChoiceField(
        choices=[AS_THE_SET_SAYS, ("share", "share"), ("play_on", "play another hand")],
        required=False,
        label="Tied lowest",
    )
    clock = forms.ChoiceField(
        choices=[AS_THE_SET_SAYS, ("relaxed", "relaxed"), ("strict", "strict")],
        required=False,
        label="Clock",
    )
    points_on_first_trick = forms.BooleanField(
        required=False, label="Points allowed on the first trick"
    )
    queen_breaks_hearts = forms.BooleanField(required=False, label="The queen breaks hearts")
    shoot_the_sun = forms.BooleanField(required=False, label="Shooting the sun")
    jack_of_diamonds = forms.BooleanField(
        required=False, label=f"Jack of diamonds {MINUS}{JACK_BONUS}"
    )
    old_queen = forms.BooleanField(required=False, label="Old queen rule")

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
        """The engine names refused options by their field names; people read the labels."""

        def label(match: re.Match[str]) -> str:
            names = match.group(1).split(", ")
            return "does not offer " + ", ".join(f"“{self.fields[n].label}”" for n in names)

        return re.sub(r"does not offer: ([\w, ]+)", label, message) + "."


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
