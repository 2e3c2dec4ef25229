"""The rules pages' reads: a table's options from a query string, and the differences between
the named rule sets, one row per option, from the sets' own ``Rules``."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine import PRESETS, InvalidRulesError, Preset, Rules
from games.words import ALLOWED, OPTION_TITLES, OPTION_VALUES, YES_NO, RuleLine, describe

OPTIONS: Final = tuple(f.name for f in dataclasses.fields(Rules) if f.init)
_INTS: Final = ("players", "target")
_TRUE: Final = ("true", "1", "on", "yes")
_FALSE: Final = ("false", "0", "off", "no")


def either(numbers: tuple[int, ...]) -> str:
    """``(3, 4, 5)`` as ``"3, 4 or 5"``."""
    words = [str(n) for n in numbers]
    if len(words) == 1:
        return words[0]
    return _("%(numbers)s or %(last)s") % {"numbers": ", ".join(words[:-1]), "last": words[-1]}


def rules_from_query(query: Mapping[str, str]) -> Rules:
    """The :class:`Rules` a query string names (``?players=5&moon=choose``), the others left
    at their defaults. Raises :class:`InvalidRulesError` for an unknown option or a bad value."""
    unknown = sorted(set(query) - set(OPTIONS))
    if unknown:
        raise InvalidRulesError(_("Unknown option: %(options)s") % {"options": ", ".join(unknown)})
    values: dict[str, Any] = {}
    defaults = Rules()
    for name, raw in query.items():
        if isinstance(getattr(defaults, name), bool):
            values[name] = _boolean(name, raw)
        elif name in _INTS:
            try:
                values[name] = int(raw)
            except ValueError:
                raise InvalidRulesError(
                    _("%(option)s must be a whole number") % {"option": name}
                ) from None
        else:
            values[name] = raw
    return Rules.from_json(values)


def _boolean(name: str, raw: str) -> bool:
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise InvalidRulesError(_("%(option)s must be true or false") % {"option": name})


def rules_url(rules: Rules | Mapping[str, Any]) -> str:
    """The address of the page for these rules (a :class:`Rules` or its ``to_json``), the
    options always in the engine's order (PostgreSQL gives a stored JSON object's keys back in
    an order of its own)."""
    if isinstance(rules, Rules):
        return _rules_url(rules)
    # A table's stored rules, on every push of a hand with refused cards: worked out once.
    return _stored_rules_url(json.dumps(rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _stored_rules_url(stored: str) -> str:
    return _rules_url(Rules.from_json(json.loads(stored)))


@functools.lru_cache(maxsize=256)
def _rules_url(rules: Rules) -> str:
    data = rules.to_json()
    plain = {
        name: str(value).lower() if isinstance(value, bool) else value
        for name, value in data.items()
    }
    return reverse("learn_table_rules") + "?" + urlencode(plain)


def matching_preset(rules: Rules) -> Preset | None:
    """The named set these rules are, with no option changed (at any of its table sizes)."""
    for preset in PRESETS.values():
        if rules.players in preset.players and preset.rules.replace(players=rules.players) == rules:
            return preset
    return None


def offered_options(preset: Preset) -> list[str]:
    """What a host may change at a table of this set, in words."""
    offered = [_inside_a_sentence(str(OPTION_TITLES[option])) for option in preset.options]
    if len(preset.targets) > 1:
        offered.append(_("target %(targets)s") % {"targets": either(preset.targets)})
    return offered


# Languages whose nouns keep their capital inside a sentence.
_CAPITAL_NOUNS: Final = ("de",)


def _inside_a_sentence(title: str) -> str:
    """A heading's words as part of a sentence: its first letter small, unless the language
    writes its nouns with a capital."""
    if (get_language() or "").split("-")[0] in _CAPITAL_NOUNS:
        return title
    return title[0].lower() + title[1:]


def lines_by_option(rules: Rules) -> dict[str, RuleLine]:
    return {line.option: line for line in describe(rules)}


@dataclass(frozen=True)
class Difference:
    option: str
    title: str
    values: tuple[str, ...]  # one per named set, in PRESETS order
    differs: bool  # the sets' own values disagree (what a host may change aside)


def differences() -> list[Difference]:
    """One row per option: its value in each named set, with what a host may change."""
    rows = []
    for option in OPTIONS:
        values = tuple(_value(preset, option) for preset in PRESETS.values())
        own = {str(getattr(preset.rules, option)) for preset in PRESETS.values()}
        if option in ("players", "target"):
            own = set(values)
        rows.append(Difference(option, OPTION_TITLES[option], values, differs=len(own) > 1))
    return rows


def _value(preset: Preset, option: str) -> str:
    if option == "players":
        return either(preset.players)
    if option == "target":
        return either(preset.targets)
    value = getattr(preset.rules, option)
    if isinstance(value, bool):
        words = ALLOWED if option == "points_on_first_trick" else YES_NO
        text = str(words[value])
    else:
        text = str(OPTION_VALUES[option][str(value)])
    if option in preset.options:
        text = _("%(value)s (a host may change it)") % {"value": text}
    return text
