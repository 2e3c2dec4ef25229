"""Celery tasks: bots move through the same service as people, after a short pause.

A task carries the game's version when it was scheduled; if the game has moved on, the task
does nothing, so a duplicate or late delivery changes nothing. The bot decides outside any
transaction: no lock is held while it thinks.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from games.bots import make_bot
from games.engine import Phase, seat_view

from . import services
from .models import Game

log = logging.getLogger(__name__)


def schedule_bots(game_id: int, version: int) -> None:
    bot_move.apply_async((game_id, version), countdown=settings.HEARTS_BOT_DELAY)


@shared_task(acks_late=True, ignore_result=True)
def bot_move(game_id: int, version: int) -> None:
    play_bots(game_id, version)


def play_bots(game_id: int, version: int) -> None:
    """Make the moves the bots owe at ``version``: every bot's pass, or one card or choice."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.is_over or game.version != version:
        return
    match = game.match()
    bots = set(game.players.filter(is_bot=True).values_list("seat", flat=True))
    bot = make_bot(game.table.bot_level)
    for seat in services.seats_to_act(match):
        if seat not in bots:
            continue
        view = seat_view(match, seat)
        try:
            if view.phase is Phase.PASSING:
                cards = [str(c) for c in bot.choose_pass(view)]
                outcome = services.act(game_id, seat, "pass", version=version, cards=cards)
            elif view.phase is Phase.MOON_CHOICE:
                choice = bot.choose_moon(view)
                outcome = services.act(game_id, seat, "moon", version=version, choice=choice)
            else:
                card = str(bot.choose_play(view))
                outcome = services.act(game_id, seat, "play", version=version, cards=[card])
        except services.StaleVersion:
            return  # somebody else moved first; their move scheduled what comes next
        version = outcome.version
        if view.phase is not Phase.PASSING:
            return  # one card at a time, so that people can follow the play
        match = Game.objects.get(pk=game_id).match()
