"""Each game keeps a snapshot of its engine state (stamped with its version) for live play;
the games already there get theirs from their seed and move log."""

from typing import Any

from django.db import migrations, models

from games.engine import Match, Move, Rules, parse_cards


def _fill_snapshots(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.all().iterator():
        moves = [
            Move(row.kind, row.seat, tuple(parse_cards(row.cards)), row.choice, row.timeout)
            for row in game.moves.order_by("number")
        ]
        match = Match.replay(Rules.from_json(game.rules), bytes(game.seed), moves, game.added_seeds)
        game.snapshot = match.to_snapshot()
        game.save(update_fields=["snapshot"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_resigning_before_a_card_loses"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="snapshot",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(_fill_snapshots, migrations.RunPython.noop),
    ]
