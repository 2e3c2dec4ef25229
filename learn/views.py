"""The Learn pages: rules generated from the engine's ``Rules``, the glossary, strategy hints
and the drills. Nothing here reads or writes anything a person did."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engine import PRESETS, InvalidRulesError, Preset, Rules
from games.words import preset_title, rules_refusal, summary

from . import drills
from .rules_pages import (
    differences,
    either,
    lines_by_option,
    matching_preset,
    offered_options,
    rules_from_query,
)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request, "learn/index.html", {"section": "index", "presets": _presets(), "kinds": _kinds()}
    )


@require_GET
def rules_overview(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "learn/rules_overview.html",
        {"section": "rules", "presets": _presets(), "differences": differences()},
    )


@require_GET
def table_rules(request: HttpRequest) -> HttpResponse:
    """The rules of one table, from its options in the query string."""
    if not request.GET:
        return rules_overview(request)
    try:
        rules = rules_from_query(request.GET.dict())
    except InvalidRulesError as error:
        # The engine's words for rules it refuses, in the reader's language.
        context = {"section": "rules", "error": rules_refusal(str(error)), "presets": _presets()}
        return render(request, "learn/rules_invalid.html", context, status=400)
    preset = matching_preset(rules)
    return _rules_page(request, rules, _("The rules at this table"), preset)


@require_GET
def preset_rules(request: HttpRequest, key: str) -> HttpResponse:
    preset = PRESETS.get(key)
    if preset is None:
        raise Http404("No rule set of that name")
    title = _("%(set)s rules") % {"set": preset_title(key)}
    return _rules_page(request, preset.rules, title, preset, named=True)


def _rules_page(
    request: HttpRequest, rules: Rules, title: str, preset: Preset | None, named: bool = False
) -> HttpResponse:
    context = {
        "section": "rules",
        "title": title,
        "rules": rules,
        "summary": summary(rules),
        "lines": lines_by_option(rules),
        "preset": preset,
        "named": named,
        "sizes": either(preset.players) if preset else "",
        "offered": offered_options(preset) if preset else [],
    }
    return render(request, "learn/rules.html", context)


@require_GET
def glossary(request: HttpRequest) -> HttpResponse:
    return render(request, "learn/glossary.html", {"section": "glossary"})


@require_GET
def strategy(request: HttpRequest) -> HttpResponse:
    return render(request, "learn/strategy.html", {"section": "strategy"})


@require_GET
def drill_list(request: HttpRequest) -> HttpResponse:
    return render(request, "learn/drills.html", {"section": "drills", "kinds": _kinds()})


@require_GET
def drill(request: HttpRequest, kind: str, seed: int) -> HttpResponse:
    if kind not in drills.KINDS:
        raise Http404("No drill of that kind")
    try:
        found = drills.make_drill(kind, seed)
    except drills.NoPositionError:
        raise Http404("No position for that drill") from None
    return render(request, "learn/drill.html", {"section": "drills", "drill": found})


def _presets() -> list[tuple[str, str, str]]:
    return [(key, preset_title(key), summary(preset.rules)) for key, preset in PRESETS.items()]


def _kinds() -> list[tuple[str, str]]:
    return [(kind, str(drills.TITLES[kind])) for kind in drills.KINDS]
