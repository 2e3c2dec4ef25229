"""Finished games for the tests of the bot's review: played by the rule-based player in every
seat (the same game from the same seed), saved as the site saves them."""

from __future__ import annotations

from django.contrib.auth.models import User

from bench._scratch import end_through_the_site, rule_based_match
from games.engine import Rules, fingerprint
from games.models import Game
from tests.helpers.finishing import start


def finished_game(
    players: list[User],
    *,
    bots: int = 0,
    target: int = 25,
    private: bool = False,
    rated: bool = False,
) -> Game:
    """A game of ``players`` (and ``bots``) at a table, played to ``target`` as above."""
    game = start(players, rated=rated, bots=bots)
    rules = Rules.from_json({**game.rules, "target": target})
    seed = bytes(range(32))
    Game.objects.filter(pk=game.pk).update(
        rules=rules.to_json(), seed=seed, fingerprint=fingerprint(seed), added_seeds=[]
    )
    if private:
        game.table.private = True
        game.table.save(update_fields=["private"])
    game.refresh_from_db()
    return end_through_the_site(game, rule_based_match(rules, seed))
