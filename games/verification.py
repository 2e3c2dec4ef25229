"""Checking the deals: a game's public verification page, the paste-a-seed form and the
standard-library checker script, offered for download.

A running game shows only its fingerprint and the added seeds; once the game is over the page
publishes the seed and the whole record, and ``static/js/verify.js`` re-deals every hand in the
browser (see docs/fairness.md for the algorithm).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from games.engine import (
    PRESETS,
    HeartsError,
    Rules,
    ShortPack,
    cards_of,
    deal_hand,
    fingerprint,
    format_cards,
    mask_of,
)

from .history import viewable_game
from .models import Game
from .records import game_record

CHECKER = Path(settings.BASE_DIR) / "scripts" / "check_record.py"
MAX_HANDS = 40


@require_safe
def game_verify(request: HttpRequest, game_id: int) -> HttpResponse:
    game, code = viewable_game(request, game_id)  # a private game needs a place or the code
    players = list(game.players.select_related("user"))
    context: dict[str, Any] = {
        "game": game,
        "added_seeds": _added_seed_rows(game, players),
        "code": code,
    }
    if game.is_over:
        record = game_record(game)
        context.update(
            record=record,
            seed=record["seed"],
            hands=len(record["hands"]),
            form_url=reverse("verify_form") + "?" + urlencode(_form_query(record)),
        )
    return render(request, "games/verify.html", context)


def _added_seed_rows(game: Game, players: list[Any]) -> list[tuple[str, str]]:
    names = {player.seat: player.name for player in players}
    return [
        (names.get(seat, f"Seat {seat + 1}"), text) for seat, text in enumerate(game.added_seeds)
    ]


def _form_query(record: dict[str, Any]) -> dict[str, Any]:
    """The paste-a-seed form, filled in with this game's inputs."""
    rules = record["rules"]
    return {
        "seed": record["seed"],
        "uses_added": "on" if record["added_seeds"] else "",
        "added": "\n".join(record["added_seeds"]),
        "players": rules["players"],
        "short_pack": rules["short_pack"],
        "hands": max(1, min(len(record["hands"]), MAX_HANDS)),
    }


@require_safe
def checker_script(request: HttpRequest) -> FileResponse:
    """``scripts/check_record.py``, to run at home on a downloaded record."""
    response = FileResponse(CHECKER.open("rb"), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="check_record.py"'
    return response


# The paste-a-seed form --------------------------------------------------------------------


class VerifyForm(forms.Form):
    seed = forms.CharField(
        label="Seed",
        help_text="The 64 hexadecimal digits published when the game ended.",
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    uses_added = forms.BooleanField(
        label="The table used added seeds",
        required=False,
        help_text="Tick this when the game lists added seeds, even if every one of them is empty.",
    )
    added = forms.CharField(
        label="Added seeds, one line per seat",
        required=False,
        strip=False,  # taken exactly as typed: "dave " is not "dave"
        max_length=5000,
        help_text=(
            "Seat 1 on the first line, seat 2 on the second, and so on: exactly one line per "
            "seat, an empty line for a seat that added nothing. Taken exactly as typed."
        ),
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )
    players = forms.TypedChoiceField(
        label="Players",
        choices=[(n, str(n)) for n in (3, 4, 5, 6)],
        coerce=int,
        initial=4,
    )
    short_pack = forms.ChoiceField(
        label="Cards that do not divide evenly",
        choices=[
            (ShortPack.REMOVE.value, "Removed from the pack"),
            (ShortPack.KITTY.value, "Dealt to a kitty"),
        ],
        initial=ShortPack.REMOVE.value,
        widget=forms.RadioSelect,
    )
    rules_json = forms.CharField(
        label="Or paste the rules from a record",
        required=False,
        max_length=5000,
        help_text='The "rules" object of a downloaded record; it replaces the two choices above.',
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
    )
    hands = forms.IntegerField(label="Hands to deal", min_value=1, max_value=MAX_HANDS, initial=1)

    def clean_seed(self) -> bytes:
        text = self.cleaned_data["seed"].strip().lower()
        if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
            raise forms.ValidationError("A seed is exactly 64 hexadecimal digits (0-9 and a-f).")
        return bytes.fromhex(text)

    def clean_rules_json(self) -> Rules | None:
        text = self.cleaned_data["rules_json"].strip()
        if not text:
            return None
        try:
            return Rules.from_json(json.loads(text))
        except json.JSONDecodeError:
            raise forms.ValidationError("These rules are not valid JSON.") from None
        except RecursionError:  # brackets nested deeper than the parser's stack
            raise forms.ValidationError("These rules are nested too deeply.") from None
        except (HeartsError, TypeError, ValueError) as error:
            raise forms.ValidationError(f"These rules cannot be used: {error}") from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if {"players", "short_pack", "rules_json"} & set(self.errors):
            return data
        rules = data.get("rules_json")
        if rules is None:
            try:
                rules = Rules(players=data["players"], short_pack=ShortPack(data["short_pack"]))
            except HeartsError as error:
                raise forms.ValidationError(str(error)) from None
        data["rules"] = rules
        data["added_seeds"] = self._added_seeds(data, rules.players)
        return data

    def _added_seeds(self, data: dict[str, Any], players: int) -> tuple[str, ...]:
        text: str = data.get("added", "")
        if not data.get("uses_added"):
            if text.strip():
                self.add_error("uses_added", "Tick this box to use the added seeds you typed.")
            return ()
        lines = text.replace("\r\n", "\n").split("\n")
        if len(lines) == players + 1 and lines[-1] == "":
            lines.pop()  # a final line feed after the last seat
        if len(lines) != players:
            self.add_error(
                "added",
                f"A table of {players} has exactly {players} added seeds, one per line; "
                f"there are {len(lines)} lines here.",
            )
        return tuple(lines)


@dataclass(frozen=True)
class DealtHand:
    number: int
    dealer: int
    seats: list[str]
    kitty: str


@require_safe
def verify_form(request: HttpRequest) -> HttpResponse:
    form = VerifyForm(request.GET or None)
    context: dict[str, Any] = {"form": form, "presets": PRESETS.values()}
    status = 200
    if form.is_bound:
        if form.is_valid():
            context.update(_deals(form.cleaned_data))
        else:
            status = 400
    return render(request, "games/verify_form.html", context, status=status)


def _deals(data: dict[str, Any]) -> dict[str, Any]:
    rules: Rules = data["rules"]
    seed: bytes = data["seed"]
    added: tuple[str, ...] = data["added_seeds"]
    hands = []
    for number in range(1, data["hands"] + 1):
        deal = deal_hand(rules, seed, number, added)
        hands.append(
            DealtHand(
                number=number,
                dealer=rules.dealer(number),
                seats=[format_cards(cards_of(mask_of(hand))) for hand in deal.hands],
                kitty=format_cards(cards_of(mask_of(deal.kitty))),
            )
        )
    return {
        "deals": hands,
        "rules": rules,
        "seed_hex": seed.hex(),
        "seed_fingerprint": fingerprint(seed),
        "added_used": bool(added),
        # For verify.js, which deals the same seed in the browser and compares.
        "deal_inputs": {
            "seed": seed.hex(),
            "players": rules.players,
            "shortPack": rules.short_pack.value,
            "added": list(added),
            "hands": data["hands"],
        },
    }
