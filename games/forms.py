from __future__ import annotations

from typing import Any

from django import forms

from games.engine import PRESETS, FirstLead, InvalidRulesError, MoonRule, Rules, ShortPack

from .models import Table

PRESET_CHOICES = [(key, preset.title) for key, preset in PRESETS.items()] + [("custom", "Custom")]


class TableForm(forms.Form):
    preset = forms.ChoiceField(choices=PRESET_CHOICES, initial="standard", label="Rule set")
    players = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in (3, 4, 5, 6)], coerce=int, initial=4
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
    # Options a rule set may offer, and every option of a custom table.
    target = forms.IntegerField(min_value=25, max_value=500, initial=100)
    points_on_first_trick = forms.BooleanField(required=False)
    queen_breaks_hearts = forms.BooleanField(required=False)
    moon = forms.ChoiceField(
        choices=[
            (MoonRule.OTHERS.value, "Everybody else takes 26"),
            (MoonRule.SELF.value, "The shooter takes 26 off"),
            (MoonRule.CHOOSE.value, "The shooter chooses"),
            (
                MoonRule.AUTOMATIC.value,
                "Automatic: others +26 unless that leaves the shooter behind",
            ),
        ],
        initial="others",
    )
    shoot_the_sun = forms.BooleanField(required=False)
    jack_of_diamonds = forms.BooleanField(required=False)
    old_queen = forms.BooleanField(required=False)
    short_pack = forms.ChoiceField(
        choices=[
            (ShortPack.REMOVE.value, "Take low cards out"),
            (ShortPack.KITTY.value, "Deal them to a kitty"),
        ]
    )
    first_lead = forms.ChoiceField(
        choices=[
            (FirstLead.LOWEST_CLUB.value, "The lowest club leads"),
            (FirstLead.LEFT_OF_DEALER.value, "The player left of the dealer leads"),
        ]
    )
    ties = forms.ChoiceField(choices=[("share", "share"), ("play_on", "play another hand")])
    clock = forms.ChoiceField(choices=[("relaxed", "relaxed"), ("strict", "strict")])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset = data.get("preset")
        if not preset:
            return data
        try:
            data["options"] = self._options(data)
            if preset == "custom":
                Rules.from_json({"players": data["players"], **data["options"]})
            else:
                PRESETS[preset].make(data["players"], **data["options"])
        except (InvalidRulesError, KeyError) as error:
            raise forms.ValidationError(str(error)) from error
        return data

    def _options(self, data: dict[str, Any]) -> dict[str, Any]:
        names = [
            "target",
            "points_on_first_trick",
            "queen_breaks_hearts",
            "moon",
            "shoot_the_sun",
            "jack_of_diamonds",
            "old_queen",
            "short_pack",
            "first_lead",
            "ties",
            "clock",
        ]
        if data["preset"] != "custom":
            preset = PRESETS[data["preset"]]
            names = [n for n in preset.options if n in data]
            options = {n: data[n] for n in names if data[n] != getattr(preset.rules, n)}
            if data.get("target") and data["target"] != 100 and data["target"] in preset.targets:
                options["target"] = data["target"]
            return options
        return {n: data[n] for n in names if n in data and data[n] not in (None, "")}
