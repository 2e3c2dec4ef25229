"""A player who resigns (or leaves, or times out) before the first card loses the game.

Games used to be called off ("aborted": no result, no rating) when a seat resigned before any
card was played, which let a player walk away from a deal they disliked. The engine now ends
such a game against that seat, as rules.md says. The games called off before are given the
result their move log now replays to, so that every record agrees with its log; their ratings
are not changed here: run ``python manage.py recompute_ratings`` after this migration.
"""

from typing import Any

from django.db import migrations, models

from games.engine import Match, Move, Rules, parse_cards


def _replay_games_called_off(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(status="aborted"):
        moves = [
            Move(row.kind, row.seat, tuple(parse_cards(row.cards)), row.choice, row.timeout)
            for row in game.moves.order_by("number")
        ]
        match = Match.replay(Rules.from_json(game.rules), bytes(game.seed), moves, game.added_seeds)
        result = match.result
        if result is None:  # a log that does not end the game: leave it for staff to see
            continue
        game.status = "finished"
        game.result = {
            "reason": result.reason,
            "places": list(result.places),
            "totals": list(result.totals),
            "forfeited": result.forfeited,
        }
        game.save(update_fields=["status", "result"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_added_seeds"),
    ]

    operations = [
        migrations.RunPython(_replay_games_called_off, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="status",
            field=models.CharField(
                choices=[("playing", "Playing"), ("finished", "Finished")],
                default="playing",
                max_length=10,
            ),
        ),
    ]
