"""The staff page that ranks pairs of players by how unlikely their feeding is by chance."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .selectors import min_games, ranked_pairs
from .signals import ALPHA


@require_safe
@staff_member_required
def pairs(request: HttpRequest) -> HttpResponse:
    signals = ranked_pairs()
    ctx = {
        "pairs": signals,
        "min_games": min_games(),
        "alpha": ALPHA,
        "threshold": ALPHA / max(1, len(signals)),
    }
    return render(request, "collusion/pairs.html", ctx)
