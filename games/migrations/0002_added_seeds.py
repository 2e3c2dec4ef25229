"""Seats may add a seed before the first deal; each table keeps the seed of its next game."""

from typing import Any

from django.db import migrations, models

import games.engine.deal


def _a_seed_for_each_table(apps: Any, schema_editor: Any) -> None:
    # AddField computes a callable default once for every existing row: no two tables may
    # share a seed, so each gets its own.
    Table = apps.get_model("games", "Table")
    for table in Table.objects.only("pk"):
        table.next_seed = games.engine.deal.new_seed()
        table.save(update_fields=["next_seed"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="added_seed",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.AddField(
            model_name="table",
            name="next_seed",
            field=models.BinaryField(
                default=games.engine.deal.new_seed, editable=False, max_length=32
            ),
        ),
        migrations.RunPython(_a_seed_for_each_table, migrations.RunPython.noop),
    ]
